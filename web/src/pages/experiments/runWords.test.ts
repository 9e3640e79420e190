import { describe, expect, it } from "vitest";
import { defaultPair, runName, seriesOf } from "./runWords";

const hosted = (id: string, cohortIndex: number, label: string, comparisonId = "cmp_1") => ({
  id,
  source: "HOSTED",
  cohortIndex,
  cohortLabel: label,
  releaseName: label === "quick" ? "capitals v2" : label,
  comparisonId,
});

describe("run words", () => {
  it("names a hosted run by its cohort label and release, never its id", () => {
    expect(runName(hosted("run_a", 0, "capitals v2"))).toBe("capitals v2");
    expect(runName(hosted("run_b", 0, "quick"))).toBe("quick (capitals v2)");
    expect(runName({ id: "run_c", source: "IMPORTED" })).toBe("run_c");
  });
  it("draws a line per cohort label", () => {
    expect(seriesOf(hosted("run_b", 0, "quick"))).toBe("quick");
    expect(seriesOf({ id: "run_c", source: "IMPORTED" })).toBe("Imported runs");
  });
  it("starts a diff from the candidate against its own comparison's baseline", () => {
    // Newest first; the baseline run of the newest comparison happens to be listed first.
    const runs = [hosted("run_base", 1, "capitals v1"), hosted("run_cand", 0, "capitals v2")];
    expect(defaultPair(runs)).toEqual({ candidate: "run_cand", baseline: "run_base" });
    const imported = [
      { id: "run_2", source: "IMPORTED" },
      { id: "run_1", source: "IMPORTED" },
    ];
    expect(defaultPair(imported)).toEqual({ candidate: "run_2", baseline: "run_1" });
  });
});

import { describe, expect, it } from "vitest";
import { dollars } from "../../lib/format";
import { capWarning, type Preview } from "./PreviewPanel";
import { runReason } from "./runReason";

const preview = (blockers: string[]): Preview => ({
  datasetVersionNumber: 1,
  split: "DEV",
  splitCaseCount: 24,
  caseCount: 24,
  leftOutCount: 0,
  trialsPerCase: 3,
  totalCalls: 144,
  costBoundCents: 0,
  summary: "Up to 144 model calls.",
  canStart: blockers.length === 0,
  connections: [],
  variables: [],
  warnings: [],
  blockers: blockers.map((message) => ({ code: "HOSTED_RUNS_OFF", message })),
  shipPolicy: { sentence: "Ship when at most 2 points worse." },
});

describe("why Run is disabled", () => {
  it("names the missing choice first", () =>
    expect(runReason("Choose two cohorts and a dataset.", { current: false })).toBe(
      "Choose two cohorts and a dataset.",
    ));
  it("waits for the preview of the draft as it is", () =>
    expect(runReason(null, { current: false, preview: preview([]) })).toBe(
      "Working out the calls and the cost…",
    ));
  it("gives the first blocker", () =>
    expect(runReason(null, { current: true, preview: preview(["Off.", "Not ready."]) })).toBe("Off."));
  it("has none when the preview can start", () =>
    expect(runReason(null, { current: true, preview: preview([]) })).toBeNull());
});

describe("capWarning", () => {
  const priced = { ...preview([]), caseCount: 20, costBoundCents: 40 }; // 2 ¢ a case at most
  it("warns when the cap is below one case's cost bound", () => {
    expect(capWarning(priced, 0.01)).toBe(
      `The budget cap (${dollars(0.01)}) is below what one case may cost (up to ${dollars(2)} for every ` +
        "cohort's trials): the run may stop on the cap after its first case, with too few cases " +
        "for a verdict.",
    );
  });
  it("says nothing without a cap or with a cap of one case or more", () => {
    expect(capWarning(priced, null)).toBeNull();
    expect(capWarning(priced, 2)).toBeNull();
  });
});

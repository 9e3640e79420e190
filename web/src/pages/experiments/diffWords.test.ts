import { describe, expect, it } from "vitest";
import { deltaWords, evaluatorName, evaluatorWords, score, signedScore } from "./diffWords";

describe("run diff words", () => {
  it("prints scores and marks missing ones", () => {
    expect(score(0.84166)).toBe("0.842");
    expect(score(null)).toBe("—");
  });
  it("signs deltas with a real minus and leaves zero unsigned", () => {
    expect(signedScore(-0.175)).toBe("−0.175");
    expect(signedScore(0.2)).toBe("+0.200");
    expect(signedScore(-0.0001)).toBe("0.000");
  });
  it("reads a delta with its interval in points", () => {
    expect(deltaWords(-0.25, -0.458, -0.083)).toBe(
      "−25.0 points (95% interval −45.8 points to −8.3 points)",
    );
    expect(deltaWords(0.1, null, null)).toBe("+10.0 points");
    expect(deltaWords(null, null, null)).toBe("—");
  });
  it("reads an evaluator line", () => {
    const line = {
      name: "judge",
      baselineMean: 0.9,
      candidateMean: 0.2,
      delta: -0.7,
      status: "REGRESSED",
    };
    expect(evaluatorWords(line)).toBe("judge: 0.90 → 0.20 (−0.70) regressed");
    expect(evaluatorWords({ name: "judge", status: "NO_VERDICT" })).toBe(
      "judge: — → — no verdict",
    );
  });
  it("says a check kind in words, never CONTAINS", () => {
    expect(evaluatorName("CONTAINS")).toBe("Contains the expected output");
    expect(evaluatorWords({ name: "EXACT_MATCH", status: "NO_CHANGE" })).toBe(
      "Matches the expected output: — → — no change",
    );
    expect(evaluatorName("accuracy")).toBe("accuracy");
  });
});

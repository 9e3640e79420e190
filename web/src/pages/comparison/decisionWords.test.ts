import { describe, expect, it } from "vitest";
import {
  criterionBound,
  criterionFigures,
  criterionName,
  signedChange,
  signedPoints,
} from "./decisionWords";
import { metricDifference } from "./metrics";

describe("decision words", () => {
  it("writes points and changes with a true minus sign", () => {
    expect([signedPoints(-33.333), signedPoints(0.04), signedPoints(2), signedPoints(null)]).toEqual(
      ["−33.3", "0.0", "+2.0", "unbounded"],
    );
    expect([signedChange(0.59), signedChange(1.2), signedChange(1.004)]).toEqual([
      "−41%",
      "+20%",
      "0%",
    ]);
  });

  it("says what a criterion tests, its interval and its bound in its own unit", () => {
    const quality = {
      kind: "QUALITY" as const,
      metric: "PASS_RATE" as const,
      estimate: -0.4,
      low: -1.6,
      high: 0.9,
      threshold: -2,
    };
    expect(criterionName(quality)).toBe("Quality (pass rate)");
    expect(criterionFigures(quality, 0.9)).toBe("Δ −0.4 points, 90% interval −1.6 to +0.9");
    expect(criterionBound(quality)).toBe("margin −2.0 points");
    const latency = {
      kind: "GUARDRAIL" as const,
      metric: "LATENCY_P95" as const,
      estimate: 1.03,
      low: 0.98,
      high: 1.08,
      threshold: 1.2,
    };
    expect(criterionName(latency)).toBe("Guardrail: p95 latency");
    expect(criterionFigures(latency, 0.9)).toBe("+3%, 90% interval −2% to +8%");
    expect(criterionBound(latency)).toBe("allowed up to +20%");
    expect(criterionBound({ ...latency, kind: "GAIN", metric: "COST_PER_CASE", threshold: 1 })).toBe(
      "must be below 0%",
    );
    expect(criterionFigures({ ...latency, estimate: null }, 0.9)).toBe("not measured");
  });

  it("gives a row without an interval its plain difference", () => {
    const plain = (name: string, candidate: number, baseline: number) =>
      metricDifference(name, { candidate, baseline, baselineCohortIndex: 1 });
    expect(plain("latency_p50_ms", 1200, 1500)).toEqual({ estimate: "−300 ms", interval: null });
    expect(plain("pass_rate.CONTAINS", 0.5, 0.75)).toEqual({
      estimate: "−25.0 points",
      interval: null,
    });
    expect(plain("cost_per_case_cents", 2, 1)).toEqual({ estimate: "+1 ¢", interval: null });
  });
});

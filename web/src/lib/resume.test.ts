import { describe, expect, it } from "vitest";
import { advance, seqOf } from "./resume";

describe("resumable subscriptions", () => {
  it("reads the root field's seq", () => {
    expect(seqOf({ comparisonProgress: { seq: 7, percent: 10 } })).toBe(7);
    expect(seqOf({ other: { value: 1 } })).toBeNull();
    expect(seqOf(null)).toBeNull();
  });

  it("moves afterSeq forward, never back", () => {
    const payload = { variables: { id: "c", afterSeq: null as number | null } };
    advance(payload, { data: { comparisonProgress: { seq: 4 } } });
    expect(payload.variables.afterSeq).toBe(4);
    advance(payload, { data: { comparisonProgress: { seq: 3 } } });
    expect(payload.variables.afterSeq).toBe(4);
  });

  it("leaves operations without afterSeq alone", () => {
    const payload = { variables: { id: "c" } as Record<string, unknown> };
    advance(payload, { data: { comparisonProgress: { seq: 4 } } });
    expect(payload.variables).toEqual({ id: "c" });
  });
});

import { describe, expect, it } from "vitest";
import type { ComparisonStatus, StopReason } from "../gql/graphql";
import { decisionWord, statusWord } from "./comparisonWords";
import statusExamples from "./status.examples.json";

describe("statusWord", () => {
  // The same table checks the CLI's words (tests/server/test_money_words.py).
  it.each(statusExamples as [ComparisonStatus, StopReason | null, string][])(
    "%s (%s) → %s",
    (status, stopReason, text) => expect(statusWord(status, stopReason)).toBe(text),
  );
});

describe("decisionWord", () => {
  it("says each outcome in words", () => {
    expect(["SHIP", "DONT_SHIP", "MORE_DATA", "NO_DECISION"].map((o) => decisionWord(o as "SHIP"))).toEqual([
      "Ship",
      "Don't ship",
      "More data needed",
      "No decision",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { connectionStatusWords, enumWords } from "./words";

describe("enumWords", () => {
  it.each([
    ["OPENAI_COMPATIBLE", "OpenAI-compatible"],
    ["CLUSTERED_CR1", "Clustered by case (CR1)"],
    ["MCNEMAR_MID_P", "McNemar mid-p"],
    ["SIGNIFICANT_REGRESSION", "Significant regression"],
    ["OPEN", "Open"],
    ["COMPARISON_FINISHED", "Comparison finished"],
    ["DELIVERED", "Delivered"],
    [null, "—"],
  ])("%s reads %s", (value, words) => {
    expect(enumWords(value)).toBe(words);
  });
  it("says a connection's status in a sentence", () => {
    expect(connectionStatusWords("UNREACHABLE")).toBe(
      "Unreachable: the provider did not answer the last check",
    );
  });
  it("never says a simulated connection's provider answered", () => {
    expect(connectionStatusWords("READY", true)).toBe(
      "Ready: a simulated connection answers without a provider",
    );
    expect(connectionStatusWords("READY", true)).not.toContain("provider answered");
  });
});

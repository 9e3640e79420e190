import { describe, expect, it } from "vitest";
import { wordDiff } from "./wordDiff";

describe("wordDiff", () => {
  it("marks nothing when the outputs are equal", () => {
    expect(wordDiff("Paris is the capital", "Paris is the capital")).toEqual([
      { text: "Paris is the capital", changed: false },
    ]);
  });
  it("marks the words the output has that the reference has not", () => {
    const pieces = wordDiff("The capital is Paris", "The capital is Lyon");
    expect(pieces.filter((p) => p.changed).map((p) => p.text)).toEqual(["Lyon"]);
    expect(pieces.map((p) => p.text).join("")).toBe("The capital is Lyon");
  });
  it("keeps the output's own text whole, markup included, as plain text", () => {
    const output = '<img src=x onerror="alert(1)">';
    expect(wordDiff("Paris", output).map((p) => p.text).join("")).toBe(output);
  });
  it("handles empty sides", () => {
    expect(wordDiff("", "")).toEqual([]);
    expect(wordDiff("", "new words")).toEqual([{ text: "new words", changed: true }]);
    expect(wordDiff("old words", "")).toEqual([]);
  });
});

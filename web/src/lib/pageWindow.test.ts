import { describe, expect, it } from "vitest";
import { shownPages } from "./pageWindow";

describe("the pages a window shows", () => {
  const loaded = (n: number) => [null, ...Array.from({ length: n - 1 }, (_, i) => `c${i + 1}`)];

  it("adds pages until the window is full", () => {
    expect(shownPages(loaded(1), 5, "turn")).toEqual([null]);
    expect(shownPages(loaded(5), 5, "turn")).toEqual([null, "c1", "c2", "c3", "c4"]);
    expect(shownPages(loaded(2), 2, "slide")).toEqual([null, "c1"]);
  });

  it("slides: past the window the oldest page makes way for the next", () =>
    expect(shownPages(loaded(3), 2, "slide")).toEqual(["c1", "c2"]));

  it("turns: past the window a fresh one starts at the next page", () => {
    expect(shownPages(loaded(6), 5, "turn")).toEqual(["c5"]);
    expect(shownPages(loaded(10), 5, "turn")).toEqual(["c5", "c6", "c7", "c8", "c9"]);
  });
});

import { describe, expect, it } from "vitest";
import { FIRST_WINDOW, isFull, loadMore, MAX_ROWS, PAGE_SIZE } from "./listWindow";

describe("the list window", () => {
  it("appends pages until 100 rows are shown", () => {
    let window = FIRST_WINDOW;
    for (let page = 1; page < MAX_ROWS / PAGE_SIZE; page += 1) {
      expect(isFull(window)).toBe(false);
      window = loadMore(window, `c${page}`, page * PAGE_SIZE);
    }
    expect(window.afters).toEqual([null, "c1", "c2", "c3", "c4"]);
    expect(isFull(window)).toBe(true);
  });

  it("then starts a new window at the next page, counting the rows before it", () => {
    const full = { afters: [null, "c1", "c2", "c3", "c4"], offset: 0 };
    expect(loadMore(full, "c5", 100)).toEqual({ afters: ["c5"], offset: 100 });
  });
});

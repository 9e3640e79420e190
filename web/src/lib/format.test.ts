import { describe, expect, it } from "vitest";
import { ago, count, dollars, exactTime, percent, points, ratePoints, timeLeft } from "./format";

describe("dollars", () => {
  it.each([
    [120, "$1.20"],
    [5000, "$50.00"],
    [0, "$0.00"],
    [0.01, "$0.00010"],
    [123456, "$1,234.56"],
    [null, "—"],
  ])("%s cents → %s", (cents, text) => expect(dollars(cents)).toBe(text));
});

describe("percent and points", () => {
  it("rounds a rate to one decimal", () => expect(percent(0.86666)).toBe("86.7%"));
  it("puts a real minus sign on a negative delta", () =>
    expect(points(-11.666)).toBe("−11.7 points"));
  it("puts a plus sign on a positive delta", () => expect(points(3.25)).toBe("+3.3 points"));
  it("gives zero no sign, even from a tiny negative", () => expect(points(-0.01)).toBe("0.0 points"));
  it("reads a rate's size in points, unsigned", () => expect(ratePoints(0.0345)).toBe("3.5 points"));
});

describe("ago", () => {
  const now = Date.parse("2026-12-01T12:00:00Z");
  it.each([
    ["2026-12-01T11:59:50Z", "just now"],
    ["2026-12-01T11:55:00Z", "5 min ago"],
    ["2026-12-01T10:00:00Z", "2 h ago"],
    ["2026-11-30T12:00:00Z", "1 day ago"],
    ["2026-11-28T12:00:00Z", "3 days ago"],
  ])("%s → %s", (iso, text) => expect(ago(iso, now)).toBe(text));
  it("never reads a time in the future as negative", () =>
    expect(ago("2026-12-01T12:05:00Z", now)).toBe("just now"));
});

describe("the rest", () => {
  it("prints the exact time in UTC", () =>
    expect(exactTime("2026-12-01T10:00:00.123Z")).toBe("2026-12-01 10:00:00 UTC"));
  it("says the time left in words", () => {
    expect(timeLeft(12)).toBe("about 12 s");
    expect(timeLeft(130)).toBe("about 2 min");
    expect(timeLeft(null)).toBe("—");
  });
  it("groups thousands", () => expect(count(20000)).toBe("20,000"));
});

import { describe, expect, it } from "vitest";
import { jsonText } from "./jsonText";

describe("jsonText", () => {
  it("keeps a string as it is, markup included", () =>
    expect(jsonText("<script>x</script>")).toBe("<script>x</script>"));
  it("prints an object as indented JSON", () =>
    expect(jsonText({ q: "Capital?" })).toBe('{\n  "q": "Capital?"\n}'));
  it("prints nothing for null", () => expect(jsonText(null)).toBe(""));
});

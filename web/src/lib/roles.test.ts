import { describe, expect, it } from "vitest";
import { memberWords } from "./roles";

describe("memberWords", () => {
  it.each([
    ["Dana Reyes", "ADMIN", "Dana Reyes (Admin)"],
    ["owner", "OWNER", "Owner"],
    ["Demo owner", "OWNER", "Demo owner"],
    ["  ", "VIEWER", "Viewer"],
  ] as const)("%s as %s reads %s", (name, role, words) => {
    expect(memberWords(name, role)).toBe(words);
  });
});

import { describe, expect, it } from "vitest";
import { signedOffWords } from "./signOffWords";

describe("sign-off words", () => {
  it("names a sign-off as what it is, beside the decision it goes against", () => {
    expect(signedOffWords("APPROVE", "DONT_SHIP", "Ada")).toBe(
      "Signed off: approved over Don't ship, by Ada",
    );
    expect(signedOffWords("APPROVE", "MORE_DATA", "Ada")).toBe(
      "Signed off: approved over More data needed, by Ada",
    );
    expect(signedOffWords("APPROVE", "SHIP", "Ada")).toBe("Signed off: approved, by Ada");
    expect(signedOffWords("HOLD", "DONT_SHIP", "Ada")).toBe("Signed off: hold, by Ada");
    expect(signedOffWords("REQUEST_CHANGES", null, null)).toBe("Signed off: changes requested");
  });
});

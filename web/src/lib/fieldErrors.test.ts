import { CombinedError } from "urql";
import { describe, expect, it } from "vitest";
import { GraphQLError } from "graphql";
import { inWords, messageAt } from "./fieldErrors";

const validation = (field: string, message: string) =>
  new CombinedError({
    graphQLErrors: [new GraphQLError(message, { extensions: { code: "VALIDATION_FAILED", field } })],
  });

describe("messageAt", () => {
  const labels = { trialsPerCase: "Trials per case" };
  it("puts the API's message at the field it names, in the form's words", () => {
    const error = validation("trialsPerCase", "`trialsPerCase` must be between 1 and 10");
    expect(messageAt(error, "trialsPerCase", labels)).toBe("Trials per case must be between 1 and 10");
    expect(messageAt(error, "budgetCapCents", labels)).toBeNull();
  });
  it("matches a nested field by its name", () => {
    const error = validation("input.trialsPerCase", "`trialsPerCase` must be between 1 and 10");
    expect(messageAt(error, "trialsPerCase", labels)).not.toBeNull();
  });
  it("leaves unknown names as they are", () => {
    expect(inWords("`x` is wrong", {})).toBe("x is wrong");
  });
});

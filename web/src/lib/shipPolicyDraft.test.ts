import { CombinedError } from "urql";
import { describe, expect, it } from "vitest";
import { GraphQLError } from "graphql";
import {
  addGuardrail,
  policyDraft,
  policyInput,
  policyProblems,
  serverPolicyProblems,
} from "./shipPolicyDraft";

const validation = (field: string, message: string) =>
  new CombinedError({
    graphQLErrors: [new GraphQLError(message, { extensions: { code: "VALIDATION_FAILED", field } })],
  });

const DEFAULT = {
  qualityMarginPoints: 2,
  alpha: 0.05,
  requireGain: "NONE" as const,
  guardrails: [{ metric: "FAILED_OR_MISSING" as const, maxIncreasePercent: null, maxIncreasePoints: 5 }],
  judge: { minLabels: 30, minKappa: 0.6 },
};

describe("a ship policy in a form", () => {
  it("reads a policy and gives it back unchanged", () => {
    const draft = policyDraft(DEFAULT);
    expect(draft.guardrails[0]?.maxIncrease).toBe("5");
    expect(policyInput(draft)).toEqual({
      qualityMarginPoints: 2,
      alpha: 0.05,
      requireGain: "NONE",
      guardrails: [{ metric: "FAILED_OR_MISSING", maxIncreasePoints: 5 }],
      judge: { minLabels: 30, minKappa: 0.6 },
    });
  });
  it("sends a ratio guardrail in percent, failed-or-missing in points", () => {
    const draft = addGuardrail(policyDraft(DEFAULT));
    expect(draft.guardrails[1]).toMatchObject({ metric: "COST_PER_CASE", maxIncrease: "20" });
    expect(policyInput(draft).guardrails?.[1]).toEqual({ metric: "COST_PER_CASE", maxIncreasePercent: 20 });
  });
  it("says which box needs a number, at that box", () => {
    const draft = { ...policyDraft(DEFAULT), qualityMarginPoints: "two" };
    draft.guardrails = [{ key: 1, metric: "LATENCY_P95", maxIncrease: "" }];
    expect(policyProblems(draft)).toEqual({
      qualityMarginPoints: "Quality margin needs a number of points, e.g. 2.",
      "guardrails.0": "Max increase needs a percent, e.g. 20.",
    });
  });
  it("puts the server's refusal at the field it names, in words", () => {
    const alpha = validation("shipPolicy.alpha", "`shipPolicy.alpha` must lie strictly between 0 and 0.5");
    expect(serverPolicyProblems(alpha, "shipPolicy")).toEqual({
      alpha: "Alpha must lie strictly between 0 and 0.5",
    });
    expect(serverPolicyProblems(alpha, "defaultShipPolicy")).toEqual({});
    const guardrail = validation(
      "defaultShipPolicy.guardrails[1].maxIncreasePoints",
      "`defaultShipPolicy.guardrails[1].maxIncreasePoints` must be at most 100 points",
    );
    expect(serverPolicyProblems(guardrail, "defaultShipPolicy")).toEqual({
      "guardrails.1": "Max increase must be at most 100 points",
    });
  });
});

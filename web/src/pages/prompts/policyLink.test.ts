import { describe, expect, it } from "vitest";
import type { ShownPolicy } from "../../lib/shipPolicyDraft";
import { compareVersionsLink, draftFromLink, type GateStart } from "./compareLink";

const POLICY: ShownPolicy = {
  qualityMarginPoints: 7.5,
  alpha: 0.1,
  requireGain: "COST",
  guardrails: [
    { metric: "FAILED_OR_MISSING", maxIncreasePoints: 4, maxIncreasePercent: null },
    { metric: "LATENCY_P95", maxIncreasePercent: 25, maxIncreasePoints: null },
  ],
  judge: { minLabels: 30, minKappa: 0.6 },
};

const gate = (shipPolicy: ShownPolicy | null): GateStart => ({
  datasetId: null,
  split: "DEV",
  trialsPerCase: 3,
  checks: [{ kind: "CONTAINS" }],
  shipPolicy,
});

const query = (link: string) => link.split("?")[1] ?? "";

describe("a gate's ship policy in the compare link", () => {
  it("starts the form from the gate's policy", () => {
    const draft = draftFromLink(query(compareVersionsLink("PROMPT_TEMPLATE", ["av_1"], null, gate(POLICY))));
    expect(draft.shipPolicy).toEqual({
      qualityMarginPoints: "7.5",
      alpha: "0.1",
      requireGain: "COST",
      guardrails: [
        { key: 1, metric: "FAILED_OR_MISSING", maxIncrease: "4" },
        { key: 2, metric: "LATENCY_P95", maxIncrease: "25" },
      ],
      judge: { minLabels: 30, minKappa: 0.6 },
    });
  });

  it("keeps a policy without guardrails without any", () => {
    const link = compareVersionsLink("PROMPT_TEMPLATE", ["av_1"], null, gate({ ...POLICY, guardrails: [] }));
    expect(draftFromLink(query(link)).shipPolicy?.guardrails).toEqual([]);
  });

  it("leaves the workspace's default to the form without a gate policy", () => {
    const link = compareVersionsLink("PROMPT_TEMPLATE", ["av_1"], null, gate(null));
    expect(link).not.toContain("margin");
    expect(draftFromLink(query(link)).shipPolicy).toBeNull();
  });

  it("drops a malformed policy whole", () => {
    for (const bad of [
      "margin=2&alpha=0.05",
      "margin=two&alpha=0.05&gain=NONE",
      "margin=2&alpha=0.05&gain=MORE",
      "margin=2&alpha=0.05&gain=NONE&guardrail=NOPE:5",
      "margin=2&alpha=0.05&gain=NONE&guardrail=COST_PER_CASE",
      "margin=2&alpha=0.05&gain=NONE&judge=x:0.6",
    ])
      expect(draftFromLink(bad).shipPolicy).toBeNull();
  });
});

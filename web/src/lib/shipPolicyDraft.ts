/**
 * A ship policy as a form holds it (docs/decision.md), the `ShipPolicyInput` it makes, and what
 * is wrong with it at each field, in words. Pure: the New comparison form and the workspace
 * settings share it through `ShipPolicyFields`. The form checks that each box holds a number;
 * the ranges are the server's, whose VALIDATION_FAILED names the field (`serverProblems`).
 */
import type { CombinedError } from "urql";
import type { GuardrailMetric, RequiredGain, ShipPolicyInput } from "../gql/graphql";
import { errorField } from "./fieldErrors";

export interface GuardrailDraft {
  key: number;
  metric: GuardrailMetric;
  /** Percent for a ratio metric, points for FAILED_OR_MISSING, as typed. */
  maxIncrease: string;
}

export interface PolicyDraft {
  qualityMarginPoints: string;
  alpha: string;
  guardrails: GuardrailDraft[];
  requireGain: RequiredGain;
  /** Not shown in the form: kept as read so that saving does not change it. */
  judge: { minLabels: number; minKappa: number } | null;
}

/** A policy as the API shows it (`ShipPolicy`). */
export interface ShownPolicy {
  qualityMarginPoints: number;
  alpha: number;
  requireGain: RequiredGain;
  guardrails: {
    metric: GuardrailMetric;
    maxIncreasePercent?: number | null;
    maxIncreasePoints?: number | null;
  }[];
  judge?: { minLabels: number; minKappa: number } | null;
}

export const MAX_GUARDRAILS = 8;

export const GUARDRAIL_METRICS: readonly [GuardrailMetric, string][] = [
  ["FAILED_OR_MISSING", "Failed or missing trials"],
  ["COST_PER_CASE", "Cost per case"],
  ["LATENCY_P50", "Median latency"],
  ["LATENCY_P95", "95th percentile latency"],
  ["OUTPUT_TOKENS", "Output tokens"],
];

export const GAINS: readonly [RequiredGain, string][] = [
  ["NONE", "None"],
  ["QUALITY", "Better quality"],
  ["COST", "Lower cost"],
  ["LATENCY", "Lower latency"],
];

/** FAILED_OR_MISSING is a difference of shares in points; the others a ratio, in percent. */
export function inPoints(metric: GuardrailMetric): boolean {
  return metric === "FAILED_OR_MISSING";
}

export function policyDraft(policy: ShownPolicy): PolicyDraft {
  return {
    qualityMarginPoints: String(policy.qualityMarginPoints),
    alpha: String(policy.alpha),
    requireGain: policy.requireGain,
    guardrails: policy.guardrails.map((g, index) => ({
      key: index + 1,
      metric: g.metric,
      maxIncrease: String((inPoints(g.metric) ? g.maxIncreasePoints : g.maxIncreasePercent) ?? 0),
    })),
    judge: policy.judge ? { minLabels: policy.judge.minLabels, minKappa: policy.judge.minKappa } : null,
  };
}

export function addGuardrail(draft: PolicyDraft): PolicyDraft {
  const key = Math.max(0, ...draft.guardrails.map((g) => g.key)) + 1;
  const taken = new Set(draft.guardrails.map((g) => g.metric));
  const metric = GUARDRAIL_METRICS.find(([m]) => !taken.has(m))?.[0] ?? "COST_PER_CASE";
  return {
    ...draft,
    guardrails: [...draft.guardrails, { key, metric, maxIncrease: inPoints(metric) ? "5" : "20" }],
  };
}

/** Where a problem shows: a field, or the guardrail at an index (`guardrails.0`). */
export type PolicyField = "qualityMarginPoints" | "alpha" | "requireGain" | "guardrails" | `guardrails.${number}`;
export type PolicyProblems = Partial<Record<PolicyField, string>>;

const NUMBER = /^-?\d+(\.\d+)?$/;

/** What the form can tell before asking: each box needs a number. */
export function policyProblems(draft: PolicyDraft): PolicyProblems {
  const problems: PolicyProblems = {};
  if (!NUMBER.test(draft.qualityMarginPoints.trim()))
    problems.qualityMarginPoints = "Quality margin needs a number of points, e.g. 2.";
  if (!NUMBER.test(draft.alpha.trim())) problems.alpha = "Alpha needs a number, e.g. 0.05.";
  draft.guardrails.forEach((g, index) => {
    if (!NUMBER.test(g.maxIncrease.trim()))
      problems[`guardrails.${index}`] = inPoints(g.metric)
        ? "Max increase needs a number of points, e.g. 5."
        : "Max increase needs a percent, e.g. 20.";
  });
  return problems;
}

/** The first problem the form knows of, or null. */
export function firstPolicyProblem(draft: PolicyDraft): string | null {
  return Object.values(policyProblems(draft))[0] ?? null;
}

/** The `ShipPolicyInput` of a draft without problems. */
export function policyInput(draft: PolicyDraft): ShipPolicyInput {
  return {
    qualityMarginPoints: Number(draft.qualityMarginPoints.trim()),
    alpha: Number(draft.alpha.trim()),
    requireGain: draft.requireGain,
    guardrails: draft.guardrails.map((g) =>
      inPoints(g.metric)
        ? { metric: g.metric, maxIncreasePoints: Number(g.maxIncrease.trim()) }
        : { metric: g.metric, maxIncreasePercent: Number(g.maxIncrease.trim()) },
    ),
    judge: draft.judge,
  };
}

const WORDS: Record<string, string> = {
  qualityMarginPoints: "Quality margin",
  alpha: "Alpha",
  requireGain: "Required gain",
  guardrails: "Guardrails",
  metric: "Metric",
  maxIncreasePercent: "Max increase",
  maxIncreasePoints: "Max increase",
  minLabels: "Labels needed",
  minKappa: "Least agreement",
};

/** An API message in the form's words: `shipPolicy.guardrails[0].maxIncreasePercent` → "Max increase". */
function inWords(message: string): string {
  return message.replace(/`([^`]+)`/g, (_, name: string) => {
    const last = name.split(".").pop()?.replace(/\[\d+\]$/, "") ?? name;
    return WORDS[last] ?? name;
  });
}

/**
 * The server's VALIDATION_FAILED on the policy under `prefix` (`shipPolicy`,
 * `defaultShipPolicy`), in words, at the field it names; empty for any other error.
 */
export function serverPolicyProblems(
  error: CombinedError | null | undefined,
  prefix: string,
): PolicyProblems {
  const field = errorField(error);
  if (!field || !error || !field.startsWith(`${prefix}.`) && field !== prefix) return {};
  const message = inWords(error.graphQLErrors[0]?.message ?? "");
  const rest = field.slice(prefix.length + 1);
  const guardrail = /^guardrails\[(\d+)\]/.exec(rest);
  if (guardrail) return { [`guardrails.${Number(guardrail[1])}`]: message };
  const top = rest.split(".")[0] ?? "";
  if (top === "qualityMarginPoints" || top === "alpha" || top === "requireGain") return { [top]: message };
  return { guardrails: message };
}

/**
 * A gate's ship policy in the New comparison link, and read back as the form's policy draft.
 *
 * `margin=2&alpha=0.05&gain=NONE[&guardrail=METRIC:N …][&judge=LABELS:KAPPA]`: a guardrail's N
 * is points for FAILED_OR_MISSING and percent for the others, as the form shows it. The link
 * is typed text: anything malformed drops the whole policy (the workspace's default applies),
 * never a part of it.
 */
import type { GuardrailMetric, RequiredGain } from "../../gql/graphql";
import {
  GAINS,
  GUARDRAIL_METRICS,
  MAX_GUARDRAILS,
  policyDraft,
  type PolicyDraft,
  type ShownPolicy,
} from "../../lib/shipPolicyDraft";

const WHOLE = /^\d+$/;

function isNumber(text: string | null | undefined): text is string {
  return !!text && text.trim() === text && Number.isFinite(Number(text));
}

export function policyQuery(q: URLSearchParams, policy: ShownPolicy): void {
  const draft = policyDraft(policy);
  q.set("margin", draft.qualityMarginPoints);
  q.set("alpha", draft.alpha);
  q.set("gain", draft.requireGain);
  for (const g of draft.guardrails) q.append("guardrail", `${g.metric}:${g.maxIncrease}`);
  if (draft.judge) q.set("judge", `${draft.judge.minLabels}:${draft.judge.minKappa}`);
}

function guardrailOf(text: string, key: number): PolicyDraft["guardrails"][number] | null {
  const [metric, maxIncrease, ...rest] = text.split(":");
  if (rest.length || !isNumber(maxIncrease)) return null;
  if (!GUARDRAIL_METRICS.some(([m]) => m === metric)) return null;
  return { key, metric: metric as GuardrailMetric, maxIncrease };
}

function judgeOf(text: string | null): PolicyDraft["judge"] | undefined {
  if (text === null) return null;
  const [labels, kappa, ...rest] = text.split(":");
  if (rest.length || !labels || !WHOLE.test(labels) || !isNumber(kappa)) return undefined;
  return { minLabels: Number(labels), minKappa: Number(kappa) };
}

/** The policy a link names; null when it names none, or names one malformed. */
export function policyFromLink(q: URLSearchParams): PolicyDraft | null {
  const margin = q.get("margin");
  const alpha = q.get("alpha");
  const gain = q.get("gain");
  if (!isNumber(margin) || !isNumber(alpha)) return null;
  if (!GAINS.some(([g]) => g === gain)) return null;
  const texts = q.getAll("guardrail");
  if (texts.length > MAX_GUARDRAILS) return null;
  const guardrails = texts.map((text, index) => guardrailOf(text, index + 1));
  const judge = judgeOf(q.get("judge"));
  if (judge === undefined || guardrails.some((g) => g === null)) return null;
  return {
    qualityMarginPoints: margin,
    alpha,
    requireGain: gain as RequiredGain,
    guardrails: guardrails.filter((g) => g !== null),
    judge,
  };
}

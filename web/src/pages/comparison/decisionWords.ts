/**
 * How a ship decision reads on the comparison page (docs/decision.md): the outcome and each
 * criterion's status in words, what a criterion tests, and its figures in its own unit —
 * points for quality and failed-or-missing trials, a change in percent for the ratios.
 */
import type {
  CriterionKind,
  CriterionStatus,
  DecisionMetric,
  DecisionOutcome,
} from "../../gql/graphql";

export const OUTCOME_WORDS: Record<DecisionOutcome, string> = {
  SHIP: "Ship",
  DONT_SHIP: "Don't ship",
  MORE_DATA: "More data needed",
  NO_DECISION: "No decision",
};

/** The design token family of each outcome (web/src/styles/tokens.css). */
export const OUTCOME_TONE: Record<DecisionOutcome, "ship" | "block" | "hold"> = {
  SHIP: "ship",
  DONT_SHIP: "block",
  MORE_DATA: "hold",
  NO_DECISION: "hold",
};

export const STATUS_WORDS: Record<CriterionStatus, string> = {
  MET: "Met",
  VIOLATED: "Violated",
  UNCERTAIN: "Uncertain",
};

const METRIC_WORDS: Record<DecisionMetric, string> = {
  PASS_RATE: "pass rate",
  COST_PER_CASE: "cost per case",
  LATENCY_P50: "p50 latency",
  LATENCY_P95: "p95 latency",
  OUTPUT_TOKENS: "output tokens",
  FAILED_OR_MISSING: "failed-or-missing trials",
};

export interface CriterionFigures {
  kind: CriterionKind;
  metric: DecisionMetric;
  estimate?: number | null;
  low?: number | null;
  high?: number | null;
  threshold: number;
}

/** Whether the criterion's figures are points (else a ratio candidate ÷ baseline). */
export function inPoints(c: Pick<CriterionFigures, "metric">): boolean {
  return c.metric === "PASS_RATE" || c.metric === "FAILED_OR_MISSING";
}

/** What a criterion tests: "Quality (pass rate)", "Guardrail: p95 latency", "Gain: cost per case". */
export function criterionName(c: Pick<CriterionFigures, "kind" | "metric">): string {
  if (c.kind === "QUALITY") return "Quality (pass rate)";
  return `${c.kind === "GAIN" ? "Gain" : "Guardrail"}: ${METRIC_WORDS[c.metric]}`;
}

/** Signed points with one decimal and a true minus sign: −33.3, +2.0, 0.0. */
export function signedPoints(value: number | null | undefined): string {
  if (value === null || value === undefined) return "unbounded";
  const text = Math.abs(value).toFixed(1);
  if (Number(text) === 0) return "0.0";
  return `${value < 0 ? "−" : "+"}${text}`;
}

/** A ratio candidate ÷ baseline as a signed change: 0.59 → "−41%", 1.2 → "+20%". */
export function signedChange(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined) return "unbounded";
  const change = Math.round((ratio - 1) * 100);
  if (change === 0) return "0%";
  return `${change < 0 ? "−" : "+"}${Math.abs(change)}%`;
}

function figure(c: Pick<CriterionFigures, "metric">, value: number | null | undefined): string {
  return inPoints(c) ? signedPoints(value) : signedChange(value);
}

/** "Δ −33.3 points, 90% interval −45.0 to −21.7" or "+3%, 90% interval −2% to +8%". */
export function criterionFigures(c: CriterionFigures, level: number | null | undefined): string {
  if (c.estimate === null || c.estimate === undefined) return "not measured";
  const unit = inPoints(c) ? " points" : "";
  const head = c.metric === "PASS_RATE" ? "Δ " : "";
  const interval =
    level === null || level === undefined ? "interval" : `${Math.round(level * 100)}% interval`;
  return `${head}${figure(c, c.estimate)}${unit}, ${interval} ${figure(c, c.low)} to ${figure(c, c.high)}`;
}

/** The line the criterion is held to: "margin −2 points", "allowed up to +5 points", "must be below 0%". */
export function criterionBound(c: CriterionFigures): string {
  const unit = inPoints(c) ? " points" : "";
  const bound = `${figure(c, c.threshold)}${unit}`;
  if (c.kind === "QUALITY") return `margin ${bound}`;
  if (c.kind === "GAIN") return c.metric === "PASS_RATE" ? `must be above ${bound}` : `must be below ${bound}`;
  return `allowed up to ${bound}`;
}

/** The scorecard's metric rows in words: their names, how their values read, and the
 * candidate's difference from a baseline with its interval where the API has one. */
import type { ComparisonDecisionQuery, DecisionMetric } from "../../gql/graphql";
import { count, dollars, percent } from "../../lib/format";
import { signedChange, signedPoints } from "./decisionWords";

const NAMES: Record<string, string> = {
  pass_rate: "Pass rate",
  cost_per_case_cents: "Cost per case",
  latency_p50_ms: "Latency p50",
  latency_p95_ms: "Latency p95",
  output_tokens_mean: "Output tokens (mean)",
  failed_or_missing_rate: "Failed or missing",
};

/** "Pass rate", "Pass rate (CONTAINS)", "Judge score (<rubric version>)". */
export function metricName(name: string): string {
  const known = NAMES[name];
  if (known) return known;
  const [head, rest] = splitOnce(name);
  if (head === "pass_rate") return `Pass rate (${rest})`;
  if (head === "judge_score") return `Judge score (${rest})`;
  return name;
}

/** A metric value as it reads in its row's unit. */
export function metricValue(name: string, value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  if (name.startsWith("pass_rate") || name === "failed_or_missing_rate") return percent(value);
  if (name === "cost_per_case_cents") return dollars(value);
  if (name.endsWith("_ms")) return `${count(Math.round(value))} ms`;
  if (name.startsWith("judge_score")) return value.toFixed(2);
  return value.toFixed(1);
}

function splitOnce(name: string): [string, string] {
  const at = name.indexOf(".");
  return at < 0 ? [name, ""] : [name.slice(0, at), name.slice(at + 1)];
}

/** The decision's metric behind a scorecard row, when its criteria can guard it. */
const GUARDED: Record<string, DecisionMetric> = {
  cost_per_case_cents: "COST_PER_CASE",
  latency_p50_ms: "LATENCY_P50",
  latency_p95_ms: "LATENCY_P95",
  output_tokens_mean: "OUTPUT_TOKENS",
  failed_or_missing_rate: "FAILED_OR_MISSING",
};

export interface Difference {
  /** "−33.3 points", "+3%", "+$0.0012". */
  estimate: string;
  /** "95% interval −52.1 to −14.6", or null where the API computes none. */
  interval: string | null;
}

/** The candidate's difference from one baseline on a scorecard row: the pass rate's from the
 * verdict (95%), a guarded metric's from the decision's criterion (its level), any other row
 * as the plain difference of the two values, without an interval. */
export function metricDifference(
  name: string,
  {
    candidate,
    baseline,
    baselineCohortIndex,
    differences,
  }: {
    candidate: number | null | undefined;
    baseline: number | null | undefined;
    baselineCohortIndex: number;
    differences?: ComparisonDecisionQuery["comparison"];
  },
): Difference | null {
  if (name === "pass_rate") {
    const verdict = differences?.scorecard?.verdicts.find(
      (v) => v.baselineCohortIndex === baselineCohortIndex,
    );
    if (verdict) {
      return {
        estimate: `${signedPoints(verdict.passRateDeltaPoints)} points`,
        interval: `95% interval ${signedPoints(verdict.deltaLow)} to ${signedPoints(verdict.deltaHigh)}`,
      };
    }
  }
  const metric = GUARDED[name];
  const decision = differences?.decision;
  const criterion = metric
    ? decision?.criteria.find(
        (c) =>
          c.baselineCohortIndex === baselineCohortIndex &&
          c.metric === metric &&
          c.kind === "GUARDRAIL" &&
          c.estimate !== null &&
          c.estimate !== undefined,
      )
    : undefined;
  if (criterion) {
    const level = decision?.level ? `${Math.round(decision.level * 100)}% interval` : "interval";
    const shown = (v: number | null | undefined) =>
      metric === "FAILED_OR_MISSING" ? signedPoints(v) : signedChange(v);
    const unit = metric === "FAILED_OR_MISSING" ? " points" : "";
    return {
      estimate: `${shown(criterion.estimate)}${unit}`,
      interval: `${level} ${shown(criterion.low)} to ${shown(criterion.high)}${unit}`,
    };
  }
  if (candidate === null || candidate === undefined || baseline === null || baseline === undefined)
    return null;
  return { estimate: plainDifference(name, candidate - baseline), interval: null };
}

function plainDifference(name: string, delta: number): string {
  const sign = delta < 0 ? "−" : delta > 0 ? "+" : "";
  if (name.startsWith("pass_rate") || name === "failed_or_missing_rate")
    return `${signedPoints(delta * 100)} points`;
  if (name === "cost_per_case_cents") return `${sign}${dollars(Math.abs(delta))}`;
  if (name.endsWith("_ms")) return `${sign}${count(Math.abs(Math.round(delta)))} ms`;
  if (name.startsWith("judge_score")) return `${sign}${Math.abs(delta).toFixed(2)}`;
  return `${sign}${Math.abs(delta).toFixed(1)}`;
}

/** The scorecard's metric rows in words: their names and how their values read. */
import { count, dollars, percent } from "../../lib/format";

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

/** How the numbers of a run diff read: scores, signed deltas, intervals, evaluator lines. */
import { points } from "../../lib/format";
import { enumWords } from "../../lib/words";

type Maybe = number | null | undefined;

/** A score to 3 (or `digits`) decimals; "—" when missing. */
export function score(value: Maybe, digits = 3): string {
  return value === null || value === undefined ? "—" : value.toFixed(digits);
}

/** A signed score with a real minus sign; zero unsigned: −0.175, +0.200, 0.000. */
export function signedScore(value: Maybe, digits = 3): string {
  if (value === null || value === undefined) return "—";
  const text = Math.abs(value).toFixed(digits);
  if (Number(text) === 0) return text;
  return `${value < 0 ? "−" : "+"}${text}`;
}

/** A pass-rate delta with its interval, in points: "−25.0 points (95% interval … to …)". */
export function deltaWords(delta: Maybe, low: Maybe, high: Maybe): string {
  if (delta === null || delta === undefined) return "—";
  const interval =
    low === null || low === undefined || high === null || high === undefined
      ? ""
      : ` (95% interval ${points(low * 100)} to ${points(high * 100)})`;
  return `${points(delta * 100)}${interval}`;
}

/** What each built-in check is called in words (a hosted run's evaluators are its checks). */
const CHECK_WORDS: Record<string, string> = {
  EXACT_MATCH: "Matches the expected output",
  CONTAINS: "Contains the expected output",
  JSON_SCHEMA: "Matches the JSON schema",
  TOOL_CALL: "Calls the expected tool",
  JUDGE_RUBRIC: "Judge's grade by rubric",
};

/** An evaluator's name as people read it: a check kind in words, an imported name as given. */
export function evaluatorName(name: string): string {
  return CHECK_WORDS[name] ?? name;
}

/** One evaluator of a case: "judge: 0.90 → 0.20 (−0.70) regressed". */
export function evaluatorWords(e: {
  name: string;
  baselineMean?: Maybe;
  candidateMean?: Maybe;
  delta?: Maybe;
  status: string;
}): string {
  const delta = e.delta === null || e.delta === undefined ? "" : ` (${signedScore(e.delta, 2)})`;
  const means = `${score(e.baselineMean, 2)} → ${score(e.candidateMean, 2)}`;
  return `${evaluatorName(e.name)}: ${means}${delta} ${enumWords(e.status).toLowerCase()}`;
}

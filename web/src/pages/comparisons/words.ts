/** How a comparison's status and verdict read in the comparisons list. */
import type { ComparisonStatus, VerdictOutcome } from "../../gql/graphql";

export const STATUSES: readonly ComparisonStatus[] = [
  "SETUP",
  "RUNNING",
  "DONE",
  "FAILED",
  "CANCELLED",
];

const STATUS_WORDS: Record<ComparisonStatus, string> = {
  SETUP: "Setup",
  RUNNING: "Running",
  DONE: "Done",
  FAILED: "Failed",
  CANCELLED: "Cancelled",
};

export function statusWord(status: ComparisonStatus): string {
  return STATUS_WORDS[status];
}

/** The chip's tint: a regression reads bad, an improvement good, anything else plain. */
export function verdictTint(outcome: VerdictOutcome): string {
  if (outcome === "REGRESSED") return "chip bad";
  if (outcome === "IMPROVED") return "chip good";
  return "chip";
}

/** "186 of 300 calls". */
export function callsWords(done: number, total: number): string {
  return `${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} calls`;
}

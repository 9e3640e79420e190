/** How a comparison's status and progress read, in the list and on its page. */
import type { ComparisonStatus, DecisionOutcome, StopReason } from "../gql/graphql";
import { count } from "./format";

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

const STOPPED_WORDS: Partial<Record<StopReason, string>> = {
  BUDGET_CAP: "Stopped at the budget cap",
  CONNECTION_CAP: "Stopped at a connection's monthly cap",
  DAILY_BUDGET: "Stopped at the experiment's daily budget",
  DECIDED_EARLY: "Decided early",
};

/**
 * "Done", "Running"…; a DONE run that a cap stopped says so ("Stopped at the budget cap"). The
 * CLI says the same (`server.words.comparison_status`; both checked against status.examples.json).
 */
export function statusWord(status: ComparisonStatus, stopReason?: StopReason | null): string {
  if (status === "DONE" && stopReason) return STOPPED_WORDS[stopReason] ?? STATUS_WORDS[status];
  return STATUS_WORDS[status];
}

/** "186 of 300 calls". */
export function callsWords(done: number, total: number): string {
  return `${count(done)} of ${count(total)} calls`;
}

const DECISION_WORDS: Record<DecisionOutcome, string> = {
  SHIP: "Ship",
  DONT_SHIP: "Don't ship",
  MORE_DATA: "More data needed",
  NO_DECISION: "No decision",
};

/** A ship decision's outcome in words (docs/decision.md): "Ship", "Don't ship", … */
export function decisionWord(outcome: DecisionOutcome): string {
  return DECISION_WORDS[outcome];
}

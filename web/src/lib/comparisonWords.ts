/** How a comparison's status and progress read, in the list and on its page. */
import type { ComparisonStatus } from "../gql/graphql";
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

export function statusWord(status: ComparisonStatus): string {
  return STATUS_WORDS[status];
}

/** "186 of 300 calls". */
export function callsWords(done: number, total: number): string {
  return `${count(done)} of ${count(total)} calls`;
}

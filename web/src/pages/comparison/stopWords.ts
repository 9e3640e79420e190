/**
 * A comparison's end in words (docs/errors.md): its status, stop reason and error code, e.g.
 * "Stopped: my-connection reached its monthly cap of $50.00. 412 of 600 calls ran."
 */
import type { ComparisonStatus, StopReason } from "../../gql/graphql";
import { count, dollars } from "../../lib/format";

/** Dispatch and verdict error codes (docs/errors.md) as a short clause. */
const ERROR_WORDS: Record<string, string> = {
  provider_timeout: "the provider did not answer in time",
  provider_rate_limited: "the provider kept answering 429 Too Many Requests",
  provider_server_error: "the provider kept failing with a server error",
  provider_client_error: "the provider refused the request (check the key, base URL and model)",
  provider_unreachable: "the provider could not be reached",
  provider_malformed_response: "the provider's answer was not a chat completion",
  template_render_failed: "the prompt template could not be rendered for this case",
  simulated_error: "the simulated connection failed this call on purpose",
  judge_grade_unparseable: "the judge's answer was not a grade",
  connection_not_ready: "the connection cannot be called (no base URL, or its key cannot be read)",
  outcome_ambiguous: "a worker stopped while this call was in flight; it was not sent again",
  comparison_dispatch_outcome_ambiguous:
    "a worker stopped while a call was in flight, so its outcome is unknown; the call was not sent again",
  comparison_dispatch_internal: "dispatch hit an unexpected error (the details are in the server's logs)",
  verdict_finalize_internal:
    "finalization hit an unexpected error (the details are in the server's logs); an admin can retry it",
  verdict_cases_erased:
    "nobody finalized it within 30 days of its end, so its cases were erased; create the comparison again",
};

/** A bounded error code in words, the code itself beside them. */
export function errorCodeWords(code: string): string {
  const words = ERROR_WORDS[code];
  return words ? `${capitalize(words)} (${code})` : code;
}

export interface EndFacts {
  status: ComparisonStatus;
  stopReason: StopReason | null | undefined;
  errorCode: string | null | undefined;
  doneCalls: number;
  totalCalls: number;
  failedCalls: number;
  budgetCapCents: number | null | undefined;
  spentCentsSoFar: number;
  cappedConnections: readonly { name: string; monthlyCapCents?: number | null }[];
  experimentName: string;
  dailyBudgetCents: number | null | undefined;
}

/** Why the run stopped where it did, in one or two sentences. */
export function stopWords(end: EndFacts): string {
  const ran = `${count(end.doneCalls)} of ${count(end.totalCalls)} calls ran.`;
  const failed =
    end.failedCalls > 0
      ? ` ${count(end.failedCalls)} ${end.failedCalls === 1 ? "call" : "calls"} failed or went missing.`
      : "";
  switch (end.status) {
    case "CANCELLED":
      return `Cancelled. ${ran}${failed}`;
    case "FAILED":
      return `Failed: ${end.errorCode ? errorCodeWords(end.errorCode) : "the run could not go on"}. ${ran}${failed}`;
    case "DONE":
      return `${doneWords(end)} ${ran}${failed}`;
    default:
      return "";
  }
}

function doneWords(end: EndFacts): string {
  switch (end.stopReason) {
    case "BUDGET_CAP":
      return `Stopped: the comparison reached its budget cap of ${dollars(end.budgetCapCents)} (${dollars(end.spentCentsSoFar)} spent).`;
    case "CONNECTION_CAP":
      return `Stopped: ${cappedWords(end.cappedConnections)}.`;
    case "DAILY_BUDGET":
      return `Stopped: the experiment ${end.experimentName} reached its daily budget of ${dollars(end.dailyBudgetCents)}.`;
    case "DECIDED_EARLY":
      return "Decided early: every baseline's confidence sequence settled before the last case.";
    default:
      return "Done.";
  }
}

function cappedWords(capped: EndFacts["cappedConnections"]): string {
  if (capped.length === 0) return "a connection reached its monthly cap";
  const each = capped.map((c) => `${c.name} reached its monthly cap of ${dollars(c.monthlyCapCents)}`);
  return each.join("; ");
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

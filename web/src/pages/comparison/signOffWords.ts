/** How a sign-off's decision and the verdict it writes read. */
import type { SignOffDecision, SignOffVerdict } from "../../gql/graphql";

/** The decision to choose: "Approve", "Hold", "Request changes". */
export const DECISION_WORDS: Record<SignOffDecision, string> = {
  APPROVE: "Approve",
  HOLD: "Hold",
  REQUEST_CHANGES: "Request changes",
};

/** The decision made, in the page's header: "Approved", "Hold", "Changes requested". */
export const DECIDED_WORDS: Record<SignOffDecision, string> = {
  APPROVE: "Approved",
  HOLD: "Hold",
  REQUEST_CHANGES: "Changes requested",
};

export const VERDICT_WORDS: Record<SignOffVerdict, string> = {
  PROMOTE: "Promote",
  HOLD: "Hold",
  INCONCLUSIVE: "Inconclusive",
};

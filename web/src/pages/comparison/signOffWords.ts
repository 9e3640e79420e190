/** How a sign-off's decision and the verdict it writes read. */
import type { DecisionOutcome, SignOffDecision, SignOffVerdict } from "../../gql/graphql";
import { OUTCOME_WORDS } from "./decisionWords";

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

/** The decision made, inside a sentence: "approved", "hold", "changes requested". */
const SIGNED_WORDS: Record<SignOffDecision, string> = {
  APPROVE: "approved",
  HOLD: "hold",
  REQUEST_CHANGES: "changes requested",
};

/**
 * A sign-off named as what it is, beside the ship decision it may go against: "Signed off:
 * approved over Don't ship, by Ada" (approved though the decision was not Ship), "Signed off:
 * approved, by Ada", "Signed off: hold, by Ada". Never a second "Decision:".
 */
export function signedOffWords(
  decision: SignOffDecision,
  outcome: DecisionOutcome | null | undefined,
  signer: string | null | undefined,
): string {
  const over = decision === "APPROVE" && outcome && outcome !== "SHIP" ? ` over ${OUTCOME_WORDS[outcome]}` : "";
  return `Signed off: ${SIGNED_WORDS[decision]}${over}${signer ? `, by ${signer}` : ""}`;
}

/**
 * `dialog` "Sign off": the decision, an override of open follow-ups with its justification.
 * It shows the ship decision being signed off; approving one that is not "Ship" asks for the
 * override and a justification (the server holds the rule: docs/decision.md). The choice first
 * selected follows the decision: "Approve" for Ship, "Hold" for any other. A missing
 * justification is said at its field, in words (the server's refusal too). A CONFLICT lists
 * the open follow-ups, or says the decision is not "Ship"; a FORBIDDEN says why in words.
 */
import { useId, useState, type FormEvent } from "react";
import { useMutation, type CombinedError } from "urql";
import { useQuery } from "../../lib/query";
import { Dialog } from "../../components/Dialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { graphql } from "../../gql";
import type { SignOffDecision } from "../../gql/graphql";
import { errorCodes, errorExtension } from "../../lib/errors";
import { FieldError } from "../../components/FieldError";
import { messageAt } from "../../lib/fieldErrors";
import type { DecisionOutcome } from "../../gql/graphql";
import { DecisionQuery } from "./decisionQueries";
import { OUTCOME_TONE, OUTCOME_WORDS } from "./decisionWords";
import { DECISION_WORDS } from "./signOffWords";

const SignOff = graphql(`
  mutation SignOff(
    $reportId: ID!
    $decision: SignOffDecision!
    $override: Boolean!
    $justification: String
  ) {
    signOff(
      reportId: $reportId
      decision: $decision
      override: $override
      overrideJustification: $justification
    ) {
      id
      decision
      verdict
      comparison {
        id
        verdict
      }
    }
  }
`);

const DECISIONS: SignOffDecision[] = ["APPROVE", "HOLD", "REQUEST_CHANGES"];

const FORBIDDEN_WORDS: Record<string, string> = {
  SELF_SIGN_OFF:
    "You started this comparison: another admin signs off, " +
    "or allow self sign-off in the workspace settings",
};

interface OpenItem {
  id: string;
  baselineCohortIndex: number;
  datasetItemId: string;
}

/** The API's names in the dialog's words. */
const FIELD_WORDS: Record<string, string> = {
  overrideJustification: "a justification",
  override: "the override",
};

const JUSTIFICATION_MISSING =
  "Say why you override: a justification of 1 to 2,000 characters is needed.";

/** A sentence without its closing full stop, to go inside another one. */
function clause(sentence: string): string {
  return sentence.trim().replace(/[.\s]+$/, "");
}

/** The choice first selected: approve only what the decision says to ship. */
function defaultChoice(outcome: DecisionOutcome | null | undefined): SignOffDecision {
  return !outcome || outcome === "SHIP" ? "APPROVE" : "HOLD";
}

/** A server message in words: the API's names replaced, a capital first, one full stop. */
function sentenceOf(message: string): string {
  const words = clause(message);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}

/** The decision a refused APPROVE would override (CONFLICT, reason DECISION_NOT_SHIP). */
function decisionNotShip(error: CombinedError | undefined): string | null {
  if (!errorCodes(error).includes("CONFLICT")) return null;
  if (errorExtension(error, "reason") !== "DECISION_NOT_SHIP") return null;
  const decision = errorExtension(error, "decision") as { outcome?: string; sentence?: string };
  const outcome = OUTCOME_WORDS[decision?.outcome as keyof typeof OUTCOME_WORDS] ?? "missing";
  const why = decision?.sentence ? `: ${clause(decision.sentence)}` : "";
  return `The decision is ${outcome}, not Ship${why}. Hold, or approve with an override and a justification.`;
}

function openItems(error: CombinedError | undefined): OpenItem[] | null {
  if (!errorCodes(error).includes("CONFLICT")) return null;
  const items = errorExtension(error, "openItems");
  return Array.isArray(items) ? (items as OpenItem[]) : null;
}

export function SignOffDialog({
  comparisonId,
  reportId,
  baselines,
  onClose,
  onSigned,
}: {
  comparisonId: string;
  reportId: string;
  baselines: (index: number) => string;
  onClose: () => void;
  onSigned: () => void;
}) {
  const decisionLabel = useId();
  const justificationId = useId();
  const [chosen, setDecision] = useState<SignOffDecision | null>(null);
  const [override, setOverride] = useState(false);
  const [justification, setJustification] = useState("");
  const [tried, setTried] = useState(false);
  const [{ fetching, error }, signOff] = useMutation(SignOff);
  const [{ data: decided }] = useQuery({
    query: DecisionQuery,
    variables: { id: comparisonId },
    requestPolicy: "network-only",
  });
  const shipDecision = decided?.comparison.decision;
  const decision = chosen ?? defaultChoice(shipDecision?.outcome);
  const missingJustification = override && !justification.trim() ? JUSTIFICATION_MISSING : null;
  const overriding =
    decision === "APPROVE" && !!shipDecision && shipDecision.outcome !== "SHIP";
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (missingJustification) return;
    const result = await signOff({
      reportId,
      decision,
      override,
      justification: override ? justification.trim() : null,
    });
    if (!result.error) onSigned();
  };
  const serverJustification = messageAt(error, "overrideJustification", FIELD_WORDS);
  const justificationError =
    (tried ? missingJustification : null) ??
    (serverJustification ? sentenceOf(serverJustification) : null);
  const notShip = decisionNotShip(error);
  const open = notShip ? null : openItems(error);
  const openCount = Number(errorExtension(error, "openCount") ?? open?.length ?? 0);
  const forbidden = errorCodes(error).includes("FORBIDDEN")
    ? FORBIDDEN_WORDS[String(errorExtension(error, "reason"))]
    : undefined;
  return (
    <Dialog title="Sign off" onClose={onClose}>
      <form onSubmit={submit}>
        <p className="being-approved">
          Ship decision:{" "}
          {shipDecision ? (
            <>
              <strong className={`decision-word tone-${OUTCOME_TONE[shipDecision.outcome]}`}>
                {OUTCOME_WORDS[shipDecision.outcome]}
              </strong>{" "}
              — {shipDecision.sentence}
            </>
          ) : decided ? (
            "none (finalized before ship decisions)"
          ) : (
            "loading…"
          )}
        </p>
        <div role="radiogroup" aria-labelledby={decisionLabel} className="decisions">
          <span id={decisionLabel} className="label">
            Decision
          </span>
          {DECISIONS.map((value) => (
            <label key={value}>
              <input
                type="radio"
                name="decision"
                value={value}
                checked={decision === value}
                onChange={() => setDecision(value)}
              />{" "}
              {DECISION_WORDS[value]}
            </label>
          ))}
        </div>
        <label className="row">
          <input
            type="checkbox"
            checked={override}
            onChange={(e) => setOverride(e.target.checked)}
          />
          Override open follow-ups or the decision
        </label>
        {overriding && shipDecision && (
          <p className="notice">
            Approving overrides the decision {OUTCOME_WORDS[shipDecision.outcome]}: tick the
            override and say why in the justification.
          </p>
        )}
        <div className="field">
          <label htmlFor={justificationId}>Justification</label>
          <textarea
            id={justificationId}
            rows={3}
            maxLength={2000}
            value={justification}
            disabled={!override}
            aria-invalid={justificationError ? true : undefined}
            aria-describedby={
              justificationError ? `${justificationId}-e` : `${justificationId}-hint`
            }
            onChange={(e) => setJustification(e.target.value)}
          />
          <span id={`${justificationId}-hint`} className="muted">
            Needed when you override open follow-ups or a decision other than Ship.
          </span>
          <FieldError id={`${justificationId}-e`} message={justificationError} />
        </div>
        {forbidden ? (
          <p role="alert" className="error">
            {forbidden}
          </p>
        ) : notShip ? (
          <p role="alert" className="error">
            {notShip}
          </p>
        ) : open ? (
          <div role="alert" className="error">
            <p>
              {openCount} follow-up{openCount === 1 ? " is" : "s are"} open: resolve them, or
              approve with an override and a justification.
            </p>
            <ul aria-label="Open follow-ups">
              {open.map((item) => (
                <li key={item.id}>
                  {item.datasetItemId} vs {baselines(item.baselineCohortIndex)}
                </li>
              ))}
            </ul>
          </div>
        ) : (
          error && !serverJustification && <ErrorNotice error={error} />
        )}
        <div className="row">
          <button type="submit" className="primary" disabled={fetching}>
            Sign off
          </button>
        </div>
      </form>
    </Dialog>
  );
}

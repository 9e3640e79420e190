/**
 * `dialog` "Sign off": the decision, an override of open follow-ups with its justification.
 * It shows the ship decision being signed off; approving one that is not "Ship" asks for the
 * override and a justification (the server holds the rule: docs/decision.md). A CONFLICT lists
 * the open follow-ups, or says the decision is not "Ship"; a FORBIDDEN says why in words.
 */
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQuery, type CombinedError } from "urql";
import { Dialog } from "../../components/Dialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { graphql } from "../../gql";
import type { SignOffDecision } from "../../gql/graphql";
import { errorCodes, errorExtension } from "../../lib/errors";
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

/** The decision a refused APPROVE would override (CONFLICT, reason DECISION_NOT_SHIP). */
function decisionNotShip(error: CombinedError | undefined): string | null {
  if (!errorCodes(error).includes("CONFLICT")) return null;
  if (errorExtension(error, "reason") !== "DECISION_NOT_SHIP") return null;
  const decision = errorExtension(error, "decision") as { outcome?: string; sentence?: string };
  const outcome = OUTCOME_WORDS[decision?.outcome as keyof typeof OUTCOME_WORDS] ?? "missing";
  return `The decision is ${outcome}, not Ship${decision?.sentence ? `: ${decision.sentence}` : ""}. Hold, or approve with an override and a justification.`;
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
  const [decision, setDecision] = useState<SignOffDecision>("APPROVE");
  const [override, setOverride] = useState(false);
  const [justification, setJustification] = useState("");
  const [{ fetching, error }, signOff] = useMutation(SignOff);
  const [{ data: decided }] = useQuery({
    query: DecisionQuery,
    variables: { id: comparisonId },
    requestPolicy: "network-only",
  });
  const shipDecision = decided?.comparison.decision;
  const overriding =
    decision === "APPROVE" && !!shipDecision && shipDecision.outcome !== "SHIP";
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await signOff({
      reportId,
      decision,
      override,
      justification: override ? justification.trim() : null,
    });
    if (!result.error) onSigned();
  };
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
            aria-describedby={`${justificationId}-hint`}
            onChange={(e) => setJustification(e.target.value)}
          />
          <span id={`${justificationId}-hint`} className="muted">
            Needed when you override open follow-ups or a decision other than Ship.
          </span>
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
          error && <ErrorNotice error={error} />
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

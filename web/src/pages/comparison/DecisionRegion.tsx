import { useEffect, useRef } from "react";
import type { CombinedError, UseQueryExecute } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import type { ComparisonDecisionQuery } from "../../gql/graphql";
import { count, exactTime } from "../../lib/format";
import { labelOf, type CohortName } from "./cohorts";
import { DecisionFigure } from "./DecisionFigure";
import { useSignedOff } from "./useSignedOff";
import {
  criterionBound,
  criterionFigures,
  criterionName,
  OUTCOME_TONE,
  OUTCOME_WORDS,
  STATUS_WORDS,
} from "./decisionWords";

export interface Decided {
  data?: ComparisonDecisionQuery;
  error?: CombinedError;
  fetching: boolean;
}

/**
 * `region` "Decision", first on an ended comparison's page (docs/decision.md): the outcome in
 * words with the API's sentence, the policy registered before the first call, `list`
 * "Criteria" (each with its status in words, figures and bound) and `figure` "Difference from
 * each baseline". Nothing until the comparison has a decision.
 */
export function DecisionRegion({
  decided,
  refetch,
  cohorts,
  finalized,
}: {
  decided: Decided;
  refetch: UseQueryExecute;
  cohorts: readonly CohortName[];
  /** The page reads FINALIZED: a decision read a moment before finalization is read again. */
  finalized: boolean;
}) {
  const { data, error, fetching } = decided;
  const comparison = data?.comparison;
  const decision = comparison?.decision;
  const retried = useRef(false);
  const signedOff = useSignedOff(comparison?.id ?? "", !finalized || !comparison);
  const missing = finalized && Boolean(data) && !decision && !fetching && !error;
  useEffect(() => {
    if (missing && !retried.current) {
      retried.current = true;
      refetch({ requestPolicy: "network-only" });
    }
  }, [missing, refetch]);
  if (error && !data) return <ErrorNotice error={error} />;
  if (!comparison || !decision) return null;
  const policy = comparison.shipPolicy;
  const tone = OUTCOME_TONE[decision.outcome];
  return (
    <section aria-label="Decision" className={`decision-region tone-${tone}`}>
      <h2>
        Decision: <span className={`decision-word tone-${tone}`}>{OUTCOME_WORDS[decision.outcome]}</span>
      </h2>
      <p className="decision-sentence">{decision.sentence}</p>
      {signedOff && <p className="signed-off">{signedOff}.</p>}
      {decision.outcome === "MORE_DATA" && decision.casesNeeded != null && (
        <p>
          About {count(decision.casesNeeded)} usable cases would decide it (this run had{" "}
          {count(decision.usableCases)}).
        </p>
      )}
      <p className="policy">
        Policy
        {policy.registeredAt ? (
          <>
            {" "}
            registered <time dateTime={policy.registeredAt}>{exactTime(policy.registeredAt)}</time>,
            before the first call
          </>
        ) : null}
        : {policy.sentence}
      </p>
      {decision.criteria.length > 0 && (
        <ul aria-label="Criteria" className="criteria">
          {decision.criteria.map((c, i) => (
            <li key={i} className={`criterion ${c.status.toLowerCase()}`}>
              <span className="status-word">{STATUS_WORDS[c.status]}</span>{" "}
              <strong>
                {criterionName(c)} vs {labelOf(cohorts, c.baselineCohortIndex)}
              </strong>
              : {criterionFigures(c, decision.level)}; {criterionBound(c)}
              {c.corrected ? " (corrected with human labels)" : ""}.
              <br />
              <span className="muted">{c.sentence}</span>
            </li>
          ))}
        </ul>
      )}
      {decision.criteria.some((c) => c.kind === "QUALITY") && (
        <DecisionFigure
          criteria={decision.criteria}
          marginPoints={policy.qualityMarginPoints}
          level={decision.level}
          cohorts={cohorts}
        />
      )}
    </section>
  );
}

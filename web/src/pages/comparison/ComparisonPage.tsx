import { useCallback } from "react";
import { useParams } from "react-router";
import { useQuery } from "../../lib/query";
import { ErrorNotice } from "../../components/ErrorNotice";
import { ComparisonHeader } from "./ComparisonHeader";
import { DecisionQuery } from "./decisionQueries";
import { DecisionRegion } from "./DecisionRegion";
import { EndedSummary } from "./EndedSummary";
import { FinalizedView } from "./FinalizedView";
import { LiveRun } from "./LiveRun";
import { ComparisonPageQuery, ScorecardQuery } from "./queries";
import { SetupActions } from "./SetupActions";
import "./comparison.css";

/** `/comparisons/:id`: the comparison in whatever state it is (docs/portal.md). */
export function ComparisonPage() {
  const { id = "" } = useParams();
  const [{ data, error }, refetch] = useQuery({
    query: ComparisonPageQuery,
    variables: { id },
  });
  // Asked at once beside the comparison (not after it), so a finalized verdict shows sooner.
  const [scored, refetchScorecard] = useQuery({ query: ScorecardQuery, variables: { id } });
  // The decision in a document of its own: the page's document keeps its direct read.
  const [decided, refetchDecision] = useQuery({ query: DecisionQuery, variables: { id } });
  const requery = useCallback(() => {
    refetch({ requestPolicy: "network-only" });
    refetchScorecard({ requestPolicy: "network-only" });
    refetchDecision({ requestPolicy: "network-only" });
  }, [refetch, refetchScorecard, refetchDecision]);
  const comparison = data?.comparison.id === id ? data.comparison : undefined;
  if (!comparison) {
    return (
      <>
        <h1>{id}</h1>
        {error ? <ErrorNotice error={error} /> : <p className="muted">Loading…</p>}
      </>
    );
  }
  const ended = ["DONE", "FAILED", "CANCELLED"].includes(comparison.status);
  return (
    <>
      <ComparisonHeader comparison={comparison} />
      {ended && (
        <DecisionRegion
          decided={decided}
          refetch={refetchDecision}
          cohorts={comparison.cohorts}
          finalized={comparison.verdictState === "FINALIZED"}
        />
      )}
      {comparison.status === "SETUP" && <SetupActions id={comparison.id} onChange={requery} />}
      {comparison.status === "RUNNING" && (
        <LiveRun
          key={comparison.id}
          id={comparison.id}
          cohorts={comparison.cohorts}
          initial={comparison.progress}
          budgetCapCents={comparison.budgetCapCents}
          onEnded={requery}
        />
      )}
      {ended && <EndedSummary comparison={comparison} onChange={requery} />}
      {comparison.verdictState === "FINALIZED" && (
        <FinalizedView
          id={comparison.id}
          cohorts={comparison.cohorts}
          scored={scored}
          decided={decided}
          refetch={refetchScorecard}
          onVerdictChange={requery}
        />
      )}
    </>
  );
}

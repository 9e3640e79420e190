import { useCallback } from "react";
import { useParams } from "react-router";
import { useQuery } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import { ComparisonHeader } from "./ComparisonHeader";
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
  const requery = useCallback(() => {
    refetch({ requestPolicy: "network-only" });
    refetchScorecard({ requestPolicy: "network-only" });
  }, [refetch, refetchScorecard]);
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
          refetch={refetchScorecard}
          onVerdictChange={requery}
        />
      )}
    </>
  );
}

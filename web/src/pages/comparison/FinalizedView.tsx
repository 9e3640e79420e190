import { useEffect } from "react";
import type { CombinedError, UseQueryExecute } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import type { ComparisonScorecardQuery } from "../../gql/graphql";
import type { CohortName } from "./cohorts";
import type { Decided } from "./DecisionRegion";
import { FailureAnalysis } from "./FailureAnalysis";
import { ForestPlot } from "./ForestPlot";
import { JudgesRegion } from "./JudgesRegion";
import { ScorecardTable } from "./ScorecardTable";
import { ReportsRegion } from "./Reports";
import { SampleAdequacy } from "./SampleAdequacy";
import { TrialsRegion } from "./TrialsRegion";
import { VerdictRegion } from "./VerdictRegion";

/** A FINALIZED comparison: verdict, scorecard, intervals, adequacy, trials, failures, judges,
 * reports. */
export function FinalizedView({
  id,
  cohorts,
  scored,
  decided,
  refetch,
  onVerdictChange,
}: {
  id: string;
  cohorts: readonly CohortName[];
  scored: { data?: ComparisonScorecardQuery; error?: CombinedError; fetching: boolean };
  /** The decision's document: the scorecard's differences with their intervals. */
  decided: Decided;
  refetch: UseQueryExecute;
  /** A sign-off wrote the comparison's verdict: the page refreshes its header. */
  onVerdictChange: () => void;
}) {
  const { data, error, fetching } = scored;
  const scorecard = data?.comparison.scorecard;
  // The scorecard may have been read a moment before finalization committed: read it again.
  const missing = Boolean(data) && !scorecard && !fetching && !error;
  useEffect(() => {
    if (missing) refetch({ requestPolicy: "network-only" });
  }, [missing, refetch]);
  if (!scorecard) return error ? <ErrorNotice error={error} /> : <p className="muted">Loading the verdict…</p>;
  return (
    <>
      <VerdictRegion scorecard={scorecard} cohorts={cohorts} />
      <ScorecardTable
        metrics={scorecard.metrics}
        cohorts={cohorts}
        differences={decided.data?.comparison}
      />
      <ForestPlot confidence={scorecard.confidence} cohorts={cohorts} />
      <SampleAdequacy confidence={scorecard.confidence} cohorts={cohorts} />
      <TrialsRegion trials={scorecard.trials} cohorts={cohorts} />
      <FailureAnalysis id={id} counts={scorecard.failureAnalysis} cohorts={cohorts} />
      <JudgesRegion id={id} />
      <ReportsRegion comparisonId={id} onVerdictChange={onVerdictChange} />
    </>
  );
}

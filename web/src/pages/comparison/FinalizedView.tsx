import { useQuery } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import type { CohortName } from "./cohorts";
import { FailureAnalysis } from "./FailureAnalysis";
import { ForestPlot } from "./ForestPlot";
import { ScorecardTable } from "./ScorecardTable";
import { ScorecardQuery } from "./queries";
import { ReportsRegion } from "./Reports";
import { SampleAdequacy } from "./SampleAdequacy";
import { TrialsRegion } from "./TrialsRegion";
import { VerdictRegion } from "./VerdictRegion";

/** A FINALIZED comparison: verdict, scorecard, intervals, adequacy, trials, failures, reports. */
export function FinalizedView({ id, cohorts }: { id: string; cohorts: readonly CohortName[] }) {
  const [{ data, error }] = useQuery({ query: ScorecardQuery, variables: { id } });
  const scorecard = data?.comparison.scorecard;
  if (!scorecard) return error ? <ErrorNotice error={error} /> : <p className="muted">Loading the verdict…</p>;
  return (
    <>
      <VerdictRegion scorecard={scorecard} cohorts={cohorts} />
      <ScorecardTable metrics={scorecard.metrics} cohorts={cohorts} />
      <ForestPlot confidence={scorecard.confidence} cohorts={cohorts} />
      <SampleAdequacy confidence={scorecard.confidence} cohorts={cohorts} />
      <TrialsRegion trials={scorecard.trials} cohorts={cohorts} />
      <FailureAnalysis id={id} counts={scorecard.failureAnalysis} cohorts={cohorts} />
      <ReportsRegion comparisonId={id} />
    </>
  );
}

/**
 * `/experiments/:id/diff?candidate=…&baseline=…`: the run diff's summary and its cases under
 * the tabs "Regressed", "Improved", "Changed", "All" (seed 001).
 */
import { useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { useQuery } from "../../lib/query";
import { ErrorNotice } from "../../components/ErrorNotice";
import { ExportButtons } from "../../components/ExportButtons";
import { Tabs } from "../../components/Tabs";
import { graphql } from "../../gql";
import type { DiffCaseFilter } from "../../gql/graphql";
import { RunDiffCases } from "./RunDiffCases";
import { RunDiffSummary } from "./RunDiffSummary";
import { runName } from "./runWords";
import "./experiments.css";

const RunDiffQuery = graphql(`
  query RunDiffPage($candidate: ID!, $baseline: ID!) {
    candidateRun: run(id: $candidate) {
      id
      source
      cohortIndex
      cohortLabel
      releaseName
    }
    baselineRun: run(id: $baseline) {
      id
      source
      cohortIndex
      cohortLabel
      releaseName
    }
    runDiff(candidateRunId: $candidate, baselineRunId: $baseline) {
      candidateRunId
      baselineRunId
      summary {
        baselinePassRate
        candidatePassRate
        passRateDelta
        deltaLow
        deltaHigh
        method
        pValue
        significant
        significanceReason
        improvedCount
        regressedCount
        unchangedCount
        addedCount
        removedCount
        passFlipsToFail
        passFlipsToPass
        pairedCount
        gradedPairCount
        epsilon
        pairing
        evaluators {
          name
          pairedCount
          baselineMean
          candidateMean
          delta
          low
          high
          pValue
          adjustedPValue
          significant
        }
      }
    }
  }
`);

const TABS: { key: DiffCaseFilter; label: string }[] = [
  { key: "REGRESSED", label: "Regressed" },
  { key: "IMPROVED", label: "Improved" },
  { key: "CHANGED", label: "Changed" },
  { key: "ALL", label: "All" },
];

export function RunDiffPage() {
  const { id = "" } = useParams();
  const [params] = useSearchParams();
  const candidate = params.get("candidate") ?? "";
  const baseline = params.get("baseline") ?? "";
  const [tab, setTab] = useState<DiffCaseFilter>("REGRESSED");
  const [{ data, error }] = useQuery({
    query: RunDiffQuery,
    variables: { candidate, baseline },
    pause: !candidate || !baseline,
  });
  return (
    <div className="run-diff">
      <p>
        <Link to={`/experiments/${id}`}>Back to the experiment</Link>
      </p>
      <h1>Run diff</h1>
      <p>
        Candidate <strong>{data ? runName(data.candidateRun) : candidate || "—"}</strong> against
        baseline <strong>{data ? runName(data.baselineRun) : baseline || "—"}</strong>
      </p>
      {(!candidate || !baseline) && (
        <p role="alert" className="error">
          Choose a candidate run and a baseline run on the experiment's page.
        </p>
      )}
      {error && !data && <ErrorNotice error={error} />}
      {data && (
        <>
          <RunDiffSummary summary={data.runDiff.summary} />
          <h2>Cases</h2>
          <ExportButtons target="RUN_DIFF" id={candidate} baselineRunId={baseline} />
          <Tabs label="Cases" tabs={TABS} selected={tab} onSelect={setTab}>
            <RunDiffCases key={tab} candidate={candidate} baseline={baseline} filter={tab} />
          </Tabs>
        </>
      )}
    </div>
  );
}

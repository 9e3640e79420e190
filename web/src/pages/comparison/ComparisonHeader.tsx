import { useQuery } from "urql";
import type { ComparisonPageQuery as PageData } from "../../gql/graphql";
import { cohortName } from "./cohorts";
import { DatasetNameQuery } from "./queries";

type Comparison = PageData["comparison"];

const STATUS: Record<Comparison["status"], string> = {
  SETUP: "Set up",
  RUNNING: "Running",
  DONE: "Done",
  FAILED: "Failed",
  CANCELLED: "Cancelled",
};
const DECISION: Record<string, string> = {
  APPROVE: "Approved",
  HOLD: "Hold",
  REQUEST_CHANGES: "Changes requested",
};
const VERDICT: Record<string, string> = {
  PROMOTE: "Promote",
  HOLD: "Hold",
  INCONCLUSIVE: "Inconclusive",
};

/** The heading (the label, else the id) and the line of facts beneath it. */
export function ComparisonHeader({ comparison }: { comparison: Comparison }) {
  const signed = [...comparison.reports].reverse().find((r) => r.signOff)?.signOff;
  return (
    <>
      <h1>{comparison.label || comparison.id}</h1>
      <p className="facts">
        <span>
          Status: <strong>{STATUS[comparison.status]}</strong>
        </span>
        <span>Cohorts: {comparison.cohorts.map(cohortName).join(", ")}</span>
        <span>
          Dataset: <DatasetName id={comparison.datasetVersion.datasetId} /> version{" "}
          {comparison.datasetVersion.number}
          {comparison.split === "HOLDOUT" ? " (holdout)" : ""}
        </span>
        <span>
          {comparison.trialsPerCase} {comparison.trialsPerCase === 1 ? "trial" : "trials"} per
          case
        </span>
        {signed && <span>Decision: {DECISION[signed.decision] ?? signed.decision}</span>}
        {comparison.verdict && <span>Verdict: {VERDICT[comparison.verdict] ?? comparison.verdict}</span>}
      </p>
    </>
  );
}

function DatasetName({ id }: { id: string }) {
  const [{ data }] = useQuery({ query: DatasetNameQuery, variables: { id } });
  return <>{data?.dataset.name ?? id}</>;
}

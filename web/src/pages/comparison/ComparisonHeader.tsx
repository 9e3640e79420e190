import { useQuery } from "../../lib/query";
import type { ComparisonPageQuery as PageData } from "../../gql/graphql";
import { statusWord } from "../../lib/comparisonWords";
import { cohortName } from "./cohorts";
import { DatasetNameQuery } from "./queries";
import { signedOffWords, VERDICT_WORDS } from "./signOffWords";
import { useSignedOff } from "./useSignedOff";

type Comparison = PageData["comparison"];

/** The heading (the label, else the id) and the line of facts beneath it. */
export function ComparisonHeader({ comparison }: { comparison: Comparison }) {
  const signed = [...comparison.reports].reverse().find((r) => r.signOff)?.signOff;
  // The sign-off named as what it is, never a "Decision:" beside the Decision region's.
  const signedWords = useSignedOff(comparison.id, !signed);
  return (
    <>
      <h1>{comparison.label || comparison.id}</h1>
      <p className="facts">
        <span>
          Status: <strong>{statusWord(comparison.status, comparison.stopReason)}</strong>
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
        {signed && <span>{signedWords ?? signedOffWords(signed.decision, null, null)}</span>}
        {comparison.verdict && <span>Verdict: {VERDICT_WORDS[comparison.verdict]}</span>}
      </p>
    </>
  );
}

/** The dataset by its name; never its raw id (while the name loads: an ellipsis). */
function DatasetName({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: DatasetNameQuery, variables: { id } });
  if (data?.dataset.name) return <>{data.dataset.name}</>;
  return <span className="muted">{error ? "a dataset you cannot read" : "…"}</span>;
}

import type { ComparisonPreviewQuery } from "../../gql/graphql";
import { count } from "../../lib/format";

export type Preview = ComparisonPreviewQuery["comparisonPreview"];

/** The calls, the cost bound and each connection's spend in one sentence (seed 002's words). */
export function costSentence(preview: Preview): string {
  return [preview.summary, ...preview.connections.map((c) => c.text)].join(" ");
}

/** What the comparison would run and cost, its variables, warnings and blockers. */
export function PreviewPanel({ preview }: { preview: Preview }) {
  return (
    <>
      <p>{costSentence(preview)}</p>
      <p className="muted">
        {count(preview.caseCount)} of {count(preview.splitCaseCount)}{" "}
        cases of the {preview.split === "DEV" ? "Dev" : "Holdout"} split of dataset version{" "}
        {preview.datasetVersionNumber}, {preview.trialsPerCase}{" "}
        {preview.trialsPerCase === 1 ? "trial" : "trials"} each.
      </p>
      {preview.variables.length > 0 && (
        <ul aria-label="Variables" className="plain">
          {preview.variables.map((v) => (
            <li key={v.variable}>{v.text}</li>
          ))}
        </ul>
      )}
      {preview.warnings.length > 0 && (
        <ul aria-label="Warnings" className="warnings">
          {preview.warnings.map((w) => (
            <li key={w.code}>{w.message}</li>
          ))}
        </ul>
      )}
      {preview.blockers.length > 0 && (
        <ul aria-label="Blockers" className="blockers">
          {preview.blockers.map((b) => (
            <li key={b.code}>{b.message}</li>
          ))}
        </ul>
      )}
    </>
  );
}

import type { ComparisonPreviewQuery } from "../../gql/graphql";
import { count, dollars } from "../../lib/format";

export type Preview = ComparisonPreviewQuery["comparisonPreview"];

/** The calls, the cost bound and each connection's spend in one sentence (seed 002's words). */
export function costSentence(preview: Preview): string {
  return [preview.summary, ...preview.connections.map((c) => c.text)].join(" ");
}

/**
 * The warning when the budget cap is below what one case may cost (every cohort's trials and
 * judge calls at their max output tokens): the run may stop after its first case.
 */
export function capWarning(preview: Preview, budgetCapCents: number | null): string | null {
  if (budgetCapCents === null || preview.caseCount === 0) return null;
  const perCase = preview.costBoundCents / preview.caseCount;
  if (budgetCapCents >= perCase) return null;
  return (
    `The budget cap (${dollars(budgetCapCents)}) is below what one case may cost ` +
    `(up to ${dollars(perCase)} for every cohort's trials): the run may stop on the cap ` +
    "after its first case, with too few cases for a verdict."
  );
}

/** What the comparison would run and cost, its variables, warnings and blockers. */
export function PreviewPanel({
  preview,
  budgetCapCents,
}: {
  preview: Preview;
  budgetCapCents: number | null;
}) {
  const cap = capWarning(preview, budgetCapCents);
  const warnings: { key: string; message: string }[] = preview.warnings.map((w) => ({
    key: w.code,
    message: w.message,
  }));
  if (cap) warnings.unshift({ key: "BUDGET_CAP_BELOW_ONE_CASE", message: cap });
  return (
    <>
      <p>{costSentence(preview)}</p>
      <p className="muted">
        {count(preview.caseCount)} of {count(preview.splitCaseCount)}{" "}
        cases of the {preview.split === "DEV" ? "Dev" : "Holdout"} split of dataset version{" "}
        {preview.datasetVersionNumber}, {preview.trialsPerCase}{" "}
        {preview.trialsPerCase === 1 ? "trial" : "trials"} each.
      </p>
      <p>Decides by this ship policy: {preview.shipPolicy.sentence}</p>
      {preview.variables.length > 0 && (
        <ul aria-label="Variables" className="plain">
          {preview.variables.map((v) => (
            <li key={v.variable}>{v.text}</li>
          ))}
        </ul>
      )}
      {warnings.length > 0 && (
        <ul aria-label="Warnings" className="warnings">
          {warnings.map((w) => (
            <li key={w.key}>{w.message}</li>
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

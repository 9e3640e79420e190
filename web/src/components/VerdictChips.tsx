import { graphql } from "../gql";
import type { VerdictChipFieldsFragment, VerdictOutcome } from "../gql/graphql";

/** What a verdict chip shows: select it with `...VerdictChipFields` wherever verdicts are read. */
export const VerdictChipFields = graphql(`
  fragment VerdictChipFields on BaselineVerdict {
    baselineCohortIndex
    outcome
    summary
  }
`);

const TINT: Partial<Record<VerdictOutcome, string>> = {
  REGRESSED: "chip bad",
  IMPROVED: "chip good",
};

/** One chip per baseline with the verdict's summary: a regression reads bad, an improvement good. */
export function VerdictChips({ verdicts }: { verdicts: readonly VerdictChipFieldsFragment[] }) {
  return (
    <>
      {verdicts.map((v) => (
        <span key={v.baselineCohortIndex} className={TINT[v.outcome] ?? "chip"}>
          {v.summary}
        </span>
      ))}
    </>
  );
}

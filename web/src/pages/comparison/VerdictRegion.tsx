import { VerdictChips } from "../../components/VerdictChips";
import type { ComparisonScorecardQuery } from "../../gql/graphql";
import { count } from "../../lib/format";
import { labelOf, type CohortName } from "./cohorts";

type Scorecard = NonNullable<ComparisonScorecardQuery["comparison"]["scorecard"]>;

const NO_WINNER: Record<string, string> = {
  TIED_VOTES: "No overall winner: the quality rows' votes are tied.",
  NO_VOTES: "No overall winner: no quality row has a single winner.",
};

/** One chip per baseline (the verdict's summary) and the overall winner. */
export function VerdictRegion({
  scorecard,
  cohorts,
}: {
  scorecard: Scorecard;
  cohorts: readonly CohortName[];
}) {
  const winner = scorecard.overallWinner;
  return (
    <section aria-label="Verdict">
      <h2>Verdict</h2>
      <div>
        <VerdictChips verdicts={scorecard.verdicts} />
      </div>
      <p>
        {winner.cohortIndex !== null && winner.cohortIndex !== undefined
          ? `Overall winner: ${labelOf(cohorts, winner.cohortIndex)}.`
          : (NO_WINNER[winner.reason ?? ""] ?? "No overall winner.")}{" "}
        Over {count(scorecard.usableCases)} usable cases
        {scorecard.casesNotRun > 0 && `; ${count(scorecard.casesNotRun)} cases never ran`}.
      </p>
      {scorecard.staleness && <p className="muted">{scorecard.staleness.note}</p>}
    </section>
  );
}

import type { ComparisonScorecardQuery } from "../../gql/graphql";
import { count, percent } from "../../lib/format";
import { nameOf, type CohortName } from "./cohorts";
import { TableScroll } from "../../components/TableScroll";

type Trials = NonNullable<ComparisonScorecardQuery["comparison"]["scorecard"]>["trials"][number];

/** Per cohort: pass^k (every trial passes), pass@k (any does), flips, failed or missing. */
export function TrialsRegion({
  trials,
  cohorts,
}: {
  trials: readonly Trials[];
  cohorts: readonly CohortName[];
}) {
  return (
    <section aria-label="Trials">
      <h2>Trials</h2>
      <TableScroll>
<table aria-label="Trials per cohort">
        <thead>
          <tr>
            <th scope="col">Cohort</th>
            <th scope="col" className="num">k</th>
            <th scope="col" className="num">pass^k</th>
            <th scope="col" className="num">pass@k</th>
            <th scope="col" className="num">Flips</th>
            <th scope="col" className="num">Failed or missing trials</th>
          </tr>
        </thead>
        <tbody>
          {trials.map((t) => (
            <tr key={t.cohortIndex}>
              <th scope="row">{nameOf(cohorts, t.cohortIndex)}</th>
              <td className="num">{t.k}</td>
              <td className="num">{percent(t.passHatK)}</td>
              <td className="num">{percent(t.passAtK)}</td>
              <td className="num">{count(t.flips)}</td>
              <td className="num">{count(t.failedOrMissingTrials)}</td>
            </tr>
          ))}
        </tbody>
      </table>
</TableScroll>
    </section>
  );
}

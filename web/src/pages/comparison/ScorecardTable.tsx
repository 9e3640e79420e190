import type { ComparisonDecisionQuery, ComparisonScorecardQuery } from "../../gql/graphql";
import { cohortName, type CohortName } from "./cohorts";
import { metricDifference, metricName, metricValue, type Difference } from "./metrics";
import { TableScroll } from "../../components/TableScroll";

type Metric = NonNullable<ComparisonScorecardQuery["comparison"]["scorecard"]>["metrics"][number];
type Differences = ComparisonDecisionQuery["comparison"];

/**
 * A row per metric, a column per cohort. Each baseline's cell shows its value and the
 * candidate's difference from it (candidate − baseline) with the interval where the API has one:
 * the verdict's for the pass rate, the decision's criterion for a guarded metric. "winner" only
 * where one cohort alone wins (the API keeps every tied winner in `winners`).
 */
export function ScorecardTable({
  metrics,
  cohorts,
  differences,
}: {
  metrics: readonly Metric[];
  cohorts: readonly CohortName[];
  differences?: Differences;
}) {
  const candidate = cohorts.find((c) => c.isCandidate)?.cohortIndex ?? 0;
  return (
    <>
    <TableScroll>
      <table aria-label="Scorecard">
        <thead>
          <tr>
            <th scope="col">Metric</th>
            {cohorts.map((c) => (
              <th key={c.cohortIndex} scope="col" className="num">
                {cohortName(c)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {metrics.map((m) => {
            const valueOf = (index: number) =>
              m.values.find((v) => v.cohortIndex === index)?.value;
            const soleWinner = m.winners.length === 1 ? m.winners[0] : undefined;
            return (
              <tr key={m.name}>
                <th scope="row">
                  {metricName(m.name)}{" "}
                  <span className="muted">
                    ({m.direction === "HIGHER_IS_BETTER" ? "higher is better" : "lower is better"})
                  </span>
                </th>
                {cohorts.map((c) => {
                  const difference =
                    c.cohortIndex === candidate
                      ? null
                      : metricDifference(m.name, {
                          candidate: valueOf(candidate),
                          baseline: valueOf(c.cohortIndex),
                          baselineCohortIndex: c.cohortIndex,
                          differences,
                        });
                  return (
                    <td key={c.cohortIndex} className="num">
                      {metricValue(m.name, valueOf(c.cohortIndex))}
                      {soleWinner === c.cohortIndex && <span className="chip good">winner</span>}
                      {difference && <DifferenceText difference={difference} />}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
      <p className="muted">
        Under each baseline: the candidate's difference from it (candidate − baseline), with its
        interval where one is computed — the verdict's for the pass rate, the decision's for a
        metric the ship policy guards.
      </p>
    </>
  );
}

function DifferenceText({ difference }: { difference: Difference }) {
  return (
    <span className="difference">
      {" "}
      Δ {difference.estimate}
      {difference.interval && (
        <span className="interval"> ({difference.interval})</span>
      )}
    </span>
  );
}

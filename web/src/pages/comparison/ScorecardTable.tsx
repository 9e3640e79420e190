import type { ComparisonScorecardQuery } from "../../gql/graphql";
import { cohortName, type CohortName } from "./cohorts";
import { metricName, metricValue } from "./metrics";
import { TableScroll } from "../../components/TableScroll";

type Metric = NonNullable<ComparisonScorecardQuery["comparison"]["scorecard"]>["metrics"][number];

/** A row per metric, a column per cohort; each row's winners marked "winner". */
export function ScorecardTable({
  metrics,
  cohorts,
}: {
  metrics: readonly Metric[];
  cohorts: readonly CohortName[];
}) {
  return (
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
        {metrics.map((m) => (
          <tr key={m.name}>
            <th scope="row">
              {metricName(m.name)}{" "}
              <span className="muted">
                ({m.direction === "HIGHER_IS_BETTER" ? "higher is better" : "lower is better"})
              </span>
            </th>
            {cohorts.map((c) => {
              const value = m.values.find((v) => v.cohortIndex === c.cohortIndex)?.value;
              return (
                <td key={c.cohortIndex} className="num">
                  {metricValue(m.name, value)}
                  {m.winners.includes(c.cohortIndex) && <span className="chip good">winner</span>}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
</TableScroll>
  );
}

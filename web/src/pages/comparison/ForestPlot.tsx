import type { ComparisonScorecardQuery } from "../../gql/graphql";
import { percent } from "../../lib/format";
import { nameOf, type CohortName } from "./cohorts";

type Confidence = NonNullable<
  ComparisonScorecardQuery["comparison"]["scorecard"]
>["confidence"][number];

const WIDTH = 640;
const LABEL = 170;
const VALUE = 190;
const ROW = 30;
const TOP = 10;
const AXIS = 26;
const TICKS = [0, 0.25, 0.5, 0.75, 1];

/** Each cohort's pass rate and its interval on one 0–100% axis; the candidate highlighted. */
export function ForestPlot({
  confidence,
  cohorts,
}: {
  confidence: readonly Confidence[];
  cohorts: readonly CohortName[];
}) {
  const plot = WIDTH - LABEL - VALUE;
  const x = (rate: number) => LABEL + Math.max(0, Math.min(1, rate)) * plot;
  const height = TOP + confidence.length * ROW + AXIS;
  const rows = confidence.map((c) => {
    const cohort = cohorts.find((x) => x.cohortIndex === c.cohortIndex);
    const text = `${percent(c.passRate)} (${percent(c.low)}–${percent(c.high)})`;
    const candidate = cohort?.isCandidate ?? c.cohortIndex === 0;
    return { c, name: nameOf(cohorts, c.cohortIndex), text, candidate };
  });
  const summary = rows.map((r) => `${r.name}: ${r.text}`).join("; ");
  return (
    <figure>
      <figcaption>Confidence intervals</figcaption>
      <svg
        role="img"
        aria-label={`Pass rate with its 95% interval per cohort. ${summary}`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        className="forest"
      >
        {TICKS.map((t) => (
          <g key={t} className="tick">
            <line x1={x(t)} x2={x(t)} y1={TOP - 4} y2={height - AXIS} />
            <text x={x(t)} y={height - 8} textAnchor="middle">
              {Math.round(t * 100)}%
            </text>
          </g>
        ))}
        {rows.map((r, i) => {
          const y = TOP + i * ROW + ROW / 2;
          return (
            <g key={r.c.cohortIndex} className={r.candidate ? "cohort candidate" : "cohort"}>
              <text x={LABEL - 8} y={y + 4} textAnchor="end">
                {r.name}
              </text>
              <line x1={x(r.c.low)} x2={x(r.c.high)} y1={y} y2={y} className="interval" />
              <circle cx={x(r.c.passRate)} cy={y} r={5} />
              <text x={WIDTH - VALUE + 10} y={y + 4}>
                {r.text}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

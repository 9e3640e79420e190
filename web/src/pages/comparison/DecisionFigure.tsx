import type { ComparisonDecisionQuery } from "../../gql/graphql";
import { labelOf, type CohortName } from "./cohorts";
import { signedPoints, STATUS_WORDS } from "./decisionWords";

type Criterion = NonNullable<
  ComparisonDecisionQuery["comparison"]["decision"]
>["criteria"][number];

const WIDTH = 640;
const LABEL = 150;
const VALUE = 230;
const ROW = 30;
const TOP = 22;
const AXIS = 26;

/** A tick step of 1, 2 or 5 × 10ⁿ points giving about five ticks over `span`. */
function step(span: number): number {
  const rough = span / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? power * 10;
}

/**
 * `figure` "Difference from each baseline": each baseline's quality Δ (candidate − baseline,
 * points) with its interval at the decision's level, the margin −δ drawn as a dashed line and
 * 0 as a solid one; the colour and the words say whether the criterion is met.
 */
export function DecisionFigure({
  criteria,
  marginPoints,
  level,
  cohorts,
}: {
  criteria: readonly Criterion[];
  marginPoints: number;
  level: number | null | undefined;
  cohorts: readonly CohortName[];
}) {
  const rows = criteria.filter((c) => c.kind === "QUALITY");
  const margin = rows[0]?.threshold ?? -marginPoints;
  const ends = rows.flatMap((c) => [c.low, c.high, c.estimate]).filter(
    (v): v is number => v !== null && v !== undefined,
  );
  const lowest = Math.min(margin, 0, ...ends);
  const highest = Math.max(margin, 0, ...ends);
  const tick = step(Math.max(highest - lowest, 1));
  const from = lowest - tick / 2;
  const to = highest + tick / 2;
  const plot = WIDTH - LABEL - VALUE;
  const x = (value: number) => LABEL + ((Math.max(from, Math.min(to, value)) - from) / (to - from)) * plot;
  const ticks: number[] = [];
  for (let t = Math.ceil(from / tick) * tick; t <= to + 1e-9; t += tick) ticks.push(Number(t.toFixed(6)));
  const height = TOP + Math.max(rows.length, 1) * ROW + AXIS;
  const levelWords = level ? `${Math.round(level * 100)}%` : "";
  const shown = rows.map((c) => {
    const measured = c.estimate !== null && c.estimate !== undefined;
    const text = measured
      ? `Δ ${signedPoints(c.estimate)} (${signedPoints(c.low)} to ${signedPoints(c.high)}): ${STATUS_WORDS[c.status].toLowerCase()}`
      : "not measured";
    return { c, name: labelOf(cohorts, c.baselineCohortIndex), text, measured };
  });
  const alternative =
    `Pass-rate difference, candidate minus each baseline, in points, with its ${levelWords} ` +
    `interval; the margin ${signedPoints(margin)} points is the dashed line. ` +
    (shown.length ? shown.map((r) => `${r.name}: ${r.text}`).join("; ") + "." : "No quality criterion.");
  return (
    <figure className="decision-figure">
      <figcaption>Difference from each baseline</figcaption>
      <svg role="img" aria-label={alternative} viewBox={`0 0 ${WIDTH} ${height}`} className="delta">
        {ticks.map((t) => (
          <g key={t} className="tick">
            <line x1={x(t)} x2={x(t)} y1={TOP - 4} y2={height - AXIS} />
            <text x={x(t)} y={height - 8} textAnchor="middle">
              {signedPoints(t)}
            </text>
          </g>
        ))}
        <line className="zero" x1={x(0)} x2={x(0)} y1={TOP - 8} y2={height - AXIS} />
        <line className="margin" x1={x(margin)} x2={x(margin)} y1={TOP - 8} y2={height - AXIS} />
        <text className="margin-label" x={x(margin)} y={TOP - 10} textAnchor="middle">
          margin {signedPoints(margin)}
        </text>
        {shown.map((r, i) => {
          const y = TOP + i * ROW + ROW / 2;
          const c = r.c;
          return (
            <g key={c.baselineCohortIndex} className={`baseline ${c.status.toLowerCase()}`}>
              <text x={LABEL - 8} y={y + 4} textAnchor="end">
                vs {r.name}
              </text>
              {r.measured && (
                <>
                  <line
                    className="interval"
                    x1={x(c.low ?? from)}
                    x2={x(c.high ?? to)}
                    y1={y}
                    y2={y}
                  />
                  <circle cx={x(c.estimate ?? 0)} cy={y} r={5} />
                </>
              )}
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

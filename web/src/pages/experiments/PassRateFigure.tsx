/**
 * `figure` "Pass rate over runs" (the Monitor view): each run's pass rate as a mark, its 95%
 * interval as a band, oldest run on the left. Each mark is an `img` named by its numbers.
 */
import { exactTime } from "../../lib/format";
import { passRateWords, runName, type PassRate } from "./runWords";

interface PlottedRun {
  id: string;
  source: string;
  cohortIndex?: number | null;
  createdAt: string;
  passRate?: PassRate | null;
}

const WIDTH = 760;
const HEIGHT = 240;
const LEFT = 48;
const RIGHT = 16;
const TOP = 12;
const BOTTOM = 28;

export function PassRateFigure({ runs, total }: { runs: PlottedRun[]; total: number }) {
  const rated = runs.filter((r): r is PlottedRun & { passRate: PassRate } => !!r.passRate);
  const span = WIDTH - LEFT - RIGHT;
  const x = (i: number) => LEFT + (rated.length === 1 ? span / 2 : (i * span) / (rated.length - 1));
  const y = (rate: number) => TOP + (1 - rate) * (HEIGHT - TOP - BOTTOM);
  const band = rated.length
    ? [
        ...rated.map((r, i) => `${x(i)},${y(r.passRate.high)}`),
        ...rated.map((r, i) => `${x(i)},${y(r.passRate.low)}`).reverse(),
      ].join(" ")
    : "";
  const line = rated.map((r, i) => `${x(i)},${y(r.passRate.value)}`).join(" ");
  const unrated = runs.length - rated.length;
  return (
    <figure className="pass-rate-figure">
      <figcaption>Pass rate over runs</figcaption>
      {rated.length === 0 ? (
        <p className="muted">No run has a pass rate yet.</p>
      ) : (
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          width="100%"
          role="group"
          aria-label="Pass rate and 95% interval per run, oldest first"
        >
          {[0, 0.5, 1].map((tick) => (
            <g key={tick} aria-hidden="true">
              <line className="grid" x1={LEFT} x2={WIDTH - RIGHT} y1={y(tick)} y2={y(tick)} />
              <text className="axis" x={LEFT - 6} y={y(tick) + 4} textAnchor="end">
                {tick * 100}%
              </text>
            </g>
          ))}
          {rated.length > 1 && <polygon className="band" points={band} aria-hidden="true" />}
          {rated.length > 1 && <polyline className="trend" points={line} aria-hidden="true" />}
          {rated.map((run, i) => {
            const when = exactTime(run.createdAt);
            const words = `${runName(run)}, ${when}: ${passRateWords(run.passRate)}`;
            return (
              <g key={run.id} role="img" aria-label={words}>
                <title>{words}</title>
                <line
                  className="interval"
                  x1={x(i)}
                  x2={x(i)}
                  y1={y(run.passRate.low)}
                  y2={y(run.passRate.high)}
                />
                <circle className="mark" cx={x(i)} cy={y(run.passRate.value)} r={4} />
              </g>
            );
          })}
          <text className="axis" x={LEFT} y={HEIGHT - 8} aria-hidden="true">
            oldest
          </text>
          <text
            className="axis"
            x={WIDTH - RIGHT}
            y={HEIGHT - 8}
            textAnchor="end"
            aria-hidden="true"
          >
            newest
          </text>
        </svg>
      )}
      {(unrated > 0 || total > runs.length) && (
        <p className="muted">
          {total > runs.length && `The latest ${runs.length} of ${total} runs. `}
          {unrated > 0 && `${unrated} run${unrated === 1 ? " has" : "s have"} no graded item.`}
        </p>
      )}
    </figure>
  );
}

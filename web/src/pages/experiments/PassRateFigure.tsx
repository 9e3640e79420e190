/**
 * `figure` "Pass rate over runs" (the Monitor view): each run's pass rate as a mark, its 95%
 * interval as a band, oldest run on the left; one line per cohort label (a comparison's
 * candidate and baseline runs are two lines, never one zigzag), named in a legend. Each mark
 * is an `img` named by its numbers.
 */
import { exactTime } from "../../lib/format";
import { passRateWords, runName, seriesOf, type NamedRun, type PassRate } from "./runWords";

interface PlottedRun extends NamedRun {
  createdAt: string;
  passRate?: PassRate | null;
}

const WIDTH = 760;
const HEIGHT = 240;
const LEFT = 48;
const RIGHT = 16;
const TOP = 12;
const BOTTOM = 28;
/** How many lines get a colour of their own; more share them. */
const TONES = 6;

export function PassRateFigure({ runs, total }: { runs: PlottedRun[]; total: number }) {
  const rated = runs.filter((r): r is PlottedRun & { passRate: PassRate } => !!r.passRate);
  const span = WIDTH - LEFT - RIGHT;
  const x = (i: number) => LEFT + (rated.length === 1 ? span / 2 : (i * span) / (rated.length - 1));
  const y = (rate: number) => TOP + (1 - rate) * (HEIGHT - TOP - BOTTOM);
  /** Each line's runs (as their position in time), in the order the lines first appear. */
  const series = new Map<string, number[]>();
  rated.forEach((run, i) => {
    const name = seriesOf(run);
    series.set(name, [...(series.get(name) ?? []), i]);
  });
  const lines = [...series.entries()].map(([name, at], n) => ({ name, at, tone: n % TONES }));
  const toneOf = new Map(lines.map((l) => [l.name, l.tone] as const));
  const unrated = runs.length - rated.length;
  return (
    <figure className="pass-rate-figure">
      <figcaption>Pass rate over runs</figcaption>
      {rated.length === 0 ? (
        <p className="muted">No run has a pass rate yet.</p>
      ) : (
        <>
          <svg
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            width="100%"
            role="group"
            aria-label="Pass rate and 95% interval per run, oldest first, a line per cohort label"
          >
            {[0, 0.5, 1].map((tick) => (
              <g key={tick} aria-hidden="true">
                <line className="grid" x1={LEFT} x2={WIDTH - RIGHT} y1={y(tick)} y2={y(tick)} />
                <text className="axis" x={LEFT - 6} y={y(tick) + 4} textAnchor="end">
                  {tick * 100}%
                </text>
              </g>
            ))}
            {lines
              .filter((l) => l.at.length > 1)
              .map((l) => (
                <g key={l.name} className={`series tone-${l.tone}`} aria-hidden="true" data-series={l.name}>
                  <polygon
                    className="band"
                    points={[
                      ...l.at.map((i) => `${x(i)},${y(rated[i]!.passRate.high)}`),
                      ...l.at.map((i) => `${x(i)},${y(rated[i]!.passRate.low)}`).reverse(),
                    ].join(" ")}
                  />
                  <polyline
                    className="trend"
                    points={l.at.map((i) => `${x(i)},${y(rated[i]!.passRate.value)}`).join(" ")}
                  />
                </g>
              ))}
            {rated.map((run, i) => {
              const when = exactTime(run.createdAt);
              const words = `${runName(run)}, ${when}: ${passRateWords(run.passRate)}`;
              return (
                <g
                  key={run.id}
                  role="img"
                  aria-label={words}
                  className={`series tone-${toneOf.get(seriesOf(run)) ?? 0}`}
                >
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
          <ul className="plain legend" aria-label="Lines">
            {lines.map((l) => (
              <li key={l.name} className={`series tone-${l.tone}`}>
                <span className="swatch" aria-hidden="true" /> {l.name}: {l.at.length}{" "}
                {l.at.length === 1 ? "run" : "runs"}
              </li>
            ))}
          </ul>
        </>
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

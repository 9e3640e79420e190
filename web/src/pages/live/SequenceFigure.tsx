/**
 * `figure` "Sequence": the quality difference (candidate − first baseline, points) after
 * each number of traces an arm, with its anytime-valid band, drawn against the margin −δ
 * (dashed) and 0 as the band narrows. Its text alternative says where it ends.
 */
import { signedPoints } from "../comparison/decisionWords";

interface Point {
  traces: number;
  estimate: number;
  low: number;
  high: number;
}

const WIDTH = 640;
const HEIGHT = 240;
const LEFT = 48;
const RIGHT = 12;
const TOP = 14;
const BOTTOM = 30;

export function SequenceFigure({
  points,
  marginPoints,
  baseline,
}: {
  points: readonly Point[];
  marginPoints: number;
  baseline: string;
}) {
  const margin = -marginPoints;
  const last = points[points.length - 1];
  const lows = points.map((p) => Math.max(p.low, -100));
  const highs = points.map((p) => Math.min(p.high, 100));
  const bottom = Math.min(margin, 0, ...(last ? [last.low] : []), ...lows.slice(-1)) - 5;
  const top = Math.max(0, margin, ...(last ? [last.high] : [])) + 5;
  const from = Math.max(-100, Math.min(bottom, ...lows.map((v) => Math.max(v, bottom - 40))));
  const to = Math.min(100, Math.max(top, ...highs.map((v) => Math.min(v, top + 40))));
  const most = Math.max(1, last?.traces ?? 1);
  const x = (traces: number) => LEFT + (traces / most) * (WIDTH - LEFT - RIGHT);
  const y = (value: number) =>
    TOP + ((to - Math.max(from, Math.min(to, value))) / (to - from)) * (HEIGHT - TOP - BOTTOM);
  const band =
    points.length > 0
      ? `M ${points.map((p) => `${x(p.traces)},${y(p.high)}`).join(" L ")} L ${[...points]
          .reverse()
          .map((p) => `${x(p.traces)},${y(p.low)}`)
          .join(" L ")} Z`
      : "";
  const line = points.map((p, i) => `${i ? "L" : "M"} ${x(p.traces)},${y(p.estimate)}`).join(" ");
  const alternative = last
    ? `Pass-rate difference against ${baseline} after ${last.traces} traces an arm: ` +
      `${signedPoints(last.estimate)} points, sequence ${signedPoints(last.low)} to ` +
      `${signedPoints(last.high)}; the margin is ${signedPoints(margin)} points.`
    : `No pair of graded traces yet; the margin is ${signedPoints(margin)} points.`;
  return (
    <figure className="decision-figure">
      <figcaption>Sequence</figcaption>
      <svg role="img" aria-label={alternative} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="delta">
        {band && <path className="sequence-band" d={band} />}
        {line && <path className="sequence-line" d={line} fill="none" />}
        <line className="zero" x1={LEFT} x2={WIDTH - RIGHT} y1={y(0)} y2={y(0)} />
        <line className="margin" x1={LEFT} x2={WIDTH - RIGHT} y1={y(margin)} y2={y(margin)} />
        <text className="margin-label" x={LEFT + 4} y={y(margin) - 4}>
          margin {signedPoints(margin)}
        </text>
        <text x={4} y={y(0) + 4}>
          0
        </text>
        <text x={WIDTH - RIGHT} y={HEIGHT - 8} textAnchor="end">
          {last ? `${last.traces} traces an arm` : "traces an arm"}
        </text>
      </svg>
    </figure>
  );
}

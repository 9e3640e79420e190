/** A run diff's summary: pass rates, Δ with its interval, significance, counts, evaluators. */
import type { RunDiffPageQuery } from "../../gql/graphql";
import { count, percent, points } from "../../lib/format";

type Summary = RunDiffPageQuery["runDiff"]["summary"];

const PAIRING_WORDS = {
  DATASET_ITEM_ID: "paired by dataset item id",
  POSITIONAL: "paired by position",
} as const;

function score(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : value.toFixed(3);
}

function signed(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  const text = Math.abs(value).toFixed(3);
  return `${value < 0 && Number(text) !== 0 ? "−" : value > 0 && Number(text) !== 0 ? "+" : ""}${text}`;
}

export function RunDiffSummary({ summary }: { summary: Summary }) {
  const delta = summary.passRateDelta;
  const interval =
    summary.deltaLow !== null && summary.deltaLow !== undefined && summary.deltaHigh !== null
      ? ` (95% interval ${points((summary.deltaLow ?? 0) * 100)} to ${points((summary.deltaHigh ?? 0) * 100)})`
      : "";
  return (
    <section aria-label="Summary">
      <h2>Summary</h2>
      <dl className="summary">
        <dt>Pass rate</dt>
        <dd>
          {percent(summary.candidatePassRate)} candidate, {percent(summary.baselinePassRate)}{" "}
          baseline
        </dd>
        <dt>Delta</dt>
        <dd>
          {delta === null || delta === undefined ? "—" : points(delta * 100)}
          {interval}
        </dd>
        <dt>Significant</dt>
        <dd>
          <span className={summary.significant ? (delta && delta < 0 ? "chip bad" : "chip good") : "chip"}>
            {summary.significant ? "Significant" : "Not significant"}
          </span>{" "}
          {summary.method}, p = {summary.pValue.toPrecision(3)}, ε = {(summary.epsilon * 100).toFixed(1)} points{" "}
          <span className="muted">({summary.significanceReason})</span>
        </dd>
        <dt>Cases</dt>
        <dd>
          {count(summary.regressedCount)} regressed, {count(summary.improvedCount)} improved,{" "}
          {count(summary.unchangedCount)} unchanged, {count(summary.addedCount)} added,{" "}
          {count(summary.removedCount)} removed
        </dd>
        <dt>Pairing</dt>
        <dd>
          {count(summary.pairedCount)} pairs ({count(summary.gradedPairCount)} graded on both
          sides), {PAIRING_WORDS[summary.pairing]}
        </dd>
      </dl>
      {summary.evaluators.length > 0 && (
        <table aria-label="Evaluators">
          <thead>
            <tr>
              <th scope="col">Evaluator</th>
              <th scope="col" className="num">Baseline mean</th>
              <th scope="col" className="num">Candidate mean</th>
              <th scope="col" className="num">Delta (95% interval)</th>
              <th scope="col" className="num">Adjusted p</th>
              <th scope="col">Significant</th>
            </tr>
          </thead>
          <tbody>
            {summary.evaluators.map((e) => (
              <tr key={e.name}>
                <td>{e.name}</td>
                <td className="num">{score(e.baselineMean)}</td>
                <td className="num">{score(e.candidateMean)}</td>
                <td className="num">
                  {signed(e.delta)} ({signed(e.low)} to {signed(e.high)})
                </td>
                <td className="num">{e.adjustedPValue.toPrecision(3)}</td>
                <td>{e.significant ? "Yes" : "No"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

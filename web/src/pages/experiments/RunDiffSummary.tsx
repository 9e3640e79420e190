/** A run diff's summary: pass rates, Δ with its interval, significance, counts, evaluators. */
import type { RunDiffPageQuery } from "../../gql/graphql";
import { count, percent, ratePoints } from "../../lib/format";
import { deltaWords, evaluatorName, score, signedScore } from "./diffWords";
import { TableScroll } from "../../components/TableScroll";
import { enumWords } from "../../lib/words";

type Summary = RunDiffPageQuery["runDiff"]["summary"];

const PAIRING_WORDS = {
  DATASET_ITEM_ID: "paired by dataset item id",
  POSITIONAL: "paired by position",
} as const;

export function RunDiffSummary({ summary }: { summary: Summary }) {
  const delta = summary.passRateDelta;
  const worse = delta !== null && delta !== undefined && delta < 0;
  const tone = summary.significant ? (worse ? "chip bad" : "chip good") : "chip";
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
        <dd>{deltaWords(delta, summary.deltaLow, summary.deltaHigh)}</dd>
        <dt>Significant</dt>
        <dd>
          <span className={tone}>
            {summary.significant ? "Significant" : "Not significant"}
          </span>{" "}
          {enumWords(summary.method)}, p = {summary.pValue.toPrecision(3)}, ε ={" "}
          {ratePoints(summary.epsilon)}{" "}
          <span className="muted">({enumWords(summary.significanceReason).toLowerCase()})</span>
        </dd>
        <dt>Cases</dt>
        <dd>
          {count(summary.regressedCount)} regressed, {count(summary.improvedCount)} improved,{" "}
          {count(summary.unchangedCount)} no change, {count(summary.addedCount)} added,{" "}
          {count(summary.removedCount)} removed
        </dd>
        <dt>Pass flips</dt>
        <dd>
          {count(summary.passFlipsToFail)} pass → fail · {count(summary.passFlipsToPass)} fail →
          pass (majority outcome per item)
        </dd>
        <dt>Pairing</dt>
        <dd>
          {count(summary.pairedCount)} pairs ({count(summary.gradedPairCount)} graded on both
          sides), {PAIRING_WORDS[summary.pairing]}
        </dd>
      </dl>
      {summary.evaluators.length > 0 && (
        <TableScroll>
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
                <td>{evaluatorName(e.name)}</td>
                <td className="num">{score(e.baselineMean)}</td>
                <td className="num">{score(e.candidateMean)}</td>
                <td className="num">
                  {signedScore(e.delta)} ({signedScore(e.low)} to {signedScore(e.high)})
                </td>
                <td className="num">{e.adjustedPValue.toPrecision(3)}</td>
                <td>{e.significant ? "Yes" : "No"}</td>
              </tr>
            ))}
          </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

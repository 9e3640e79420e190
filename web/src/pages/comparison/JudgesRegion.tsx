import { Link } from "react-router";
import { useQuery } from "../../lib/query";
import { ErrorNotice } from "../../components/ErrorNotice";
import { count, percent } from "../../lib/format";
import { JudgesQuery } from "./judgeQueries";

/** κ to two decimals with a real minus sign. */
function kappaText(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  return value.toFixed(2).replace("-", "−");
}

function range(low: number | null | undefined, high: number | null | undefined, show: (v: number) => string) {
  if (low === null || low === undefined || high === null || high === undefined) return "";
  return ` (${show(low)} to ${show(high)})`;
}

/** Link "Review trials (N still to label)" to `/comparisons/:id/review`. */
function ReviewTrialsLink({ id, labelled, graded }: { id: string; labelled: number; graded: number }) {
  const left = Math.max(graded - labelled, 0);
  return (
    <Link to={`/comparisons/${id}/review`}>
      Review trials ({left === 0 ? "all labelled" : `${count(left)} still to label`})
    </Link>
  );
}

/**
 * `region` "Judges": each judge check against human labels — labels, raw agreement, Cohen's κ
 * with its 95% interval, sensitivity and specificity with Wilson intervals (docs/labels.md) — and
 * the way to the review queue, with the count still to label. A comparison without a judge
 * check gets `region` "Review" instead: the way to the review queue, and nothing of a judge.
 */
export function JudgesRegion({ id }: { id: string }) {
  const [{ data, error }] = useQuery({
    query: JudgesQuery,
    variables: { id },
    requestPolicy: "cache-and-network",
  });
  if (error) return <ErrorNotice error={error} />;
  const comparison = data?.comparison;
  if (!comparison) return null;
  const { labelled, graded } = comparison.reviewProgress;
  if (comparison.judgeAgreement.length === 0) {
    if (graded === 0) return null;
    return (
      <section aria-label="Review">
        <h2>Review</h2>
        <p>
          {count(labelled)} labelled of {count(graded)} graded trials: label outputs yourself,
          pass or fail, one at a time. <ReviewTrialsLink id={id} labelled={labelled} graded={graded} />
        </p>
      </section>
    );
  }
  return (
    <section aria-label="Judges">
      <h2>Judges</h2>
      <p>
        {count(labelled)} labelled of {count(graded)} graded trials.{" "}
        <ReviewTrialsLink id={id} labelled={labelled} graded={graded} />
      </p>
      <table aria-label="Judge agreement with human labels">
        <thead>
          <tr>
            <th scope="col">Judge check</th>
            <th scope="col" className="num">Labels</th>
            <th scope="col" className="num">Agreement</th>
            <th scope="col" className="num">κ (95% interval)</th>
            <th scope="col" className="num">Sensitivity</th>
            <th scope="col" className="num">Specificity</th>
          </tr>
        </thead>
        <tbody>
          {comparison.judgeAgreement.map((j) => (
            <tr key={j.checkKey}>
              <th scope="row">{j.checkKey}</th>
              <td className="num">{count(j.labels)}</td>
              <td className="num">{percent(j.agreement)}</td>
              <td className="num">
                {kappaText(j.kappa)}
                {range(j.kappaLow, j.kappaHigh, kappaText)}
              </td>
              <td className="num">
                {percent(j.sensitivity)}
                {range(j.sensitivityLow, j.sensitivityHigh, (v) => percent(v))}
              </td>
              <td className="num">
                {percent(j.specificity)}
                {range(j.specificityLow, j.specificityHigh, (v) => percent(v))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        A human pass is the positive class: sensitivity is the share of human passes the judge
        passes, specificity the share of human fails it fails.
      </p>
    </section>
  );
}

import { useCallback, useLayoutEffect, useState } from "react";
import { Link, useParams } from "react-router";
import { useMutation } from "urql";
import { useQuery } from "../../lib/query";
import { ErrorNotice } from "../../components/ErrorNotice";
import type { ReviewQueueQuery as ReviewQueueData } from "../../gql/graphql";
import { count } from "../../lib/format";
import { jsonText } from "../../lib/jsonText";
import { LabelTrialMutation, ReviewQueueQuery } from "../comparison/judgeQueries";
import "./review.css";

type Item = ReviewQueueData["reviewQueue"][number];
type Trial = Item["trial"];

const BATCH = 20;
const MAX_FIRST = 100;

function keyOf(trial: Trial): string {
  return `${trial.cohortIndex}/${trial.datasetItemId}/${trial.trialIndex}`;
}

/** The last trial acted on: labelled (with the judge's grade, now shown) or skipped. */
type Answered =
  | { item: string; passed: boolean; judgePassed: boolean | null | undefined }
  | { item: string; skipped: true };

function grade(passed: boolean | null | undefined): string {
  if (passed === null || passed === undefined) return "no grade";
  return passed ? "Pass" : "Fail";
}

/** What the last key did; the judge's grade only where the comparison has a judge. */
function statusText(answered: Answered, judged: boolean): string {
  if ("skipped" in answered) return `${answered.item}: skipped, left unlabelled.`;
  if (!judged) return `${answered.item}: you said ${grade(answered.passed)}.`;
  return (
    `${answered.item}: you said ${grade(answered.passed)}; ` +
    `the judge said ${grade(answered.judgePassed)}.`
  );
}

/**
 * `/comparisons/:id/review`: the review queue one trial at a time (docs/labels.md). The reviewer
 * sees the case's input, the expected answer and the output, never the judge's grade until
 * they have answered (it is shown for the trial just answered). "Pass", "Fail" and "Skip",
 * or the keys P, F and S; the status line says what the last key did (a blind reviewer cannot
 * tell two cohorts' trials of one case apart by their headings). "N labelled of M" counts every
 * labeller's labels.
 */
export function ReviewPage() {
  const { id = "" } = useParams();
  const [skipped, setSkipped] = useState<readonly string[]>([]);
  const [done, setDone] = useState<ReadonlySet<string>>(new Set());
  const [answered, setAnswered] = useState<Answered | null>(null);
  const first = Math.min(MAX_FIRST, BATCH + skipped.length);
  const [{ data, error }, refetch] = useQuery({
    query: ReviewQueueQuery,
    variables: { id, first },
    requestPolicy: "network-only",
  });
  const [{ fetching: saving, error: saveError }, labelTrial] = useMutation(LabelTrialMutation);
  const items = (data?.reviewQueue ?? []).filter((item) => {
    const key = keyOf(item.trial);
    return !skipped.includes(key) && !done.has(key);
  });
  const current = items[0];

  const answer = useCallback(
    async (passed: boolean) => {
      if (!current || saving) return;
      const { comparisonId, cohortIndex, datasetItemId, trialIndex } = current.trial;
      const result = await labelTrial({
        trial: { comparisonId, cohortIndex, datasetItemId, trialIndex },
        passed,
      });
      if (result.error || !result.data) return;
      setDone((before) => new Set(before).add(keyOf(current.trial)));
      setAnswered({ item: datasetItemId, passed, judgePassed: result.data.labelTrial.judgePassed });
      refetch({ requestPolicy: "network-only" });
    },
    [current, saving, labelTrial, refetch],
  );
  const skip = useCallback(() => {
    if (!current) return;
    setSkipped((before) => [...before, keyOf(current.trial)]);
    setAnswered({ item: current.trial.datasetItemId, skipped: true });
  }, [current]);

  // Bound before paint: a key pressed once the next trial shows acts on that trial, never on
  // the one just answered (a passive effect could still hold the old handlers then).
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
      const target = event.target as HTMLElement | null;
      if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
      const key = event.key.toLowerCase();
      if (key === "p") void answer(true);
      else if (key === "f") void answer(false);
      else if (key === "s") skip();
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [answer, skip]);

  const comparison = data?.comparison;
  const judged = (comparison?.judgeAgreement.length ?? 0) > 0;
  return (
    <>
      <h1>Review trials{comparison?.label ? `: ${comparison.label}` : ""}</h1>
      <p>
        <Link to={`/comparisons/${id}`}>Back to the comparison</Link>
      </p>
      {error && <ErrorNotice error={error} />}
      {saveError && <ErrorNotice error={saveError} />}
      {comparison && (
        <p aria-live="polite" className="review-progress">
          {count(comparison.reviewProgress.labelled)} labelled of{" "}
          {count(comparison.reviewProgress.graded)}
        </p>
      )}
      <p role="status" className="muted">
        {answered && statusText(answered, judged)}
      </p>
      {!data && !error && <p className="muted">Loading…</p>}
      {data && !current && (
        <p>
          {skipped.length > 0
            ? `Nothing more to review now; ${count(skipped.length)} skipped.`
            : "Every graded trial has a label."}
        </p>
      )}
      {current && (
        <section aria-label="Trial to review" className="review-item">
          <h2>
            Case {current.trial.datasetItemId}, trial {current.trial.trialIndex + 1}
          </h2>
          <h3>Input</h3>
          <pre className="text">{jsonText(current.input)}</pre>
          <h3>Expected</h3>
          <pre className="text">
            {current.expected === null || current.expected === undefined
              ? "—"
              : jsonText(current.expected)}
          </pre>
          <h3>Output</h3>
          <pre className="text">
            {current.output === null || current.output === undefined ? "No output" : current.output}
          </pre>
          <div role="group" aria-label="Your label" className="row">
            <button
              type="button"
              className="primary"
              aria-keyshortcuts="P"
              disabled={saving}
              onClick={() => void answer(true)}
            >
              Pass
            </button>
            <button
              type="button"
              aria-keyshortcuts="F"
              disabled={saving}
              onClick={() => void answer(false)}
            >
              Fail
            </button>
            <button type="button" aria-keyshortcuts="S" disabled={saving} onClick={skip}>
              Skip
            </button>
            <span className="muted">Keys: P, F, S</span>
          </div>
        </section>
      )}
    </>
  );
}

import { useState } from "react";
import { ErrorNotice } from "../../components/ErrorNotice";
import { callsWords } from "../../lib/comparisonWords";
import { count, dollars, timeLeft } from "../../lib/format";
import { CohortChips } from "./CohortChips";
import type { CohortName } from "./cohorts";
import { CancelButton } from "./CancelButton";
import { useLiveProgress, type Progress } from "./useLiveProgress";

/** A RUNNING comparison: live progress, Cancel, and "Run in background" to fold the detail. */
export function LiveRun({
  id,
  cohorts,
  initial,
  budgetCapCents,
  onEnded,
}: {
  id: string;
  cohorts: readonly CohortName[];
  initial: Progress;
  budgetCapCents: number | null | undefined;
  onEnded: () => void;
}) {
  const { progress, error } = useLiveProgress(id, initial, onEnded);
  const [background, setBackground] = useState(false);
  const percent = Math.round(progress.percent * 10) / 10;
  return (
    <section aria-label="Run" className="live-run">
      {background ? (
        <p>Running in the background: {callsWords(progress.doneCalls, progress.totalCalls)} so far.</p>
      ) : (
        <>
          <div className="row">
            <progress aria-label="Progress" max={100} value={progress.percent} />
            <span>{percent}%</span>
          </div>
          <p>
            {callsWords(progress.doneCalls, progress.totalCalls)}
            {progress.failedCalls > 0 && <> ({count(progress.failedCalls)} failed or missing)</>}
          </p>
          <CohortChips states={progress.cohorts} cohorts={cohorts} />
          <p>Time left: {timeLeft(progress.etaSeconds)}</p>
          {budgetCapCents !== null && budgetCapCents !== undefined && (
            <div className="row">
              <span aria-hidden="true">Spend</span>
              <meter
                aria-label="Spend"
                min={0}
                max={budgetCapCents}
                value={Math.min(progress.spentCentsSoFar, budgetCapCents)}
              />
              <span>
                {dollars(progress.spentCentsSoFar)} of {dollars(budgetCapCents)}
              </span>
            </div>
          )}
        </>
      )}
      <div className="row">
        <CancelButton id={id} spentCents={progress.spentCentsSoFar} />
        {background ? (
          <button type="button" onClick={() => setBackground(false)}>
            Show progress
          </button>
        ) : (
          <button type="button" onClick={() => setBackground(true)}>
            Run in background
          </button>
        )}
      </div>
      {error && <ErrorNotice error={error} />}
    </section>
  );
}

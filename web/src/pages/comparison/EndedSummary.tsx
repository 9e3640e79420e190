import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useMutation, type CombinedError } from "urql";
import { useQuery } from "../../lib/query";
import { Ago } from "../../components/Ago";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { count, dollars } from "../../lib/format";
import { RoleButton } from "../../components/RoleButton";
import type { ComparisonPageQuery as PageData } from "../../gql/graphql";
import { CohortChips } from "./CohortChips";
import { FinalizeMutation, RerunMutation, RerunPreviewQuery, StartMutation } from "./queries";
import { errorCodeWords, stopWords } from "./stopWords";

type Comparison = PageData["comparison"];

/** A DONE comparison is finalized by a job a moment later: look again this often, this long. */
const FINALIZE_POLL_MS = 1000;
const FINALIZE_POLL_TIMES = 20;

/** An ended comparison: when it ran, Re-run, how it ended in words, and its verdict's state. */
export function EndedSummary({
  comparison,
  onChange,
}: {
  comparison: Comparison;
  onChange: () => void;
}) {
  const p = comparison.progress;
  const words = stopWords({
    status: comparison.status,
    stopReason: comparison.stopReason,
    errorCode: comparison.errorCode,
    doneCalls: p.doneCalls,
    totalCalls: p.totalCalls,
    failedCalls: p.failedCalls,
    budgetCapCents: comparison.budgetCapCents,
    spentCentsSoFar: comparison.spentCentsSoFar,
    cappedConnections: comparison.cappedConnections,
    experimentName: comparison.experiment.name,
    dailyBudgetCents: comparison.experiment.dailyBudgetCents,
  });
  const notFinalized = comparison.status === "DONE" && comparison.verdictState === "NOT_FINALIZED";
  return (
    <section aria-label="Last run">
      <div className="row">
        {comparison.endedAt && (
          <span>
            Last run <Ago iso={comparison.endedAt} />
          </span>
        )}
        <Rerun
          id={comparison.id}
          totalCalls={p.totalCalls}
          spentCents={comparison.spentCentsSoFar}
          budgetCapCents={comparison.budgetCapCents ?? null}
        />
      </div>
      <p className="stop-words">{words}</p>
      <CohortChips states={p.cohorts} cohorts={comparison.cohorts} />
      {notFinalized && (
        <NotFinalized
          id={comparison.id}
          completed={comparison.stopReason === "COMPLETED"}
          errorCode={comparison.verdictErrorCode}
          onChange={onChange}
        />
      )}
    </section>
  );
}

/**
 * Re-run: asks first (`alertdialog`, with what it may cost), then a new comparison from the
 * same input, started in the background, then its page.
 */
function Rerun({
  id,
  totalCalls,
  spentCents,
  budgetCapCents,
}: {
  id: string;
  totalCalls: number;
  spentCents: number;
  budgetCapCents: number | null;
}) {
  const [asking, setAsking] = useState(false);
  const navigate = useNavigate();
  const [rerun, doRerun] = useMutation(RerunMutation);
  const [started, start] = useMutation(StartMutation);
  const [failed, setFailed] = useState<{ id: string; error: CombinedError } | null>(null);
  const click = async () => {
    setAsking(false);
    const made = await doRerun({ id });
    const next = made.data?.rerunComparison;
    if (!next) return;
    if (next.status === "SETUP") {
      const result = await start({ id: next.id });
      if (result.error) {
        setFailed({ id: next.id, error: result.error });
        return;
      }
    }
    navigate(`/comparisons/${next.id}`);
  };
  return (
    <>
      <RoleButton needs="MEMBER" disabled={rerun.fetching || started.fetching} onClick={() => setAsking(true)}>
        Re-run
      </RoleButton>
      {asking && (
        <RerunConfirm
          id={id}
          totalCalls={totalCalls}
          spentCents={spentCents}
          budgetCapCents={budgetCapCents}
          busy={rerun.fetching || started.fetching}
          onConfirm={() => void click()}
          onCancel={() => setAsking(false)}
        />
      )}
      {rerun.error && <ErrorNotice error={rerun.error} />}
      {failed && (
        <>
          <ErrorNotice error={failed.error} />
          <Link to={`/comparisons/${failed.id}`}>Open the new comparison</Link>
        </>
      )}
    </>
  );
}

function NotFinalized({
  id,
  completed,
  errorCode,
  onChange,
}: {
  id: string;
  completed: boolean;
  errorCode: string | null | undefined;
  onChange: () => void;
}) {
  const [finalized, finalize] = useMutation(FinalizeMutation);
  const [looks, setLooks] = useState(0);
  // The finalization job usually lands within a second or two: look again for a while (a
  // failure's code stops it; "Make the verdict" clears the code and it looks again).
  useEffect(() => {
    if (errorCode || looks >= FINALIZE_POLL_TIMES) return;
    const timer = setTimeout(() => {
      setLooks((n) => n + 1);
      onChange();
    }, FINALIZE_POLL_MS);
    return () => clearTimeout(timer);
  }, [errorCode, looks, onChange]);
  const click = async () => {
    const result = await finalize({ id });
    if (!result.error) {
      setLooks(0);
      onChange();
    }
  };
  return (
    <div className="not-finalized">
      <p>
        Not finalized.{" "}
        {completed ? "All calls are done." : "The run stopped early; the calls it made are done."}{" "}
        The runs and the verdict are not made yet.
      </p>
      {errorCode && <p className="error">{errorCodeWords(errorCode)}</p>}
      <RoleButton needs="ADMIN" disabled={finalized.fetching} onClick={() => void click()}>
        Make the verdict
      </RoleButton>
      {finalized.error && <ErrorNotice error={finalized.error} />}
    </div>
  );
}

/** Re-run's `alertdialog`: its calls and cost bound (`rerunPreview`), its cap, this run's cost. */
function RerunConfirm({
  id,
  totalCalls,
  spentCents,
  budgetCapCents,
  busy,
  onConfirm,
  onCancel,
}: {
  id: string;
  totalCalls: number;
  spentCents: number;
  budgetCapCents: number | null;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const [{ data, error }] = useQuery({ query: RerunPreviewQuery, variables: { id } });
  const preview = data?.rerunPreview;
  return (
    <ConfirmDialog
      title="Re-run this comparison?"
      confirmLabel="Re-run"
      busy={busy || (!preview && !error)}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>A new comparison of the same cases and cohorts starts at once.</p>
      <p>
        {preview
          ? preview.summary
          : `Up to ${count(totalCalls)} model calls, judge calls included.`}
      </p>
      <p>
        {budgetCapCents !== null
          ? `It stops once it has spent ${dollars(budgetCapCents)}, its budget cap.`
          : "It has no budget cap."}{" "}
        This run cost {dollars(spentCents)}.
      </p>
      {preview && preview.blockers.length > 0 && (
        <ul className="blockers">
          {preview.blockers.map((b) => (
            <li key={b.code}>{b.message}</li>
          ))}
        </ul>
      )}
      {error && <ErrorNotice error={error} />}
    </ConfirmDialog>
  );
}

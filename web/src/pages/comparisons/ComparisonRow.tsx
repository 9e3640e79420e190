import { useEffect } from "react";
import { Link } from "react-router";
import { useSubscription } from "urql";
import { useQuery } from "../../lib/query";
import { Ago } from "../../components/Ago";
import { StackedCell } from "../../components/StackedCell";
import { VerdictChips } from "../../components/VerdictChips";
import type {
  ComparisonRowFieldsFragment,
  RowProgressSubscription as ProgressData,
  RowProgressSubscriptionVariables as ProgressVariables,
} from "../../gql/graphql";
import { dollars, percent } from "../../lib/format";
import { ComparisonRowQuery, RowProgressSubscription } from "./listDocuments";
import { callsWords, decisionWord, statusWord } from "../../lib/comparisonWords";
import { signedOffWords } from "../comparison/signOffWords";
import type { SignOffDecision } from "../../gql/graphql";

type Row = ComparisonRowFieldsFragment;

/** The decision's chip in the verdict colours (one visual language, docs/portal.md). */
const DECISION_TONE: Record<NonNullable<Row["decision"]>["outcome"], string> = {
  SHIP: "chip good",
  DONT_SHIP: "chip bad",
  MORE_DATA: "chip",
  NO_DECISION: "chip",
};
interface Snapshot {
  seq: number;
  status: Row["status"];
  doneCalls: number;
  totalCalls: number;
  spentCentsSoFar: number;
}

/** How often, and how many times, an ended row asks again for the verdict being made. */
const VERDICT_RETRY_MS = 1500;
const VERDICT_RETRIES = 20;

/**
 * One comparison. A RUNNING row follows `comparisonProgress` (from the seq the list read) and,
 * once the run ends, reads itself again — and again while its verdict is still being made.
 */
export function ComparisonRow({
  node,
  signOff,
}: {
  node: Row;
  /** The latest sign-off, named beside the decision it may go against. */
  signOff?: { decision: SignOffDecision; signer: string };
}) {
  const live = node.status === "RUNNING";
  const [progress] = useSubscription<ProgressData, Snapshot, ProgressVariables>(
    {
      query: RowProgressSubscription,
      variables: { id: node.id, afterSeq: node.progress.seq },
      pause: !live,
    },
    (_previous, data) => data.comparisonProgress,
  );
  const snapshot = progress.data;
  const ended = live && !!snapshot && snapshot.status !== "RUNNING" && snapshot.status !== "SETUP";
  const [fresh, refresh] = useQuery({
    query: ComparisonRowQuery,
    variables: { id: node.id },
    pause: !ended,
    requestPolicy: "network-only",
  });
  const row = fresh.data?.comparison ?? node;
  useVerdictRetry(ended && fresh.data ? row : null, refresh);

  // The freshest of: the row read again after its end, the live snapshot, the list's row.
  const status: Snapshot = fresh.data
    ? { ...row.progress, status: row.status, spentCentsSoFar: row.spentCentsSoFar }
    : (snapshot ?? { ...node.progress, status: node.status, spentCentsSoFar: node.spentCentsSoFar });
  const candidate = row.cohorts.find((c) => c.isCandidate);
  const baselines = row.cohorts.filter((c) => !c.isCandidate);
  return (
    <tr>
      <StackedCell label="Label" className="label">
        <Link to={`/comparisons/${row.id}`}>{row.label ?? row.id}</Link>
      </StackedCell>
      <StackedCell label="Candidate">{candidate?.label ?? "—"}</StackedCell>
      <StackedCell label="Baselines">{baselines.map((c) => c.label).join(", ") || "—"}</StackedCell>
      <StackedCell label="Status" className="status">
        {statusWord(status.status, status.status === row.status ? row.stopReason : null)}
        {status.status === "RUNNING" && (
          <span className="muted"> · {callsWords(status.doneCalls, status.totalCalls)}</span>
        )}
      </StackedCell>
      <StackedCell label="Decision" className="decision">
        {row.decision ? (
          <span className={DECISION_TONE[row.decision.outcome]}>
            {decisionWord(row.decision.outcome)}
          </span>
        ) : null}
        {signOff && (
          <span className="signed-off">
            {" "}
            {signedOffWords(signOff.decision, row.decision?.outcome, signOff.signer)}
          </span>
        )}
      </StackedCell>
      <StackedCell label="Verdict" className="verdict">
        <Verdict row={row} />
      </StackedCell>
      <StackedCell label="Pass rates">
        {row.cohorts.some((c) => c.passRate !== null && c.passRate !== undefined) ? (
          <ul className="plain rates">
            {row.cohorts.map((c) => (
              <li key={c.cohortIndex}>
                {c.label}: {percent(c.passRate)}
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">—</span>
        )}
      </StackedCell>
      <StackedCell label="Spend" className="num">
        {dollars(status.spentCentsSoFar)}
      </StackedCell>
      <StackedCell label="Created">
        <Ago iso={row.createdAt} />
      </StackedCell>
    </tr>
  );
}

function Verdict({ row }: { row: Row }) {
  const verdicts = row.scorecard?.verdicts ?? [];
  if (verdicts.length > 0) return <VerdictChips verdicts={verdicts} />;
  if (row.status === "DONE" && row.verdictState === "NOT_FINALIZED")
    return <span className="muted">Not finalized</span>;
  return <span className="muted">—</span>;
}

/** A row that ended DONE without its verdict yet asks again a few times while it is made. */
function useVerdictRetry(row: Row | null, refresh: (opts: { requestPolicy: "network-only" }) => void) {
  const waiting = row?.status === "DONE" && row.verdictState === "NOT_FINALIZED";
  useEffect(() => {
    if (!waiting) return;
    let tries = 0;
    const timer = setInterval(() => {
      tries += 1;
      if (tries > VERDICT_RETRIES) clearInterval(timer);
      else refresh({ requestPolicy: "network-only" });
    }, VERDICT_RETRY_MS);
    return () => clearInterval(timer);
  }, [waiting, refresh]);
}

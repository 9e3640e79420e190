import { useEffect, useId, useRef, useState, type RefObject } from "react";
import { useClient, type CombinedError } from "urql";
import { useQuery } from "../../lib/query";
import { ErrorNotice } from "../../components/ErrorNotice";
import type { CaseFilter, ComparisonCasesQuery } from "../../gql/graphql";
import { count } from "../../lib/format";
import { MAX_ROWS } from "../../lib/pageWindow";
import { CaseDebug } from "./CaseDebug";
import { labelOf, nameOf, type CohortName } from "./cohorts";
import { DiffText } from "./DiffText";
import { errorCodeWords } from "./stopWords";
import { CasesQuery } from "./queries";
import { StackedCell } from "../../components/StackedCell";
import { TableScroll } from "../../components/TableScroll";

type Cases = ComparisonCasesQuery["comparison"]["cases"];
type Edge = Cases["edges"][number];
type PageInfo = Cases["pageInfo"];
/** A case row and the cursor of the row before it (its debug view is the page after that). */
type CaseRow = Edge["node"] & { before: string | null };

const PAGE = 50;

/**
 * `table` "Cases" of one tab and baseline, 50 at a time ("Load more"): a column per cohort with
 * each trial's output, pass or fail marked and the words that differ from the candidate's
 * output highlighted; keys J and K move between rows; "Debug" opens the case dialog, which
 * steps through the rows with "Previous case" and "Next case".
 */
export function CaseList({
  id,
  filter,
  baseline,
  cohorts,
}: {
  id: string;
  filter: CaseFilter;
  baseline: number;
  cohorts: readonly CohortName[];
}) {
  const client = useClient();
  const variables = { id, filter, baseline, first: PAGE };
  const [firstPage] = useQuery({ query: CasesQuery, variables: { ...variables, after: null } });
  /** The pages loaded after the first: their last rows, how many they held, where they end. */
  const [later, setLater] = useState<{ rows: CaseRow[]; loaded: number; info: PageInfo } | null>(
    null,
  );
  const [laterError, setLaterError] = useState<CombinedError | null>(null);
  const [loading, setLoading] = useState(false);
  const [debugged, setDebugged] = useState<CaseRow | null>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  useRowKeys(tableRef);

  const first = firstPage.data?.comparison.cases;
  const firstRows = first ? rowsOf(first.edges, null) : [];
  const rows = [...firstRows, ...(later?.rows ?? [])].slice(-MAX_ROWS);
  const next = later?.info ?? first?.pageInfo;
  const total = first?.totalCount ?? null;
  const dropped = firstRows.length + (later?.loaded ?? 0) - rows.length;
  const error = firstPage.error ?? laterError;
  const keysId = useId();
  const shownCohorts = [...cohorts].sort((a, b) => a.cohortIndex - b.cohortIndex);
  const debuggedAt = debugged ? rows.findIndex((r) => r.ordinal === debugged.ordinal) : -1;

  const loadMore = async () => {
    if (!next?.endCursor) return;
    setLoading(true);
    const result = await client
      .query(CasesQuery, { ...variables, after: next.endCursor }, { requestPolicy: "network-only" })
      .toPromise();
    setLoading(false);
    setLaterError(result.error ?? null);
    const page = result.data?.comparison.cases;
    if (!page) return;
    const fresh = rowsOf(page.edges, next.endCursor);
    // Only the last MAX_ROWS rows stay: past it, the earliest make way.
    setLater((shown) => ({
      rows: [...(shown?.rows ?? []), ...fresh].slice(-MAX_ROWS),
      loaded: (shown?.loaded ?? 0) + fresh.length,
      info: page.pageInfo,
    }));
  };

  return (
    <div className="cases">
      {error && <ErrorNotice error={error} />}
      {total === 0 && <p>No cases here.</p>}
      {total !== null && total > 0 && (
        <p className="muted">
          Showing {rows.length === total ? "all" : `${count(dropped + 1)}–${count(dropped + rows.length)} of`}{" "}
          {count(total)} cases{dropped > 0 ? " (the earlier ones made way: at most 100 at once)" : ""}.
        </p>
      )}
      {rows.length > 0 && (
        <p id={keysId} className="muted">
          Keys J and K move between rows; Debug shows a case whole.
        </p>
      )}
      {rows.length > 0 && (
        <TableScroll>
          <table
            aria-label="Cases"
            aria-describedby={keysId}
            className="case-table stacked"
            ref={tableRef}
          >
          <thead>
            <tr>
              <th scope="col">Case</th>
              {shownCohorts.map((c) => (
                <th scope="col" key={c.cohortIndex}>
                  {nameOf(cohorts, c.cohortIndex)}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">Debug</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.ordinal}>
                <th scope="row">
                  {row.datasetItemId}
                  <div className="muted">
                    <Breakdown row={row} cohorts={cohorts} />
                  </div>
                </th>
                {shownCohorts.map((c) => (
                  <StackedCell key={c.cohortIndex} label={nameOf(cohorts, c.cohortIndex)}>
                    <Outputs row={row} cohortIndex={c.cohortIndex} />
                  </StackedCell>
                ))}
                <td>
                  <button type="button" onClick={() => setDebugged(row)}>
                    Debug
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
          </table>
        </TableScroll>
      )}
      {next?.hasNextPage && (
        <button type="button" disabled={loading} onClick={() => void loadMore()}>
          Load more
        </button>
      )}
      {debugged && (
        <CaseDebug
          id={id}
          filter={filter}
          baseline={baseline}
          after={debugged.before}
          datasetItemId={debugged.datasetItemId}
          cohorts={cohorts}
          onClose={() => setDebugged(null)}
          onPrevious={debuggedAt > 0 ? () => setDebugged(rows[debuggedAt - 1] ?? null) : null}
          onNext={
            debuggedAt >= 0 && debuggedAt < rows.length - 1
              ? () => setDebugged(rows[debuggedAt + 1] ?? null)
              : null
          }
        />
      )}
    </div>
  );
}

function rowsOf(edges: readonly Edge[], after: string | null): CaseRow[] {
  return edges.map((edge, i) => ({ ...edge.node, before: i === 0 ? after : (edges[i - 1]?.cursor ?? null) }));
}

/** "v2 1/3 · v1 3/3": each cohort's passed trials of those completed; a divergent one tinted. */
function Breakdown({ row, cohorts }: { row: CaseRow; cohorts: readonly CohortName[] }) {
  const candidate = row.cohorts.find((c) => c.cohortIndex === 0);
  return (
    <span className="breakdown">
      {row.cohorts.map((c, i) => {
        const completed = c.trials.filter((t) => t.passed !== null && t.passed !== undefined);
        const passed = completed.filter((t) => t.passed).length;
        const diverges = c.cohortIndex !== 0 && candidate && c.passed !== candidate.passed;
        return (
          <span key={c.cohortIndex}>
            {i > 0 && " · "}
            <span className={diverges ? "tinted" : undefined}>
              {labelOf(cohorts, c.cohortIndex)} {passed}/{completed.length}
              {completed.length < c.trials.length &&
                ` (${c.trials.length - completed.length} failed or missing)`}
            </span>
          </span>
        );
      })}
    </span>
  );
}

/** Each trial's output of one cohort: pass or fail in words, the words that differ from the
 * candidate's output (same trial) highlighted; untrusted text, rendered as text. */
function Outputs({ row, cohortIndex }: { row: CaseRow; cohortIndex: number }) {
  const cohort = row.cohorts.find((c) => c.cohortIndex === cohortIndex);
  const candidate = row.cohorts.find((c) => c.cohortIndex === 0);
  if (!cohort) return <span className="muted">Not run</span>;
  return (
    <ol className="outputs">
      {cohort.trials.map((t) => {
        const reference =
          cohortIndex === 0
            ? null
            : (candidate?.trials.find((ct) => ct.trialIndex === t.trialIndex)?.output ?? "");
        const outcome =
          t.passed === null || t.passed === undefined ? "No outcome" : t.passed ? "Passed" : "Failed";
        return (
          <li key={t.trialIndex} className={t.passed ? "pass" : t.passed === false ? "fail" : "none"}>
            <span className="outcome">
              {cohort.trials.length > 1 ? `Trial ${t.trialIndex + 1}: ` : ""}
              {outcome}
            </span>{" "}
            {t.errorCode ? (
              <span className="muted">{errorCodeWords(t.errorCode)}</span>
            ) : t.output === null || t.output === undefined ? (
              <span className="muted">No output</span>
            ) : (
              <span className="output">
                <DiffText text={t.output} reference={reference} />
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** J and K move the focus to the next or previous row's "Debug" button, unless typing. */
function useRowKeys(table: RefObject<HTMLTableElement | null>) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const key = event.key.toLowerCase();
      if (key !== "j" && key !== "k") return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable], dialog")) return;
      const buttons = [...(table.current?.querySelectorAll<HTMLButtonElement>("tbody button") ?? [])];
      if (!buttons.length) return;
      const at = buttons.findIndex((b) => b.closest("tr")?.contains(document.activeElement));
      const next = at < 0 ? 0 : Math.min(buttons.length - 1, Math.max(0, at + (key === "j" ? 1 : -1)));
      event.preventDefault();
      buttons[next]?.focus();
      buttons[next]?.closest("tr")?.scrollIntoView({ block: "nearest" });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [table]);
}

import { useState } from "react";
import { useClient, useQuery, type CombinedError } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import type { CaseFilter, ComparisonCasesQuery } from "../../gql/graphql";
import { count } from "../../lib/format";
import { MAX_ROWS } from "../../lib/pageWindow";
import { CaseDebug } from "./CaseDebug";
import { labelOf, type CohortName } from "./cohorts";
import { CasesQuery } from "./queries";
import { TableScroll } from "../../components/TableScroll";

type Cases = ComparisonCasesQuery["comparison"]["cases"];
type Edge = Cases["edges"][number];
type PageInfo = Cases["pageInfo"];
/** A case row and the cursor of the row before it (its debug view is the page after that). */
type CaseRow = Edge["node"] & { before: string | null };

const PAGE = 50;

/** The cases of one tab and baseline, 50 at a time ("Load more"), each with "Debug". */
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

  const first = firstPage.data?.comparison.cases;
  const firstRows = first ? rowsOf(first.edges, null) : [];
  const rows = [...firstRows, ...(later?.rows ?? [])].slice(-MAX_ROWS);
  const next = later?.info ?? first?.pageInfo;
  const total = first?.totalCount ?? null;
  const dropped = firstRows.length + (later?.loaded ?? 0) - rows.length;
  const error = firstPage.error ?? laterError;

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
        <TableScroll>
<table aria-label="Cases">
          <thead>
            <tr>
              <th scope="col">Case</th>
              <th scope="col">Pass per cohort</th>
              <th scope="col">
                <span className="visually-hidden">Debug</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.ordinal}>
                <th scope="row">{row.datasetItemId}</th>
                <td>
                  <Breakdown row={row} cohorts={cohorts} />
                </td>
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

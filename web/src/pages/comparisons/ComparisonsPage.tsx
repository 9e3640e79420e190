import { useNavigate, useSearchParams } from "react-router";
import { RoleButton } from "../../components/RoleButton";
import type { ComparisonStatus } from "../../gql/graphql";
import { usePageWindow } from "../../lib/pageWindow";
import { ComparisonsTablePage, PAGE_SIZE } from "./ComparisonsTablePage";
import { STATUSES, statusWord } from "../../lib/comparisonWords";
import "./comparisons.css";
import { TableScroll } from "../../components/TableScroll";

function asStatus(value: string | null): ComparisonStatus | null {
  return STATUSES.find((s) => s === value) ?? null;
}

/** `/comparisons`: the workspace's comparisons, newest first, filtered by status, paged. */
export function ComparisonsPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const status = asStatus(params.get("status"));
  return (
    <>
      <div className="row page-head">
        <h1>Comparisons</h1>
        <RoleButton needs="MEMBER" className="primary" onClick={() => navigate("/comparisons/new")}>
          New comparison
        </RoleButton>
      </div>
      <div className="row">
        <label className="field">
          Status
          <select
            value={status ?? ""}
            onChange={(e) => setParams(e.target.value ? { status: e.target.value } : {})}
          >
            <option value="">All</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusWord(s)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {/* Keyed by the filter: a new filter starts from the newest page. */}
      <ComparisonsList key={status ?? "ALL"} status={status} />
    </>
  );
}

function ComparisonsList({ status }: { status: ComparisonStatus | null }) {
  const pages = usePageWindow(PAGE_SIZE, { overflow: "turn" });
  const { hiddenRows, shownRows, total } = pages;
  return (
    <>
      <TableScroll>
        <table aria-label="Comparisons" className="comparisons stacked">
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Candidate</th>
            <th scope="col">Baselines</th>
            <th scope="col">Status</th>
            <th scope="col">Decision</th>
            <th scope="col">Verdict</th>
            <th scope="col">Pass rates</th>
            <th scope="col" className="num">
              Spend
            </th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {pages.shown.map((after) => (
            <ComparisonsTablePage key={after ?? ""} after={after} status={status} pages={pages} />
          ))}
        </tbody>
        </table>
      </TableScroll>
      {total !== undefined && shownRows > 0 && (
        <p className="muted">
          Showing {hiddenRows + 1}–{hiddenRows + shownRows} of {total}.
          {pages.full &&
            pages.canLoadMore &&
            ` The list shows ${shownRows} at a time: Load more shows the next ${PAGE_SIZE} in their place.`}
        </p>
      )}
      <div className="row">
        {pages.canLoadMore && (
          <button type="button" onClick={pages.loadMore}>
            Load more
          </button>
        )}
        {hiddenRows > 0 && (
          <button type="button" onClick={pages.backToStart}>
            Back to the newest
          </button>
        )}
      </div>
    </>
  );
}

import { useCallback, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { RoleButton } from "../../components/RoleButton";
import type { ComparisonStatus } from "../../gql/graphql";
import { ComparisonsTablePage, type PageState } from "./ComparisonsTablePage";
import { FIRST_WINDOW, isFull, loadMore, PAGE_SIZE, type ListWindow } from "./listWindow";
import { STATUSES, statusWord } from "./words";
import "./comparisons.css";

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
  const [view, setView] = useState<ListWindow>(FIRST_WINDOW);
  const [pages, setPages] = useState<Record<string, PageState>>({});
  const onPage = useCallback(
    (key: string, state: PageState) => setPages((known) => ({ ...known, [key]: state })),
    [],
  );

  const keys = view.afters.map((after) => `${view.offset}:${after ?? ""}`);
  const states = keys.map((key) => pages[key]);
  const shown = states.reduce((sum, s) => sum + (s?.rows ?? 0), 0);
  const last = states[states.length - 1];
  const total = states[0]?.total;
  const next = last?.hasNextPage && last.endCursor ? last.endCursor : null;

  return (
    <>
      <table aria-label="Comparisons" className="comparisons">
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Candidate</th>
            <th scope="col">Baselines</th>
            <th scope="col">Status</th>
            <th scope="col">Verdict</th>
            <th scope="col">Pass rates</th>
            <th scope="col" className="num">
              Spend
            </th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {view.afters.map((after, index) => (
            <ComparisonsTablePage
              key={keys[index]}
              pageKey={keys[index] ?? ""}
              after={after}
              status={status}
              first={index === 0 && view.offset === 0}
              onPage={onPage}
            />
          ))}
        </tbody>
      </table>
      {total !== undefined && shown > 0 && (
        <p className="muted">
          Showing {view.offset + 1}–{view.offset + shown} of {total}.
          {isFull(view) &&
            next &&
            ` The list shows ${shown} at a time: Load more shows the next ${PAGE_SIZE} in their place.`}
        </p>
      )}
      <div className="row">
        {next && (
          <button type="button" onClick={() => setView((v) => loadMore(v, next, shown))}>
            Load more
          </button>
        )}
        {view.offset > 0 && (
          <button type="button" onClick={() => setView(FIRST_WINDOW)}>
            Back to the newest
          </button>
        )}
      </div>
    </>
  );
}

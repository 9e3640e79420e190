/**
 * The `table` "Follow-ups": every (case, baseline) among that baseline's worse cases, 50 at
 * a time, a checkbox per open row, and "Resolve selected" (MEMBER) → `dialog` "Resolve
 * follow-ups". The rows are shared by every version of the report.
 */
import { useEffect, useState } from "react";
import { useQuery } from "urql";
import { LoadMore } from "../../components/LoadMore";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import { graphql } from "../../gql";
import { usePageWindow, useReportEnd, type PageWindow } from "../../lib/pageWindow";
import { FollowUpsResolveDialog } from "./FollowUpsResolveDialog";

const PAGE = 50;

const FollowUpsPage = graphql(`
  query FollowUpsPage($id: ID!, $first: Int!, $after: String) {
    report(id: $id) {
      id
      followUps(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            id
            datasetItemId
            baselineCohortIndex
            state
            note
          }
        }
      }
    }
  }
`);

export function FollowUpsTable({
  reportId,
  baselines,
}: {
  reportId: string;
  baselines: (index: number) => string;
}) {
  const pages = usePageWindow(PAGE);
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [resolving, setResolving] = useState(false);
  // Bumped after a resolve: every shown page asks the server again (no client cache).
  const [revision, setRevision] = useState(0);
  const toggle = (id: string, name: string, on: boolean) => {
    const next = new Map(selected);
    if (on) next.set(id, name);
    else next.delete(id);
    setSelected(next);
  };
  return (
    <div className="follow-ups">
      <h3>Follow-ups</h3>
      <div className="row">
        <RoleButton
          needs="MEMBER"
          onClick={() => setResolving(true)}
          disabled={selected.size === 0}
        >
          Resolve selected
        </RoleButton>
        <span className="muted" aria-live="polite">
          {selected.size} selected
        </span>
      </div>
      <table aria-label="Follow-ups">
        <thead>
          <tr>
            <th scope="col">Select</th>
            <th scope="col">Case</th>
            <th scope="col">Baseline</th>
            <th scope="col">State</th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {pages.shown.map((after) => (
            <FollowUpRows
              key={after ?? ""}
              reportId={reportId}
              after={after}
              pages={pages}
              baselines={baselines}
              selected={selected}
              toggle={toggle}
              revision={revision}
            />
          ))}
        </tbody>
      </table>
      <LoadMore window={pages} what="follow-ups" />
      {resolving && (
        <FollowUpsResolveDialog
          items={[...selected.entries()].map(([id, name]) => ({ id, name }))}
          onClose={() => setResolving(false)}
          onResolved={() => {
            setResolving(false);
            setSelected(new Map());
            setRevision((r) => r + 1);
          }}
        />
      )}
    </div>
  );
}

function FollowUpRows({
  reportId,
  after,
  pages,
  baselines,
  selected,
  toggle,
  revision,
}: {
  reportId: string;
  after: string | null;
  pages: PageWindow;
  baselines: (index: number) => string;
  selected: Map<string, string>;
  toggle: (id: string, name: string, on: boolean) => void;
  revision: number;
}) {
  const [{ data, error }, reexecute] = useQuery({
    query: FollowUpsPage,
    variables: { id: reportId, first: PAGE, after },
  });
  useEffect(() => {
    if (revision > 0) reexecute({ requestPolicy: "network-only" });
  }, [revision, reexecute]);
  const page = data?.report.followUps;
  useReportEnd(pages, after, page?.pageInfo);
  if (error && !data) {
    return (
      <tr>
        <td colSpan={5}>
          <ErrorNotice error={error} />
        </td>
      </tr>
    );
  }
  if (page && page.totalCount === 0) {
    return (
      <tr>
        <td colSpan={5} className="muted">
          No follow-ups: no baseline has a worse case.
        </td>
      </tr>
    );
  }
  return (
    <>
      {page?.edges.map(({ node }) => {
        const baseline = baselines(node.baselineCohortIndex);
        const name = `${node.datasetItemId} vs ${baseline}`;
        return (
          <tr key={node.id}>
            <td>
              {node.state === "OPEN" && (
                <input
                  type="checkbox"
                  aria-label={`Select ${name}`}
                  checked={selected.has(node.id)}
                  onChange={(e) => toggle(node.id, name, e.target.checked)}
                />
              )}
            </td>
            <td>{node.datasetItemId}</td>
            <td>{baseline}</td>
            <td>
              <span className={node.state === "OPEN" ? "chip bad" : "chip good"}>
                {node.state}
              </span>
            </td>
            <td className="note">{node.note ?? ""}</td>
          </tr>
        );
      })}
    </>
  );
}

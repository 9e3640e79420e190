/**
 * The `table` "Follow-ups": every (case, baseline) among that baseline's worse cases, 50 at
 * a time in case order, a checkbox per open row, "Select all" (every open one) and "Resolve
 * selected" (MEMBER) → `dialog` "Resolve follow-ups". The rows are shared by every version of
 * the report.
 */
import { useState } from "react";
import { useClient, type CombinedError, type OperationResult } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import { PagedTable } from "../../components/PagedTable";
import { RoleButton } from "../../components/RoleButton";
import { graphql } from "../../gql";
import type { OpenFollowUpsQuery } from "../../gql/graphql";
import { FollowUpsResolveDialog } from "./FollowUpsResolveDialog";
import { enumWords } from "../../lib/words";

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

const OpenFollowUps = graphql(`
  query OpenFollowUps($id: ID!, $first: Int!, $after: String) {
    report(id: $id) {
      id
      followUps(state: OPEN, first: $first, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            id
            datasetItemId
            baselineCohortIndex
          }
        }
      }
    }
  }
`);

/** The most "Select all" takes at once: what one "Resolve selected" may resolve. */
const MOST = 1000;

export function FollowUpsTable({
  reportId,
  baselines,
}: {
  reportId: string;
  baselines: (index: number) => string;
}) {
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [resolving, setResolving] = useState(false);
  // Bumped after a resolve: every shown page asks the server again (no client cache).
  const [revision, setRevision] = useState(0);
  const client = useClient();
  const [selecting, setSelecting] = useState(false);
  const [selectError, setSelectError] = useState<CombinedError | null>(null);
  /** Every open follow-up (in the list's order, up to MOST), read page by page. */
  const selectAll = async () => {
    setSelecting(true);
    setSelectError(null);
    const all = new Map<string, string>();
    let after: string | null = null;
    for (;;) {
      const result: OperationResult<OpenFollowUpsQuery> = await client
        .query(OpenFollowUps, { id: reportId, first: PAGE, after }, { requestPolicy: "network-only" })
        .toPromise();
      const page: OpenFollowUpsQuery["report"]["followUps"] | undefined = result.data?.report.followUps;
      if (result.error || !page) {
        setSelectError(result.error ?? null);
        break;
      }
      for (const { node } of page.edges) {
        if (all.size < MOST) all.set(node.id, `${node.datasetItemId} vs ${baselines(node.baselineCohortIndex)}`);
      }
      if (!page.pageInfo.hasNextPage || all.size >= MOST) break;
      after = page.pageInfo.endCursor;
    }
    setSelecting(false);
    setSelected(all);
  };
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
        <RoleButton needs="MEMBER" disabled={selecting} onClick={() => void selectAll()}>
          Select all
        </RoleButton>
        {selected.size > 0 && (
          <button type="button" onClick={() => setSelected(new Map())}>
            Clear selection
          </button>
        )}
        <span className="muted" aria-live="polite">
          {selected.size} selected
        </span>
      </div>
      {selectError && <ErrorNotice error={selectError} />}
      <PagedTable
        label="Follow-ups"
        what="follow-ups"
        head={
          <>
            <th scope="col">Select</th>
            <th scope="col">Case</th>
            <th scope="col">Baseline</th>
            <th scope="col">State</th>
            <th scope="col">Note</th>
          </>
        }
        query={FollowUpsPage}
        variables={{ id: reportId }}
        pageSize={PAGE}
        select={(data) => data.report.followUps}
        revision={revision}
        columns={5}
        empty="No follow-ups: no baseline has a worse case."
      >
        {({ node }) => {
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
                  {enumWords(node.state)}
                </span>
              </td>
              <td className="note">{node.note ?? ""}</td>
            </tr>
          );
        }}
      </PagedTable>
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

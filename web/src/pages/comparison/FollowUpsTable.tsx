/**
 * The `table` "Follow-ups": every (case, baseline) among that baseline's worse cases, 50 at
 * a time, a checkbox per open row, and "Resolve selected" (MEMBER) → `dialog` "Resolve
 * follow-ups". The rows are shared by every version of the report.
 */
import { useState } from "react";
import { PagedTable } from "../../components/PagedTable";
import { RoleButton } from "../../components/RoleButton";
import { graphql } from "../../gql";
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

/**
 * The `table` "Audit log": a row per event with its time, actor (and role), action and target
 * in words; its details on demand ("Details": each as label and value, untrusted text).
 */
import { Ago } from "../../components/Ago";
import { PagedTable } from "../../components/PagedTable";
import { StackedCell } from "../../components/StackedCell";
import { graphql } from "../../gql";
import type { AuditPageQuery, Role } from "../../gql/graphql";
import { roleWord } from "../../lib/roles";
import { actionWords, detailRows, targetWords } from "./auditWords";

const PAGE = 50;

export interface AuditFilters {
  action?: string;
  actorId?: string;
  targetId?: string;
}

const AuditPageQueryDocument = graphql(`
  query AuditPage(
    $first: Int!
    $after: String
    $action: String
    $actorId: ID
    $targetId: ID
  ) {
    auditEvents(
      first: $first
      after: $after
      action: $action
      actorId: $actorId
      targetId: $targetId
    ) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          action
          actorId
          actorRole
          targetType
          targetId
          details
          createdAt
        }
      }
    }
  }
`);

interface Props {
  filters: AuditFilters;
  names: Map<string, string>;
}

type Event = NonNullable<AuditPageQuery["auditEvents"]>["edges"][number]["node"];

export function AuditEvents({ filters, names }: Props) {
  return (
    <PagedTable
      label="Audit log"
      what="events"
      className="stacked audit"
      head={
        <>
          <th scope="col">Time</th>
          <th scope="col">Actor</th>
          <th scope="col">Action</th>
          <th scope="col">Target</th>
          <th scope="col">Details</th>
        </>
      }
      query={AuditPageQueryDocument}
      variables={filters}
      pageSize={PAGE}
      select={(data) => data.auditEvents}
      columns={5}
      empty="No events match."
    >
      {({ node }) => <AuditRow key={node.id} node={node} names={names} />}
    </PagedTable>
  );
}

function AuditRow({ node, names }: { node: Event; names: Map<string, string> }) {
  const details = detailRows(node.details);
  return (
    <tr>
      <StackedCell label="Time">
        <Ago iso={node.createdAt} />
      </StackedCell>
      <StackedCell label="Actor">
        {node.actorId ? (names.get(node.actorId) ?? node.actorId) : "Command line"}
        {node.actorRole && <span className="muted"> ({roleWord(node.actorRole as Role)})</span>}
      </StackedCell>
      <StackedCell label="Action" title={node.action}>
        {actionWords(node.action)}
      </StackedCell>
      <StackedCell label="Target">
        {targetWords(node.targetType, node.details)}
        {node.targetId && <div className="muted url">{node.targetId}</div>}
      </StackedCell>
      <StackedCell label="Details">
        {details.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          <details>
            <summary>Details</summary>
            <dl className="details">
              {details.map(([label, value]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          </details>
        )}
      </StackedCell>
    </tr>
  );
}

/** The `table` "Audit log": actor, role, action, target, time and details as text. */
import { Ago } from "../../components/Ago";
import { PagedTable } from "../../components/PagedTable";
import { graphql } from "../../gql";
import { jsonText } from "../../lib/jsonText";

const PAGE = 50;

export interface AuditFilters {
  action?: string;
  actorId?: string;
  targetId?: string;
}

const AuditPageQuery = graphql(`
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

export function AuditEvents({ filters, names }: Props) {
  return (
    <PagedTable
      label="Audit log"
      what="events"
      head={
        <>
          <th scope="col">Actor</th>
          <th scope="col">Role</th>
          <th scope="col">Action</th>
          <th scope="col">Target</th>
          <th scope="col">Time</th>
          <th scope="col">Details</th>
        </>
      }
      query={AuditPageQuery}
      variables={filters}
      pageSize={PAGE}
      select={(data) => data.auditEvents}
      columns={6}
      empty="No events match."
    >
      {({ node }) => (
        <tr key={node.id}>
          <td>{node.actorId ? (names.get(node.actorId) ?? node.actorId) : "Command line"}</td>
          <td>{node.actorRole ? node.actorRole.toLowerCase() : "—"}</td>
          <td>
            <code>{node.action}</code>
          </td>
          <td>
            {node.targetType}
            {node.targetId && (
              <>
                {" "}
                <code>{node.targetId}</code>
              </>
            )}
          </td>
          <td>
            <Ago iso={node.createdAt} />
          </td>
          <td>
            <pre className="text details">{jsonText(node.details)}</pre>
          </td>
        </tr>
      )}
    </PagedTable>
  );
}

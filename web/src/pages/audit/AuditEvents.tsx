/** The `table` "Audit log": actor, role, action, target, time and details as text. */
import { useQuery } from "urql";
import { Ago } from "../../components/Ago";
import { PagedTable, PageRows } from "../../components/PagedTable";
import { graphql } from "../../gql";
import { jsonText } from "../../lib/jsonText";
import type { PageWindow } from "../../lib/pageWindow";

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

export function AuditEvents(props: Props) {
  return (
    <PagedTable
      label="Audit log"
      pageSize={PAGE}
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
    >
      {(after, pages) => <EventRows {...props} after={after} pages={pages} />}
    </PagedTable>
  );
}

function EventRows({
  filters,
  names,
  after,
  pages,
}: Props & { after: string | null; pages: PageWindow }) {
  const [{ data, error }] = useQuery({
    query: AuditPageQuery,
    variables: { first: PAGE, after, ...filters },
  });
  return (
    <PageRows
      pages={pages}
      after={after}
      page={data?.auditEvents}
      error={error}
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
    </PageRows>
  );
}

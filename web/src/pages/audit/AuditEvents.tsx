/** The `table` "Audit log": actor, role, action, target, time and details as text. */
import { useQuery } from "urql";
import { Ago } from "../../components/Ago";
import { ErrorNotice } from "../../components/ErrorNotice";
import { LoadMore } from "../../components/LoadMore";
import { graphql } from "../../gql";
import { jsonText } from "../../lib/jsonText";
import { usePageWindow, useReportEnd, type PageWindow } from "../../lib/pageWindow";

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
  const pages = usePageWindow(PAGE);
  return (
    <>
      <table aria-label="Audit log">
        <thead>
          <tr>
            <th scope="col">Actor</th>
            <th scope="col">Role</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Time</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {pages.shown.map((after) => (
            <EventRows key={after ?? ""} {...props} after={after} pages={pages} />
          ))}
        </tbody>
      </table>
      <LoadMore window={pages} what="events" />
    </>
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
  const page = data?.auditEvents;
  useReportEnd(pages, after, page?.pageInfo);
  if (error && !data) {
    return (
      <tr>
        <td colSpan={6}>
          <ErrorNotice error={error} />
        </td>
      </tr>
    );
  }
  if (page && page.totalCount === 0) {
    return (
      <tr>
        <td colSpan={6} className="muted">
          No events match.
        </td>
      </tr>
    );
  }
  return (
    <>
      {page?.edges.map(({ node }) => (
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
      ))}
    </>
  );
}

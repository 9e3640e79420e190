/** `/releases`: the `table` "Releases", each with its bindings role → asset and version. */
import { Ago } from "../../components/Ago";
import { PagedTable } from "../../components/PagedTable";
import { graphql } from "../../gql";
import { bindingRoleWord } from "../../lib/bindingRoles";

const PAGE = 50;

const ReleasesPageQuery = graphql(`
  query ReleasesPage($first: Int!, $after: String) {
    releases(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          name
          description
          createdAt
          bindings {
            role
            assetVersion {
              id
              number
              asset {
                id
                name
                builtIn
              }
            }
          }
        }
      }
    }
  }
`);

export function ReleasesPage() {
  return (
    <>
      <h1>Releases</h1>
      <PagedTable
        label="Releases"
        what="releases"
        head={
          <>
            <th scope="col">Release</th>
            <th scope="col">Bindings</th>
            <th scope="col">Created</th>
          </>
        }
        query={ReleasesPageQuery}
        variables={{}}
        pageSize={PAGE}
        select={(data) => data.releases}
        columns={3}
        empty="No releases yet."
      >
        {({ node }) => (
          <tr key={node.id}>
            <td>
              {node.name}
              {node.description && <div className="muted">{node.description}</div>}
            </td>
            <td>
              <ul className="plain">
                {node.bindings.map((b) => (
                  <li key={b.role}>
                    {bindingRoleWord(b.role)} → {b.assetVersion.asset.name} v{b.assetVersion.number}
                    {b.assetVersion.asset.builtIn && " (built-in)"}
                  </li>
                ))}
              </ul>
            </td>
            <td>
              <Ago iso={node.createdAt} />
            </td>
          </tr>
        )}
      </PagedTable>
    </>
  );
}

/**
 * `/releases`: the `table` "Releases", each with its bindings role → asset and version and
 * "Compare on a dataset"; "New release" → `dialog` "New release".
 */
import { useState } from "react";
import { useNavigate } from "react-router";
import { Ago } from "../../components/Ago";
import { RoleButton } from "../../components/RoleButton";
import { compareReleasesLink } from "../prompts/compareLink";
import { NewReleaseDialog } from "./NewReleaseDialog";
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
  const navigate = useNavigate();
  const [making, setMaking] = useState(false);
  const [revision, setRevision] = useState(0);
  return (
    <>
      <div className="row page-head">
        <h1>Releases</h1>
        <RoleButton needs="MEMBER" className="primary" onClick={() => setMaking(true)}>
          New release
        </RoleButton>
      </div>
      {making && (
        <NewReleaseDialog
          onClose={() => setMaking(false)}
          onMade={() => {
            setMaking(false);
            setRevision((r) => r + 1);
          }}
        />
      )}
      <PagedTable
        label="Releases"
        what="releases"
        head={
          <>
            <th scope="col">Release</th>
            <th scope="col">Bindings</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </>
        }
        query={ReleasesPageQuery}
        variables={{}}
        pageSize={PAGE}
        select={(data) => data.releases}
        columns={4}
        revision={revision}
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
            <td>
              <RoleButton
                needs="MEMBER"
                onClick={() => navigate(compareReleasesLink([node.id]))}
              >
                Compare on a dataset
              </RoleButton>
            </td>
          </tr>
        )}
      </PagedTable>
    </>
  );
}

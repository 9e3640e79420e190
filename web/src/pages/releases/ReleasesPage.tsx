/**
 * `/releases`: the `table` "Releases", each with its bindings role → asset and version and
 * "Compare on a dataset"; "New release" → `dialog` "New release".
 */
import { useNavigate } from "react-router";
import { Ago } from "../../components/Ago";
import { RoleButton } from "../../components/RoleButton";
import { compareReleasesLink } from "../prompts/compareLink";
import { NewReleaseDialog } from "./NewReleaseDialog";
import type { Column } from "../../components/columns";
import { ListPage } from "../../components/ListPage";
import { graphql } from "../../gql";
import type { ReleasesPageQuery } from "../../gql/graphql";
import { bindingRoleWord } from "../../lib/bindingRoles";

const ReleasesPageQueryDocument = graphql(`
  query ReleasesPage($first: Int!, $after: String) {
    releases(first: $first, after: $after) {
      totalCount
      pageInfo { ...PageInfoFields }
      edges {
        node {
          id name description createdAt
          bindings { role assetVersion { id number asset { id name builtIn } } }
        }
      }
    }
  }
`);

type Release = ReleasesPageQuery["releases"]["edges"][number]["node"];

export function ReleasesPage() {
  const navigate = useNavigate();
  const columns: Column<Release>[] = [
    {
      name: "Release",
      cell: (node) => (
        <>
          {node.name}
          {node.description && <div className="muted">{node.description}</div>}
        </>
      ),
    },
    {
      name: "Bindings",
      cell: (node) => (
        <ul className="plain">
          {node.bindings.map((b) => (
            <li key={b.role}>
              {bindingRoleWord(b.role)} → {b.assetVersion.asset.name} v{b.assetVersion.number}
              {b.assetVersion.asset.builtIn && " (built-in)"}
            </li>
          ))}
        </ul>
      ),
    },
    { name: "Created", cell: (node) => <Ago iso={node.createdAt} /> },
    {
      name: "Actions",
      hiddenName: true,
      cell: (node) => (
        <RoleButton needs="MEMBER" onClick={() => navigate(compareReleasesLink([node.id]))}>
          Compare on a dataset
        </RoleButton>
      ),
    },
  ];
  return (
    <ListPage
      title="Releases"
      what="releases"
      action={{ label: "New release", needs: "MEMBER", dialog: NewReleaseDialog }}
      columns={columns}
      query={ReleasesPageQueryDocument}
      variables={{}}
      select={(data) => data.releases}
      empty="No releases yet."
    />
  );
}

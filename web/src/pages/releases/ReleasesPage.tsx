/** `/releases`: the `table` "Releases", each with its bindings role → asset and version. */
import { useQuery } from "urql";
import { Ago } from "../../components/Ago";
import { ErrorNotice } from "../../components/ErrorNotice";
import { LoadMore } from "../../components/LoadMore";
import { graphql } from "../../gql";
import type { BindingRole } from "../../gql/graphql";
import { usePageWindow, useReportEnd, type PageWindow } from "../../lib/pageWindow";

const PAGE = 50;

const ROLE_WORDS: Record<BindingRole, string> = {
  PROMPT_TEMPLATE: "Prompt template",
  MODEL_CONFIG: "Model config",
  RUBRIC: "Rubric",
  TOOLS: "Tools",
};

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
  const pages = usePageWindow(PAGE);
  return (
    <>
      <h1>Releases</h1>
      <table aria-label="Releases">
        <thead>
          <tr>
            <th scope="col">Release</th>
            <th scope="col">Bindings</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {pages.shown.map((after) => (
            <ReleaseRows key={after ?? ""} after={after} pages={pages} />
          ))}
        </tbody>
      </table>
      <LoadMore window={pages} what="releases" />
    </>
  );
}

function ReleaseRows({ after, pages }: { after: string | null; pages: PageWindow }) {
  const [{ data, error }] = useQuery({
    query: ReleasesPageQuery,
    variables: { first: PAGE, after },
  });
  const page = data?.releases;
  useReportEnd(pages, after, page?.pageInfo);
  if (error && !data) {
    return (
      <tr>
        <td colSpan={3}>
          <ErrorNotice error={error} />
        </td>
      </tr>
    );
  }
  if (page && page.totalCount === 0) {
    return (
      <tr>
        <td colSpan={3} className="muted">
          No releases yet.
        </td>
      </tr>
    );
  }
  return (
    <>
      {page?.edges.map(({ node }) => (
        <tr key={node.id}>
          <td>
            {node.name}
            {node.description && <div className="muted">{node.description}</div>}
          </td>
          <td>
            <ul className="plain">
              {node.bindings.map((b) => (
                <li key={b.role}>
                  {ROLE_WORDS[b.role]} → {b.assetVersion.asset.name} v{b.assetVersion.number}
                  {b.assetVersion.asset.builtIn && " (built-in)"}
                </li>
              ))}
            </ul>
          </td>
          <td>
            <Ago iso={node.createdAt} />
          </td>
        </tr>
      ))}
    </>
  );
}

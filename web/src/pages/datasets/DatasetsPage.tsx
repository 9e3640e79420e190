/** `/datasets`: the workspace's datasets and the built-ins, with their latest sealed version. */
import { Link } from "react-router";
import { useQuery } from "urql";
import { Ago } from "../../components/Ago";
import { ErrorNotice } from "../../components/ErrorNotice";
import { LoadMore } from "../../components/LoadMore";
import { graphql } from "../../gql";
import { count } from "../../lib/format";
import { usePageWindow, useReportEnd, type PageWindow } from "../../lib/pageWindow";

const PAGE = 50;

const DatasetsPageQuery = graphql(`
  query DatasetsPage($first: Int!, $after: String) {
    datasets(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          name
          builtIn
          createdAt
          latestVersion {
            id
            number
            caseCount
            sealedAt
          }
        }
      }
    }
  }
`);

export function DatasetsPage() {
  const pages = usePageWindow(PAGE);
  return (
    <>
      <h1>Datasets</h1>
      <table aria-label="Datasets">
        <thead>
          <tr>
            <th scope="col">Dataset</th>
            <th scope="col">Latest sealed version</th>
            <th scope="col" className="num">
              Cases
            </th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {pages.shown.map((after) => (
            <DatasetRows key={after ?? ""} after={after} pages={pages} />
          ))}
        </tbody>
      </table>
      <LoadMore window={pages} what="datasets" />
    </>
  );
}

function DatasetRows({ after, pages }: { after: string | null; pages: PageWindow }) {
  const [{ data, error }] = useQuery({
    query: DatasetsPageQuery,
    variables: { first: PAGE, after },
  });
  const page = data?.datasets;
  useReportEnd(pages, after, page?.pageInfo);
  if (error && !data) {
    return (
      <tr>
        <td colSpan={4}>
          <ErrorNotice error={error} />
        </td>
      </tr>
    );
  }
  if (page && page.totalCount === 0) {
    return (
      <tr>
        <td colSpan={4} className="muted">
          No datasets yet: `shipwise dataset import` makes one.
        </td>
      </tr>
    );
  }
  return (
    <>
      {page?.edges.map(({ node }) => (
        <tr key={node.id}>
          <td>
            <Link to={`/datasets/${node.id}`}>{node.name}</Link>
            {node.builtIn && <span className="chip">built-in</span>}
          </td>
          <td>{node.latestVersion ? `Version ${node.latestVersion.number}` : "None sealed"}</td>
          <td className="num">{node.latestVersion ? count(node.latestVersion.caseCount) : "—"}</td>
          <td>
            <Ago iso={node.createdAt} />
          </td>
        </tr>
      ))}
    </>
  );
}

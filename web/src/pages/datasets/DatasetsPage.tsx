/** `/datasets`: the workspace's datasets and the built-ins, with their latest sealed version. */
import { Link } from "react-router";
import { useQuery } from "urql";
import { Ago } from "../../components/Ago";
import { PagedTable, PageRows } from "../../components/PagedTable";
import { graphql } from "../../gql";
import { count } from "../../lib/format";
import type { PageWindow } from "../../lib/pageWindow";

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
  return (
    <>
      <h1>Datasets</h1>
      <PagedTable
        label="Datasets"
        pageSize={PAGE}
        what="datasets"
        head={
          <>
            <th scope="col">Dataset</th>
            <th scope="col">Latest sealed version</th>
            <th scope="col" className="num">
              Cases
            </th>
            <th scope="col">Created</th>
          </>
        }
      >
        {(after, pages) => <DatasetRows after={after} pages={pages} />}
      </PagedTable>
    </>
  );
}

function DatasetRows({ after, pages }: { after: string | null; pages: PageWindow }) {
  const [{ data, error }] = useQuery({
    query: DatasetsPageQuery,
    variables: { first: PAGE, after },
  });
  return (
    <PageRows
      pages={pages}
      after={after}
      page={data?.datasets}
      error={error}
      columns={4}
      empty="No datasets yet: `shipwise dataset import` makes one."
    >
      {({ node }) => (
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
      )}
    </PageRows>
  );
}

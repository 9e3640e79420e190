/** The `table` "Cases" of one dataset version, 50 at a time with "Load more". */
import { PagedTable } from "../../components/PagedTable";
import { graphql } from "../../gql";
import { jsonText } from "../../lib/jsonText";
import { enumWords } from "../../lib/words";

const PAGE = 50;

const DatasetCasesPage = graphql(`
  query DatasetCasesPage($id: ID!, $first: Int!, $after: String) {
    datasetVersion(id: $id) {
      id
      cases(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          cursor
          node {
            datasetItemId
            input
            expected
            split
            tags
          }
        }
      }
    }
  }
`);

export function DatasetCases({ versionId }: { versionId: string }) {
  return (
    <PagedTable
      label="Cases"
      what="cases"
      head={
        <>
          <th scope="col">Case</th>
          <th scope="col">Split</th>
          <th scope="col">Input</th>
          <th scope="col">Expected</th>
          <th scope="col">Tags</th>
        </>
      }
      query={DatasetCasesPage}
      variables={{ id: versionId }}
      pageSize={PAGE}
      select={(data) => data.datasetVersion.cases}
      columns={5}
      empty="This version has no cases."
    >
      {({ cursor, node }) => (
        <tr key={cursor}>
          <td>{node.datasetItemId}</td>
          <td>{enumWords(node.split)}</td>
          <td>
            <pre className="text">{jsonText(node.input)}</pre>
          </td>
          <td>
            <pre className="text">{jsonText(node.expected)}</pre>
          </td>
          <td>{node.tags.join(", ")}</td>
        </tr>
      )}
    </PagedTable>
  );
}

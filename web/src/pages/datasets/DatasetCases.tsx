/** The `table` "Cases" of one dataset version, 50 at a time with "Load more". */
import { useQuery } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import { LoadMore } from "../../components/LoadMore";
import { graphql } from "../../gql";
import { jsonText } from "../../lib/jsonText";
import { usePageWindow, useReportEnd, type PageWindow } from "../../lib/pageWindow";

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
  const pages = usePageWindow(PAGE);
  return (
    <>
      <table aria-label="Cases">
        <thead>
          <tr>
            <th scope="col">Case</th>
            <th scope="col">Split</th>
            <th scope="col">Input</th>
            <th scope="col">Expected</th>
            <th scope="col">Tags</th>
          </tr>
        </thead>
        <tbody>
          {pages.shown.map((after) => (
            <CaseRows key={after ?? ""} versionId={versionId} after={after} pages={pages} />
          ))}
        </tbody>
      </table>
      <LoadMore window={pages} what="cases" />
    </>
  );
}

function CaseRows({
  versionId,
  after,
  pages,
}: {
  versionId: string;
  after: string | null;
  pages: PageWindow;
}) {
  const [{ data, error }] = useQuery({
    query: DatasetCasesPage,
    variables: { id: versionId, first: PAGE, after },
  });
  const page = data?.datasetVersion.cases;
  useReportEnd(pages, after, page?.pageInfo);
  if (error && !data) {
    return (
      <tr>
        <td colSpan={5}>
          <ErrorNotice error={error} />
        </td>
      </tr>
    );
  }
  if (page && page.totalCount === 0) {
    return (
      <tr>
        <td colSpan={5} className="muted">
          This version has no cases.
        </td>
      </tr>
    );
  }
  return (
    <>
      {page?.edges.map(({ cursor, node }) => (
        <tr key={cursor}>
          <td>{node.datasetItemId}</td>
          <td>{node.split}</td>
          <td>
            <pre className="text">{jsonText(node.input)}</pre>
          </td>
          <td>
            <pre className="text">{jsonText(node.expected)}</pre>
          </td>
          <td>{node.tags.join(", ")}</td>
        </tr>
      ))}
    </>
  );
}

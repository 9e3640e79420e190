/** The `table` "Runs": run, source, status, items, pass rate with its interval, created. */
import { useQuery } from "urql";
import { Ago } from "../../components/Ago";
import { ErrorNotice } from "../../components/ErrorNotice";
import { LoadMore } from "../../components/LoadMore";
import { graphql } from "../../gql";
import { count } from "../../lib/format";
import { usePageWindow, useReportEnd, type PageWindow } from "../../lib/pageWindow";
import { passRateWords, runName } from "./runWords";

const PAGE = 50;

const RunsPage = graphql(`
  query RunsPage($experimentId: ID!, $first: Int!, $after: String) {
    runs(experimentId: $experimentId, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          source
          status
          itemCount
          cohortIndex
          createdAt
          passRate {
            value
            low
            high
          }
        }
      }
    }
  }
`);

export function RunsTable({ experimentId }: { experimentId: string }) {
  const pages = usePageWindow(PAGE);
  return (
    <>
      <h2>Runs</h2>
      <table aria-label="Runs">
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Source</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Items
            </th>
            <th scope="col">Pass rate (95% interval)</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {pages.shown.map((after) => (
            <RunRows key={after ?? ""} experimentId={experimentId} after={after} pages={pages} />
          ))}
        </tbody>
      </table>
      <LoadMore window={pages} what="runs" />
    </>
  );
}

function RunRows({
  experimentId,
  after,
  pages,
}: {
  experimentId: string;
  after: string | null;
  pages: PageWindow;
}) {
  const [{ data, error }] = useQuery({
    query: RunsPage,
    variables: { experimentId, first: PAGE, after },
  });
  const page = data?.runs;
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
          No runs yet: finalize a comparison or import a run.
        </td>
      </tr>
    );
  }
  return (
    <>
      {page?.edges.map(({ node }) => (
        <tr key={node.id}>
          <td>{runName(node)}</td>
          <td>{node.source === "HOSTED" ? "Hosted" : "Imported"}</td>
          <td>{node.status}</td>
          <td className="num">{count(node.itemCount)}</td>
          <td>{passRateWords(node.passRate)}</td>
          <td>
            <Ago iso={node.createdAt} />
          </td>
        </tr>
      ))}
    </>
  );
}

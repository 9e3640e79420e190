/** `/experiments`: the workspace's experiments, each linking to its runs. */
import { useQuery } from "urql";
import { Link } from "react-router";
import { Ago } from "../../components/Ago";
import { ErrorNotice } from "../../components/ErrorNotice";
import { LoadMore } from "../../components/LoadMore";
import { graphql } from "../../gql";
import { dollars } from "../../lib/format";
import { usePageWindow, useReportEnd, type PageWindow } from "../../lib/pageWindow";

const PAGE = 50;

const ExperimentsPageQuery = graphql(`
  query ExperimentsPage($first: Int!, $after: String) {
    experiments(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          name
          dailyBudgetCents
          createdAt
        }
      }
    }
  }
`);

export function ExperimentsPage() {
  const pages = usePageWindow(PAGE);
  return (
    <>
      <h1>Experiments</h1>
      <table aria-label="Experiments">
        <thead>
          <tr>
            <th scope="col">Experiment</th>
            <th scope="col">Daily budget</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {pages.shown.map((after) => (
            <ExperimentRows key={after ?? ""} after={after} pages={pages} />
          ))}
        </tbody>
      </table>
      <LoadMore window={pages} what="experiments" />
    </>
  );
}

function ExperimentRows({ after, pages }: { after: string | null; pages: PageWindow }) {
  const [{ data, error }] = useQuery({
    query: ExperimentsPageQuery,
    variables: { first: PAGE, after },
  });
  const page = data?.experiments;
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
          No experiments yet: a comparison makes one named after its dataset.
        </td>
      </tr>
    );
  }
  return (
    <>
      {page?.edges.map(({ node }) => (
        <tr key={node.id}>
          <td>
            <Link to={`/experiments/${node.id}`}>{node.name}</Link>
          </td>
          <td>{node.dailyBudgetCents === null ? "No cap" : dollars(node.dailyBudgetCents)}</td>
          <td>
            <Ago iso={node.createdAt} />
          </td>
        </tr>
      ))}
    </>
  );
}

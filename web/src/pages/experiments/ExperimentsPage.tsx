/** `/experiments`: the workspace's experiments, each linking to its runs. */
import { Link } from "react-router";
import { Ago } from "../../components/Ago";
import { PagedTable } from "../../components/PagedTable";
import { graphql } from "../../gql";
import { dollars } from "../../lib/format";

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
  return (
    <>
      <h1>Experiments</h1>
      <PagedTable
        label="Experiments"
        what="experiments"
        head={
          <>
            <th scope="col">Experiment</th>
            <th scope="col">Daily budget</th>
            <th scope="col">Created</th>
          </>
        }
        query={ExperimentsPageQuery}
        variables={{}}
        pageSize={PAGE}
        select={(data) => data.experiments}
        columns={3}
        empty="No experiments yet: a comparison makes one named after its dataset."
      >
        {({ node }) => (
          <tr key={node.id}>
            <td>
              <Link to={`/experiments/${node.id}`}>{node.name}</Link>
            </td>
            <td>{node.dailyBudgetCents === null ? "No cap" : dollars(node.dailyBudgetCents)}</td>
            <td>
              <Ago iso={node.createdAt} />
            </td>
          </tr>
        )}
      </PagedTable>
    </>
  );
}

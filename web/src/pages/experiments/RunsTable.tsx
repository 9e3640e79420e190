/**
 * The `table` "Runs": run (a hosted one by its cohort label and release), source, status,
 * items, pass rate with its interval, created.
 */
import { Ago } from "../../components/Ago";
import { PagedTable } from "../../components/PagedTable";
import { graphql } from "../../gql";
import { count } from "../../lib/format";
import { passRateWords, runName } from "./runWords";
import { enumWords } from "../../lib/words";

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
          cohortLabel
          releaseName
          comparisonId
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
  return (
    <>
      <h2>Runs</h2>
      <PagedTable
        label="Runs"
        what="runs"
        head={
          <>
            <th scope="col">Run</th>
            <th scope="col">Source</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Items
            </th>
            <th scope="col">Pass rate (95% interval)</th>
            <th scope="col">Created</th>
          </>
        }
        query={RunsPage}
        variables={{ experimentId }}
        pageSize={PAGE}
        select={(data) => data.runs}
        columns={6}
        empty="No runs yet: finalize a comparison or import a run."
      >
        {({ node }) => (
          <tr key={node.id}>
            <td>{runName(node)}</td>
            <td>{node.source === "HOSTED" ? "Hosted" : "Imported"}</td>
            <td>{enumWords(node.status)}</td>
            <td className="num">{count(node.itemCount)}</td>
            <td>{passRateWords(node.passRate)}</td>
            <td>
              <Ago iso={node.createdAt} />
            </td>
          </tr>
        )}
      </PagedTable>
    </>
  );
}

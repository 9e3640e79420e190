/**
 * `/live`: the `table` "Live comparisons" (canaries decided while they run, newest first):
 * label, service, candidate and baselines, status, the decision in words, started; 50 a page.
 */
import { Link, useNavigate } from "react-router";
import { RoleButton } from "../../components/RoleButton";
import { Ago } from "../../components/Ago";
import { PagedTable } from "../../components/PagedTable";
import { graphql } from "../../gql";
import { OUTCOME_WORDS } from "../comparison/decisionWords";
import { LIVE_STATUS_WORDS } from "./liveWords";

const LiveListQuery = graphql(`
  query LiveComparisonsPage($first: Int!, $after: String) {
    liveComparisons(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          label
          service
          candidateRelease
          baselineReleases
          status
          startedAt
          decision {
            outcome
          }
        }
      }
    }
  }
`);

export function LivePage() {
  const navigate = useNavigate();
  return (
    <>
      <div className="row page-head">
        <h1>Live comparisons</h1>
        <RoleButton needs="MEMBER" className="primary" onClick={() => navigate("/live/new")}>
          New live comparison
        </RoleButton>
      </div>
      <p className="muted">
        Canaries decided while they run: each release's production traces graded as they
        arrive, and the ship policy read off anytime-valid sequences.
      </p>
      <PagedTable
        label="Live comparisons"
        what="live comparisons"
        head={
          <>
            <th scope="col">Live comparison</th>
            <th scope="col">Service</th>
            <th scope="col">Candidate and baselines</th>
            <th scope="col">Status</th>
            <th scope="col">Decision</th>
            <th scope="col">Started</th>
          </>
        }
        query={LiveListQuery}
        variables={{}}
        pageSize={50}
        select={(data) => data.liveComparisons}
        columns={6}
        empty="No live comparison yet: New live comparison starts one."
      >
        {({ node }) => (
          <tr key={node.id}>
            <td>
              <Link to={`/live/${node.id}`}>{node.label ?? node.id}</Link>
            </td>
            <td>{node.service}</td>
            <td>
              {node.candidateRelease} vs {node.baselineReleases.join(", ")}
            </td>
            <td>{LIVE_STATUS_WORDS[node.status]}</td>
            <td>{node.decision ? OUTCOME_WORDS[node.decision.outcome] : "No trace graded yet"}</td>
            <td>
              <Ago iso={node.startedAt} />
            </td>
          </tr>
        )}
      </PagedTable>
    </>
  );
}

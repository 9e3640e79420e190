/** The cases of one filter tab, 50 at a time, each with its input and evaluators as text. */
import { PagedTable } from "../../components/PagedTable";
import { graphql } from "../../gql";
import type { DiffCaseFilter } from "../../gql/graphql";
import { percent } from "../../lib/format";
import { jsonText } from "../../lib/jsonText";
import { evaluatorWords } from "./diffWords";
import { enumWords } from "../../lib/words";

const PAGE = 50;

const RunDiffCasesPage = graphql(`
  query RunDiffCasesPage(
    $candidate: ID!
    $baseline: ID!
    $filter: DiffCaseFilter!
    $first: Int!
    $after: String
  ) {
    runDiff(candidateRunId: $candidate, baselineRunId: $baseline) {
      candidateRunId
      baselineRunId
      cases(status: $filter, first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          cursor
          node {
            datasetItemId
            position
            baselinePosition
            status
            passFlip
            candidatePassFraction
            baselinePassFraction
            input
            evaluators {
              name
              baselineMean
              candidateMean
              delta
              status
            }
          }
        }
      }
    }
  }
`);

interface Props {
  candidate: string;
  baseline: string;
  filter: DiffCaseFilter;
}

export function RunDiffCases(props: Props) {
  return (
    <PagedTable
      label="Cases"
      what="cases"
      head={
        <>
          <th scope="col">Case</th>
          <th scope="col">Status</th>
          <th scope="col">Pass (baseline → candidate)</th>
          <th scope="col">Input</th>
          <th scope="col">Evaluators</th>
        </>
      }
      query={RunDiffCasesPage}
      variables={props}
      pageSize={PAGE}
      select={(data) => data.runDiff.cases}
      columns={5}
      empty="No cases here."
    >
      {({ cursor, node }) => (
        <tr key={cursor} className={node.status === "REGRESSED" ? "tinted" : undefined}>
          <td>{node.datasetItemId ?? `#${node.position}`}</td>
          <td>
            {enumWords(node.status)}
            {node.passFlip && <span className="chip">pass flipped</span>}
          </td>
          <td>
            {percent(node.baselinePassFraction)} → {percent(node.candidatePassFraction)}
          </td>
          <td>
            <pre className="text">{jsonText(node.input)}</pre>
          </td>
          <td>
            {node.evaluators.length === 0 ? (
              <span className="muted">none</span>
            ) : (
              <ul className="plain">
                {node.evaluators.map((e) => (
                  <li key={e.name}>{evaluatorWords(e)}</li>
                ))}
              </ul>
            )}
          </td>
        </tr>
      )}
    </PagedTable>
  );
}

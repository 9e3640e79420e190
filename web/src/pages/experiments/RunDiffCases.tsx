/**
 * The cases of one filter tab, 50 at a time, each with its input and evaluators as text;
 * "Show trajectories" opens the case's two trajectories side by side beneath its row.
 */
import { Fragment, useState } from "react";
import { PagedTable } from "../../components/PagedTable";
import { graphql } from "../../gql";
import type { DiffCaseFilter, RunDiffCasesPageQuery } from "../../gql/graphql";
import { percent } from "../../lib/format";
import { jsonText } from "../../lib/jsonText";
import { evaluatorWords } from "./diffWords";
import { RunDiffTrajectories } from "./RunDiffTrajectories";
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
          <th scope="col">Trajectories</th>
        </>
      }
      query={RunDiffCasesPage}
      variables={props}
      pageSize={PAGE}
      select={(data) => data.runDiff.cases}
      columns={6}
      empty="No cases here."
    >
      {({ cursor, node }) => (
        <CaseRows key={cursor} node={node} candidate={props.candidate} baseline={props.baseline} />
      )}
    </PagedTable>
  );
}

type Case = RunDiffCasesPageQuery["runDiff"]["cases"]["edges"][number]["node"];

function CaseRows({
  node,
  candidate,
  baseline,
}: {
  node: Case;
  candidate: string;
  baseline: string;
}) {
  const [open, setOpen] = useState(false);
  const name = node.datasetItemId ?? `#${node.position}`;
  return (
    <Fragment>
      <tr className={node.status === "REGRESSED" ? "tinted" : undefined}>
        <td>{name}</td>
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
        <td>
          <button
            type="button"
            className="link"
            aria-expanded={open}
            aria-label={`${open ? "Hide" : "Show"} trajectories of case ${name}`}
            onClick={() => setOpen(!open)}
          >
            {open ? "Hide trajectories" : "Show trajectories"}
          </button>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={6}>
            <RunDiffTrajectories
              candidate={candidate}
              baseline={baseline}
              position={node.status === "REMOVED" ? null : node.position}
              baselinePosition={node.baselinePosition ?? null}
            />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

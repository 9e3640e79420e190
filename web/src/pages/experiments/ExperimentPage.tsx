/**
 * `/experiments/:id`: the `table` "Runs", the `figure` "Pass rate over runs" (the Monitor
 * view) and the run chooser that opens a run diff.
 */
import { useQuery } from "../../lib/query";
import { useParams } from "react-router";
import { ErrorNotice } from "../../components/ErrorNotice";
import { graphql } from "../../gql";
import { DiffChooser } from "./DiffChooser";
import { PassRateFigure } from "./PassRateFigure";
import { RunsTable } from "./RunsTable";
import "./experiments.css";

const ExperimentQuery = graphql(`
  query ExperimentPage($id: ID!) {
    experiment(id: $id) {
      id
      name
    }
    runs(experimentId: $id, first: 100) {
      totalCount
      edges {
        node {
          id
          source
          status
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

export function ExperimentPage() {
  const { id = "" } = useParams();
  const [{ data, error }] = useQuery({ query: ExperimentQuery, variables: { id } });
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p className="muted">Loading…</p>;
  const recent = data.runs.edges.map((e) => e.node);
  return (
    <>
      <h1>{data.experiment.name}</h1>
      <PassRateFigure runs={[...recent].reverse()} total={data.runs.totalCount} />
      <DiffChooser experimentId={id} runs={recent} />
      <RunsTable experimentId={id} />
    </>
  );
}

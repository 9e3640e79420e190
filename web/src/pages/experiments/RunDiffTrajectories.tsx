/**
 * A run diff case's two trajectories side by side (docs/domain.md, "Trajectories in runs"),
 * shown by the shared `components/Trajectories.tsx`: the case's trials of each run, trial by
 * trial. Steps' texts are untrusted: shown as text, never as markup.
 */
import { useQuery } from "../../lib/query";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Trajectories } from "../../components/Trajectories";
import { graphql } from "../../gql";

const TrajectoriesQuery = graphql(`
  query RunDiffTrajectories(
    $candidate: ID!
    $baseline: ID!
    $position: Int!
    $baselinePosition: Int!
  ) {
    candidateRun: run(id: $candidate) {
      id
      item(position: $position) {
        ...RunDiffItemTrajectories
      }
    }
    baselineRun: run(id: $baseline) {
      id
      item(position: $baselinePosition) {
        ...RunDiffItemTrajectories
      }
    }
  }

  fragment RunDiffItemTrajectories on RunItem {
    position
    trials {
      traceId
      trajectory {
        ...TrajectorySideStep
      }
    }
  }
`);

interface Props {
  candidate: string;
  baseline: string;
  /** The case's candidate position; null for a case only the baseline has. */
  position: number | null;
  baselinePosition: number | null;
}

export function RunDiffTrajectories(props: Props) {
  const [{ data, error, fetching }] = useQuery({
    query: TrajectoriesQuery,
    variables: {
      candidate: props.candidate,
      baseline: props.baseline,
      position: props.position ?? -1,
      baselinePosition: props.baselinePosition ?? -1,
    },
  });
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return fetching ? <p className="muted">Loading the trajectories…</p> : null;
  const baselineTrials = data.baselineRun?.item?.trials ?? [];
  const candidateTrials = data.candidateRun?.item?.trials ?? [];
  const trials = Array.from(
    { length: Math.max(baselineTrials.length, candidateTrials.length) },
    (_, i) => ({
      baseline: baselineTrials.at(i)?.trajectory ?? null,
      candidate: candidateTrials.at(i)?.trajectory ?? null,
    }),
  );
  return <Trajectories trials={trials} />;
}

import type { CohortState } from "../../gql/graphql";
import { nameOf, type CohortName } from "./cohorts";

const STATE_WORDS: Record<CohortState, string> = {
  DONE: "Done",
  RUNNING: "Running",
  QUEUED: "Queued",
  STOPPED: "Stopped",
};

/** The `region` "Cohorts": a chip per cohort with its state (Done / Running / Queued / Stopped). */
export function CohortChips({
  states,
  cohorts,
}: {
  states: readonly { cohortIndex: number; state: CohortState }[];
  cohorts: readonly CohortName[];
}) {
  return (
    <section aria-label="Cohorts">
      {states.map((c) => {
        return (
          <span key={c.cohortIndex} className={`chip state-${c.state.toLowerCase()}`}>
            {nameOf(cohorts, c.cohortIndex)}: {STATE_WORDS[c.state]}
          </span>
        );
      })}
    </section>
  );
}

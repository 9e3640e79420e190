import type { CohortState } from "../../gql/graphql";
import { cohortName, type CohortName } from "./cohorts";

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
        const cohort = cohorts.find((x) => x.cohortIndex === c.cohortIndex);
        const name = cohort ? cohortName(cohort) : `cohort ${c.cohortIndex}`;
        return (
          <span key={c.cohortIndex} className={`chip state-${c.state.toLowerCase()}`}>
            {name}: {STATE_WORDS[c.state]}
          </span>
        );
      })}
    </section>
  );
}

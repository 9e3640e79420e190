import { useId, useState } from "react";
import { Tabs, type Tab } from "../../components/Tabs";
import type { CaseFilter, ComparisonScorecardQuery } from "../../gql/graphql";
import { count } from "../../lib/format";
import { CaseList } from "./CaseList";
import type { CohortName } from "./cohorts";

type Counts = NonNullable<
  ComparisonScorecardQuery["comparison"]["scorecard"]
>["failureAnalysis"];

const TABS: readonly Tab<CaseFilter>[] = [
  { key: "REGRESSED", label: "Regressed" },
  { key: "IMPROVED", label: "Improved" },
  { key: "CHANGED", label: "Changed" },
  { key: "ALL", label: "All" },
];

/** Seed 000's failure analysis: the counts, then the cases against one baseline, by tab. */
export function FailureAnalysis({
  id,
  counts,
  cohorts,
}: {
  id: string;
  counts: Counts;
  cohorts: readonly CohortName[];
}) {
  const baselines = cohorts.filter((c) => !c.isCandidate);
  const [baseline, setBaseline] = useState(baselines[0]?.cohortIndex ?? 1);
  const [filter, setFilter] = useState<CaseFilter>("REGRESSED");
  const selectId = useId();
  return (
    <section aria-label="Failure analysis">
      <h2>Failure analysis</h2>
      <ul className="strip">
        <li>Improved: {count(counts.improved)}</li>
        <li>Regressed: {count(counts.regressed)}</li>
        <li>Both wrong: {count(counts.bothWrong)}</li>
        <li>Agree: {count(counts.agree)}</li>
      </ul>
      <div className="row">
        <label htmlFor={selectId}>Baseline</label>
        <select
          id={selectId}
          value={baseline}
          onChange={(event) => setBaseline(Number(event.target.value))}
        >
          {baselines.map((c) => (
            <option key={c.cohortIndex} value={c.cohortIndex}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <Tabs label="Cases" tabs={TABS} selected={filter} onSelect={setFilter}>
        <CaseList
          key={`${filter}-${baseline}`}
          id={id}
          filter={filter}
          baseline={baseline}
          cohorts={cohorts}
        />
      </Tabs>
    </section>
  );
}

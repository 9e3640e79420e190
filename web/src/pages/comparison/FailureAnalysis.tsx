import { useId, useState } from "react";
import { useQuery } from "../../lib/query";
import { ExportButtons } from "../../components/ExportButtons";
import { Tabs, type Tab } from "../../components/Tabs";
import type { CaseFilter, ComparisonScorecardQuery } from "../../gql/graphql";
import { count } from "../../lib/format";
import { CaseList } from "./CaseList";
import type { CohortName } from "./cohorts";
import { CaseCountsQuery } from "./decisionQueries";

type Counts = NonNullable<
  ComparisonScorecardQuery["comparison"]["scorecard"]
>["failureAnalysis"];

/** The published filters (docs/graphql.md), not the deprecated names added beside them. */
type TabFilter = Extract<CaseFilter, "REGRESSIONS" | "IMPROVEMENTS" | "DIVERGED" | "ALL">;

/** The failure-analysis tabs as docs/portal.md names them. */
const TABS: readonly Tab<TabFilter>[] = [
  { key: "REGRESSIONS", label: "Regressions" },
  { key: "IMPROVEMENTS", label: "Improvements" },
  { key: "DIVERGED", label: "All diverged" },
  { key: "ALL", label: "All" },
];

const COUNTED: Record<TabFilter, "regressions" | "improvements" | "diverged" | "all"> = {
  REGRESSIONS: "regressions",
  IMPROVEMENTS: "improvements",
  DIVERGED: "diverged",
  ALL: "all",
};

/**
 * Seed 000's failure analysis: the cases against one baseline, by tab, each tab labelled with
 * how many cases it lists ("Regressions (10)": worse by pass fraction against that baseline);
 * and, said as what it is, seed 000's majority-outcome classes over all baselines.
 */
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
  const [filter, setFilter] = useState<TabFilter>("REGRESSIONS");
  const [{ data }] = useQuery({ query: CaseCountsQuery, variables: { id, baseline } });
  const listed = data?.comparison.id === id ? data.comparison : undefined;
  const tabs = TABS.map((tab) => {
    const total = listed?.[COUNTED[tab.key]].totalCount;
    return total === undefined ? tab : { ...tab, label: `${tab.label} (${count(total)})` };
  });
  const selectId = useId();
  return (
    <section aria-label="Failure analysis">
      <h2>Failure analysis</h2>
      <p className="muted">
        By each case's majority outcome, against all baselines at once:{" "}
        {count(counts.regressed)} regressed (the candidate failed where a baseline passed),{" "}
        {count(counts.improved)} improved (it passed where a baseline failed),{" "}
        {count(counts.bothWrong)} both wrong (it and every baseline failed),{" "}
        {count(counts.agree)} agree (all passed). The tabs compare each case's pass fraction with
        the baseline chosen here.
      </p>
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
      <ExportButtons target="COMPARISON_CASES" id={id} />
      <Tabs label="Cases" tabs={tabs} selected={filter} onSelect={setFilter}>
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

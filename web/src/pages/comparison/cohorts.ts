/** How a comparison's cohorts are named on its page. */

export interface CohortName {
  cohortIndex: number;
  label: string;
  isCandidate: boolean;
}

/** "v2 (candidate)" or "v1". */
export function cohortName(cohort: CohortName): string {
  return cohort.isCandidate ? `${cohort.label} (candidate)` : cohort.label;
}

/** The label of cohort `index`, or "Cohort N" (numbered from 1) when it is not known. */
export function labelOf(
  cohorts: readonly Pick<CohortName, "cohortIndex" | "label">[],
  index: number,
): string {
  return cohorts.find((c) => c.cohortIndex === index)?.label ?? `Cohort ${index + 1}`;
}

/** `cohortName` of cohort `index`, or "Cohort N" (numbered from 1) when it is not known. */
export function nameOf(cohorts: readonly CohortName[], index: number): string {
  const cohort = cohorts.find((c) => c.cohortIndex === index);
  return cohort ? cohortName(cohort) : `Cohort ${index + 1}`;
}

/** Names for ids the report API gives: members by id, baselines by cohort index. */

export function memberNames(members: { id: string; name: string }[]) {
  const byId = new Map(members.map((m) => [m.id, m.name]));
  return (id: string | null | undefined): string => (id ? (byId.get(id) ?? id) : "—");
}

export function baselineNames(cohorts: { cohortIndex: number; label?: string | null }[]) {
  const byIndex = new Map(cohorts.map((c) => [c.cohortIndex, c.label]));
  return (index: number): string => byIndex.get(index) || `Cohort ${index + 1}`;
}

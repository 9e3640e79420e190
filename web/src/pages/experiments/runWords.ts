/** How a run reads in the experiment pages. */
import { percent } from "../../lib/format";

export interface PassRate {
  value: number;
  low: number;
  high: number;
}

/** "70.0% (61.2–78.1%)". */
export function passRateWords(rate: PassRate | null | undefined): string {
  if (!rate) return "—";
  return `${percent(rate.value)} (${percent(rate.low)}–${percent(rate.high)})`;
}

/** What names a run: hosted runs carry their cohort's label and release. */
export interface NamedRun {
  id: string;
  source: string;
  cohortIndex?: number | null;
  cohortLabel?: string | null;
  releaseName?: string | null;
}

/**
 * A run's name: a hosted run by its cohort label and release ("quick (capitals v2)", or the
 * release alone when the label is its name); an imported run by its id.
 */
export function runName(run: NamedRun): string {
  if (run.source !== "HOSTED") return run.id;
  const label = run.cohortLabel?.trim();
  const release = run.releaseName?.trim();
  if (label && release && label !== release) return `${label} (${release})`;
  if (label || release) return (label || release) as string;
  return run.cohortIndex !== null && run.cohortIndex !== undefined
    ? `Cohort ${run.cohortIndex + 1}`
    : run.id;
}

/** The line a run belongs to in "Pass rate over runs": its cohort label, else "Imported runs". */
export function seriesOf(run: NamedRun): string {
  if (run.source !== "HOSTED") return "Imported runs";
  return run.cohortLabel?.trim() || run.releaseName?.trim() || runName(run);
}

/**
 * The runs a diff starts from: the newest hosted candidate (cohort 1) against its own
 * comparison's first baseline, else the newest two runs (`runs` newest first).
 */
export function defaultPair<R extends NamedRun & { comparisonId?: string | null }>(
  runs: readonly R[],
): { candidate: string; baseline: string } {
  const candidate = runs.find((r) => r.source === "HOSTED" && r.cohortIndex === 0) ?? runs[0];
  const sameComparison = candidate?.comparisonId
    ? runs
        .filter((r) => r.comparisonId === candidate.comparisonId && r.id !== candidate.id)
        .sort((a, b) => (a.cohortIndex ?? 0) - (b.cohortIndex ?? 0))[0]
    : undefined;
  const baseline = sameComparison ?? runs.find((r) => r.id !== candidate?.id);
  return { candidate: candidate?.id ?? "", baseline: baseline?.id ?? "" };
}

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

/** A run's short name: hosted runs by their cohort, imported ones by their id. */
export function runName(run: {
  id: string;
  source: string;
  cohortIndex?: number | null;
}): string {
  if (run.source === "HOSTED" && run.cohortIndex !== null && run.cohortIndex !== undefined) {
    return `${run.id} (cohort ${run.cohortIndex + 1})`;
  }
  return run.id;
}

/** How a live comparison reads in the portal (docs/live.md): its status in words. */
import type { LiveComparisonStatus } from "../../gql/graphql";

export const LIVE_STATUS_WORDS: Record<LiveComparisonStatus, string> = {
  RUNNING: "Running",
  DECIDED: "Decided",
  EXPIRED: "Expired",
  CANCELLED: "Cancelled",
};

/** A share (0–1) as a percent with one decimal, or a dash. */
export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : `${(value * 100).toFixed(1)}%`;
}

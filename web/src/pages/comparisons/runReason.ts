import type { CombinedError } from "urql";
import { errorWords } from "../../lib/errors";
import type { Preview } from "./PreviewPanel";

/**
 * Why Run is disabled, shown beside it (null: it may run). The first missing choice, else the
 * preview still being worked out, else its error, else its first blocker.
 */
export function runReason(
  missing: string | null,
  { current, error, preview }: { current: boolean; error?: CombinedError; preview?: Preview },
): string | null {
  if (missing) return missing;
  if (!current) return "Working out the calls and the cost…";
  if (error) return errorWords(error).message;
  if (preview && !preview.canStart)
    return preview.blockers[0]?.message ?? "This comparison cannot start.";
  return null;
}

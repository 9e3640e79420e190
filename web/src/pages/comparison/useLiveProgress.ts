/**
 * A running comparison's progress, live through `comparisonProgress`. The subscription starts
 * after the seq the page already shows; when graphql-ws reconnects it resumes after the last
 * seq received (src/lib/resume.ts). `onEnded` runs once the terminal snapshot arrives.
 */
import { useEffect, useState } from "react";
import { useSubscription, type CombinedError } from "urql";
import type { ComparisonProgressSubscription, ProgressFieldsFragment } from "../../gql/graphql";
import { ProgressSubscription } from "./queries";

export type Progress = ProgressFieldsFragment;

const TERMINAL = new Set(["DONE", "FAILED", "CANCELLED"]);

export function useLiveProgress(
  id: string,
  initial: Progress,
  onEnded: () => void,
): { progress: Progress; error: CombinedError | undefined } {
  const [afterSeq] = useState(initial.seq);
  const [{ data, error }] = useSubscription(
    { query: ProgressSubscription, variables: { id, afterSeq } },
    (_previous: ComparisonProgressSubscription | undefined, next: ComparisonProgressSubscription) =>
      next,
  );
  const latest = data?.comparisonProgress;
  const progress = latest && latest.seq >= initial.seq ? latest : initial;
  const ended = TERMINAL.has(progress.status);
  useEffect(() => {
    if (ended) onEnded();
  }, [ended, onEnded]);
  return { progress, error };
}

import { useMemo } from "react";
import { type CombinedError } from "urql";
import { useQuery } from "../../lib/query";
import type { CreateComparisonInput } from "../../gql/graphql";
import type { Preview } from "./PreviewPanel";
import { PreviewQuery } from "./setupDocuments";
import { toInput, type SetupDraft } from "./setupDraft";
import { useDebounced } from "./useDebounced";

const PREVIEW_DEBOUNCE_MS = 300;

export interface LivePreview {
  /** The input previewed; null while a choice is missing. */
  input: CreateComparisonInput | null;
  preview: Preview | undefined;
  error: CombinedError | undefined;
  /** The preview answers the draft as it is now (not typing, not fetching). */
  current: boolean;
}

/** `comparisonPreview` of the draft, asked once it has stayed unchanged for 300 ms. */
export function usePreview(draft: SetupDraft): LivePreview {
  const wanted = JSON.stringify(toInput(draft));
  const settled = useDebounced(wanted, PREVIEW_DEBOUNCE_MS);
  const input = useMemo(() => JSON.parse(settled) as CreateComparisonInput | null, [settled]);
  const [result] = useQuery({
    query: PreviewQuery,
    variables: { input: input ?? { cohorts: [] } },
    pause: input === null,
    requestPolicy: "network-only",
  });
  return {
    input,
    preview: input !== null ? result.data?.comparisonPreview : undefined,
    error: input !== null ? result.error : undefined,
    current: input !== null && settled === wanted && !result.fetching,
  };
}

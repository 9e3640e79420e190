/**
 * The portal's `useQuery`: urql's, with a refetch that is never lost.
 *
 * @urql/core's client drops an operation whose key (document and variables) is already in
 * flight, whatever its request policy. So a `refetch({ requestPolicy: "network-only" })` asked
 * right after a write, while the page's first read of the same query is still on the way, is
 * answered by that first read: one that began before the write and does not show it (a report
 * generated on a busy machine stayed "No report yet"). This hook remembers a network-only
 * refetch asked while the query was fetching and asks once more when that read has answered.
 */
import { useCallback, useEffect, useRef } from "react";
import {
  useQuery as useUrqlQuery,
  type AnyVariables,
  type OperationContext,
  type UseQueryArgs,
  type UseQueryResponse,
} from "urql";

export function useQuery<Data = unknown, Variables extends AnyVariables = AnyVariables>(
  args: UseQueryArgs<Variables, Data>,
): UseQueryResponse<Data, Variables> {
  const [result, execute] = useUrqlQuery<Data, Variables>(args);
  const fetching = useRef(result.fetching);
  const again = useRef<Partial<OperationContext> | null>(null);
  useEffect(() => {
    fetching.current = result.fetching;
    if (!result.fetching && again.current) {
      const opts = again.current;
      again.current = null;
      execute(opts);
    }
  }, [result.fetching, execute]);
  const refetch = useCallback(
    (opts?: Partial<OperationContext>) => {
      if (fetching.current && opts?.requestPolicy === "network-only") again.current = opts;
      execute(opts);
    },
    [execute],
  );
  return [result, refetch];
}

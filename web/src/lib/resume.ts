/**
 * Subscriptions that resume where they left off. graphql-ws re-sends a subscription's payload
 * object itself when it reconnects; an operation with an `afterSeq` variable keeps that
 * variable at the last `seq` it received, so the retry asks only for what came after.
 */

interface Payload {
  variables?: Record<string, unknown> | null;
}

/** The `seq` of a subscription result's root field, when it has one. */
export function seqOf(data: unknown): number | null {
  if (!data || typeof data !== "object") return null;
  for (const value of Object.values(data as Record<string, unknown>)) {
    if (value && typeof value === "object") {
      const seq = (value as Record<string, unknown>).seq;
      if (typeof seq === "number") return seq;
    }
  }
  return null;
}

/** Record a result's `seq` as the payload's `afterSeq`, if the operation takes one. */
export function advance(payload: Payload, result: { data?: unknown }): void {
  const variables = payload.variables;
  if (!variables || !("afterSeq" in variables)) return;
  const seq = seqOf(result.data);
  if (seq !== null && (typeof variables.afterSeq !== "number" || seq > variables.afterSeq)) {
    variables.afterSeq = seq;
  }
}

import type { CombinedError } from "urql";

/** The `extensions.code` of each GraphQL error (UNAUTHENTICATED, FORBIDDEN, …). */
export function errorCodes(error: CombinedError | undefined | null): string[] {
  if (!error) return [];
  return error.graphQLErrors
    .map((e) => e.extensions?.code)
    .filter((code): code is string => typeof code === "string");
}

/** The first error's `extensions` value at `key`, when there is one. */
export function errorExtension(error: CombinedError | undefined | null, key: string): unknown {
  return error?.graphQLErrors[0]?.extensions?.[key];
}

/** Words for the user: the server's message and code, never a stack trace. */
export function errorWords(error: CombinedError): { message: string; code: string | null } {
  const first = error.graphQLErrors[0];
  if (first) {
    const code = first.extensions?.code;
    return { message: first.message, code: typeof code === "string" ? code : null };
  }
  return { message: "The server could not be reached.", code: null };
}

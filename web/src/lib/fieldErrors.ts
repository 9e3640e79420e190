/**
 * Server errors shown at the field they name: a VALIDATION_FAILED carries `extensions.field`
 * (docs/errors.md); the message's API names (`trialsPerCase`) are replaced by the words the
 * form shows ("Trials per case"), and the code stays out of it.
 */
import type { CombinedError } from "urql";
import { errorCodes, errorExtension } from "./errors";

/** The API field the first error names, if it is a VALIDATION_FAILED with one. */
export function errorField(error: CombinedError | null | undefined): string | null {
  if (!errorCodes(error ?? undefined).includes("VALIDATION_FAILED")) return null;
  const field = errorExtension(error, "field");
  return typeof field === "string" ? field : null;
}

/** An API message in the form's words: each `apiName` in backticks becomes its label. */
export function inWords(message: string, labels: Record<string, string>): string {
  return message.replace(/`([^`]+)`/g, (_, name: string) => {
    const top = name.replace(/\[\d+\].*$/, "").split(".").pop() ?? name;
    return labels[name] ?? labels[top] ?? name;
  });
}

/** The message for the field `name` (an API field) from `error`, in words; null otherwise. */
export function messageAt(
  error: CombinedError | null | undefined,
  name: string,
  labels: Record<string, string>,
): string | null {
  const field = errorField(error);
  if (!field || !error) return null;
  const top = field.replace(/\[\d+\].*$/, "");
  const last = top.split(".").pop();
  if (field !== name && top !== name && last !== name) return null;
  return inWords(error.graphQLErrors[0]?.message ?? "", labels);
}

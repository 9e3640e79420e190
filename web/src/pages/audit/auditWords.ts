/** An audit event in words: its action, its target, its details as label and value. */
import { jsonText } from "../../lib/jsonText";

function words(code: string): string {
  const spaced = code.replace(/[._]+/g, " ").trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}

/** "report.sign_off" → "Report: sign off"; the code stays what the filter takes. */
export function actionWords(action: string): string {
  const [subject, ...rest] = action.split(".");
  if (!rest.length) return words(action);
  return `${words(subject ?? "")}: ${rest.join(" ").replace(/_/g, " ").toLowerCase()}`;
}

/** "Experiment weekly" when the details name it, else the type in words ("Comparison"). */
export function targetWords(targetType: string | null | undefined, details: unknown): string {
  const type = targetType ? words(targetType) : "—";
  const name =
    details && typeof details === "object" && !Array.isArray(details)
      ? (details as Record<string, unknown>).name
      : undefined;
  return typeof name === "string" && name.trim() ? `${type} ${name}` : type;
}

/** The details as (label, value) pairs: a key in words, a value as text (untrusted). */
export function detailRows(details: unknown): [string, string][] {
  if (details === null || details === undefined) return [];
  if (typeof details !== "object" || Array.isArray(details)) return [["Details", jsonText(details)]];
  return Object.entries(details as Record<string, unknown>).map(([key, value]) => [
    words(key.replace(/([a-z0-9])([A-Z])/g, "$1 $2")),
    typeof value === "string" ? value : jsonText(value),
  ]);
}

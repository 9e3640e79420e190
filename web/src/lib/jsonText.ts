/** A JSON value from the API (a case input, an expected value, details) as plain text. */
export function jsonText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2);
}

/**
 * Reading a dataset file in the browser: JSONL (one case per line, the CLI's format) or CSV
 * (a header row; `datasetItemId`, `expected`, `split` and `tags` (separated by `;`) are the
 * case's own fields, an `input` column is the input text, and any other columns make the input
 * an object, e.g. `question` → `input.question`). Each case is checked as the server will check
 * it (server/datasets/cases.py), so bad lines are listed by number before anything is sent.
 */
import Papa from "papaparse";

export interface NumberedCase {
  /** The line of the file the case came from, 1-based (a CSV's header is line 1). */
  line: number;
  case: Record<string, unknown>;
}

export interface BadLine {
  line: number;
  reason: string;
}

export interface ReadFile {
  cases: NumberedCase[];
  bad: BadLine[];
}

const FIELDS = new Set(["datasetItemId", "input", "expected", "split", "tags"]);
const MAX_ITEM_ID = 200;

/** Why `value` is not a case, or null when the server will take it. */
export function caseProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "a case must be a JSON object";
  const c = value as Record<string, unknown>;
  const unknown = Object.keys(c).filter((k) => !FIELDS.has(k)).sort();
  if (unknown.length) return `unknown field "${unknown[0]}" (allowed: ${[...FIELDS].sort().join(", ")})`;
  const id = c.datasetItemId;
  if (typeof id !== "string" || id.length < 1 || id.length > MAX_ITEM_ID)
    return `datasetItemId must be text of 1 to ${MAX_ITEM_ID} characters`;
  if (!("input" in c) || c.input === null || c.input === undefined) return "input is missing";
  if (typeof c.input !== "string" && typeof c.input !== "object") return "input must be text, an object or a list of turns";
  if (c.split !== undefined && c.split !== "DEV" && c.split !== "HOLDOUT") return "split must be DEV or HOLDOUT";
  if (c.tags !== undefined && !(Array.isArray(c.tags) && c.tags.every((t) => typeof t === "string")))
    return "tags must be a list of texts";
  return null;
}

function checked(cases: NumberedCase[], bad: BadLine[]): ReadFile {
  const firstLine = new Map<string, number>();
  const good: NumberedCase[] = [];
  for (const numbered of cases) {
    const problem = caseProblem(numbered.case);
    if (problem) {
      bad.push({ line: numbered.line, reason: problem });
      continue;
    }
    const id = numbered.case.datasetItemId as string;
    const seen = firstLine.get(id);
    if (seen !== undefined) {
      bad.push({ line: numbered.line, reason: `datasetItemId "${id}" repeats line ${seen}` });
      continue;
    }
    firstLine.set(id, numbered.line);
    good.push(numbered);
  }
  bad.sort((a, b) => a.line - b.line);
  return { cases: good, bad };
}

export function readJsonl(text: string): ReadFile {
  const cases: NumberedCase[] = [];
  const bad: BadLine[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (!raw.trim()) return;
    try {
      cases.push({ line: index + 1, case: JSON.parse(raw) as Record<string, unknown> });
    } catch {
      bad.push({ line: index + 1, reason: "not valid JSON" });
    }
  });
  return checked(cases, bad);
}

export function readCsv(text: string): ReadFile {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: "greedy" });
  const bad: BadLine[] = [];
  const cases: NumberedCase[] = [];
  const columns = parsed.meta.fields ?? [];
  const inputColumns = columns.filter((c) => !FIELDS.has(c));
  if (!columns.includes("datasetItemId"))
    return { cases: [], bad: [{ line: 1, reason: "the header has no datasetItemId column" }] };
  if (!columns.includes("input") && inputColumns.length === 0)
    return { cases: [], bad: [{ line: 1, reason: "the header has no input column (input, or a column per variable)" }] };
  const errorRows = new Set(parsed.errors.map((e) => e.row));
  parsed.data.forEach((row, index) => {
    // Papa's rows count from 0 after the header; a row without newlines inside sits on line index + 2.
    const line = index + 2;
    if (errorRows.has(index)) {
      bad.push({ line, reason: "the row does not match the header's columns" });
      return;
    }
    const c: Record<string, unknown> = { datasetItemId: row.datasetItemId };
    if (columns.includes("input")) c.input = row.input;
    else c.input = Object.fromEntries(inputColumns.map((col) => [col, row[col] ?? ""]));
    if (row.expected) c.expected = row.expected;
    if (row.split) c.split = row.split.trim().toUpperCase();
    if (row.tags) c.tags = row.tags.split(";").map((t) => t.trim()).filter(Boolean);
    cases.push({ line, case: c });
  });
  return checked(cases, bad);
}

/** The file read by its name's ending: `.csv` as CSV, anything else as JSONL. */
export function readCaseFile(name: string, text: string): ReadFile {
  return name.toLowerCase().endsWith(".csv") ? readCsv(text) : readJsonl(text);
}

/**
 * The cases in chunks of at most `size` cases and, when `bytesOf` is given, at most `maxBytes`
 * (a case larger than that goes alone), each with the file position of its first case.
 */
export function chunks<T>(
  items: T[],
  size: number,
  maxBytes = Infinity,
  bytesOf: (item: T) => number = () => 0,
): { position: number; items: T[] }[] {
  const out: { position: number; items: T[] }[] = [];
  let current: { position: number; items: T[] } | null = null;
  let bytes = 0;
  items.forEach((item, i) => {
    const itemBytes = bytesOf(item);
    if (!current || current.items.length >= size || bytes + itemBytes > maxBytes) {
      current = { position: i, items: [] };
      out.push(current);
      bytes = 0;
    }
    current.items.push(item);
    bytes += itemBytes;
  });
  return out;
}

const encoder = new TextEncoder();

/** A case's size as JSON in a request body, in bytes. */
export function jsonBytes(value: unknown): number {
  return encoder.encode(JSON.stringify(value)).length;
}

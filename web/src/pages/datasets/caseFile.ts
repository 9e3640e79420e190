/**
 * Reading a dataset file in the browser, by the server's rule (server/datasets/case_file.py, the
 * reader `shipwise dataset import` uses; both checked against caseFile.examples.json): JSONL (one
 * case per line, the CLI's format) or CSV (a header row; `datasetItemId`, `expected`, `split` and
 * `tags` (separated by `;`) are the case's own fields, an `input` column is the input text, and
 * any other columns make the input an object, e.g. `question` → `input.question`). The name
 * decides (`.csv`; `.jsonl`, `.ndjson`, `.json`), else the first character (`{` is JSONL). A
 * file that is neither says what it is ("an Excel workbook: save it as CSV"), read from its first
 * bytes. Each case is checked as the server will check it (server/datasets/cases.py), so bad
 * lines are listed by number before anything is sent.
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
  /** What the whole file is when it is not cases: it completes "The file is …". */
  problem?: string;
}

/** The server's words for a file without cases (server/datasets/case_file.py). */
export const EMPTY = "empty";
export const HEADER_ONLY = "a CSV header with no cases below it";
const HEAD_BYTES = 4096;

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) =>
  prefix.every((b, i) => bytes[i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const contains = (bytes: Uint8Array, text: string) => {
  const wanted = ascii(text);
  for (let i = 0; i + wanted.length <= bytes.length; i++) {
    if (wanted.every((b, j) => bytes[i + j] === b)) return true;
  }
  return false;
};
const BOM = [0xef, 0xbb, 0xbf];
const blank = (b: number) => b === 0x20 || (b >= 0x09 && b <= 0x0d);
const SIGNATURES: [readonly number[], string][] = [
  [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], "an Excel 97–2003 workbook (or another Office file): save it as CSV"],
  [ascii("%PDF-"), "a PDF document: export the cases as CSV or JSONL"],
  [[0x1f, 0x8b], "compressed with gzip: decompress it first"],
  [ascii("PAR1"), "a Parquet file: export it as CSV or JSONL"],
  [ascii("SQLite format 3\0"), "a SQLite database: export the cases as CSV or JSONL"],
  [[0xff, 0xfe], "UTF-16 text: save it as UTF-8"],
  [[0xfe, 0xff], "UTF-16 text: save it as UTF-8"],
];

function withoutBom(bytes: Uint8Array): Uint8Array {
  return startsWith(bytes, BOM) ? bytes.subarray(3) : bytes;
}

/** What a file that is not a dataset is, from its first bytes; null for text. */
export function whatFile(bytes: Uint8Array): string | null {
  const head = bytes.subarray(0, HEAD_BYTES);
  if (startsWith(head, ascii("PK\x03\x04"))) {
    if (contains(head, "xl/")) return "an Excel workbook: save it as CSV";
    if (contains(head, "word/")) return "a Word document: a dataset is a CSV or JSONL file";
    if (contains(head, "content.xml") || contains(head, "opendocument")) return "an OpenDocument file: save it as CSV";
    return "a ZIP archive: unzip it and import the CSV or JSONL inside";
  }
  for (const [signature, said] of SIGNATURES) if (startsWith(head, signature)) return said;
  if (head.includes(0)) return "not text: a dataset is a CSV or JSONL file";
  const text = withoutBom(head);
  if (bytes.length < HEAD_BYTES && text.every(blank)) return EMPTY; // the server sees as much
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(text, { stream: text.length < bytes.length });
  } catch {
    return "not UTF-8 text: save it as UTF-8";
  }
  return null;
}

/** Whether the file is read as CSV: by its name's ending, else by its first character. */
export function isCsv(name: string, bytes: Uint8Array): boolean {
  const lowered = name.toLowerCase();
  if (lowered.endsWith(".csv")) return true;
  if ([".jsonl", ".ndjson", ".json"].some((e) => lowered.endsWith(e))) return false;
  const text = withoutBom(bytes.subarray(0, HEAD_BYTES));
  const first = text.find((b) => !blank(b));
  return first !== 0x7b; // "{"
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

interface CsvRow {
  /** The line the row starts on, 1-based (the header is line 1). */
  line: number;
  cells: string[];
  error?: string;
}

/** Every row of CSV text with the line it starts on (a quoted cell may hold newlines). */
function csvRows(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let counted = 0;
  let line = 1;
  let start = 0;
  Papa.parse<string[]>(text, {
    delimiter: ",",
    step: (result) => {
      // Papa's cursor ends a row before or after its line break: the row starts at the next
      // character that is not one.
      while (text[start] === "\r" || text[start] === "\n") start++;
      for (; counted < start; counted++) if (text[counted] === "\n") line++;
      const error = result.errors[0]?.message;
      rows.push({ line, cells: result.data, ...(error ? { error } : {}) });
      start = result.meta.cursor;
    },
  });
  return rows;
}

function csvCase(row: Record<string, string>, columns: string[]): Record<string, unknown> {
  const c: Record<string, unknown> = { datasetItemId: row.datasetItemId };
  if (columns.includes("input")) c.input = row.input;
  else c.input = Object.fromEntries(columns.filter((col) => !FIELDS.has(col)).map((col) => [col, row[col] ?? ""]));
  if (row.expected) c.expected = row.expected;
  if (row.split) c.split = row.split.trim().toUpperCase();
  if (row.tags) c.tags = row.tags.split(";").map((t) => t.trim()).filter(Boolean);
  return c;
}

export function readCsv(text: string): ReadFile {
  if (!text.trim()) return { cases: [], bad: [], problem: EMPTY };
  const [header, ...rows] = csvRows(text);
  const columns = header?.cells ?? [];
  if (!columns.includes("datasetItemId"))
    return { cases: [], bad: [{ line: 1, reason: "the header has no datasetItemId column" }] };
  if (!columns.includes("input") && columns.every((c) => FIELDS.has(c)))
    return { cases: [], bad: [{ line: 1, reason: "the header has no input column (input, or a column per variable)" }] };
  const bad: BadLine[] = [];
  const cases: NumberedCase[] = [];
  for (const { line, cells, error } of rows) {
    if (cells.every((cell) => !cell.trim())) continue;
    if (error) bad.push({ line, reason: `not valid CSV (${error})` });
    else if (cells.length !== columns.length) bad.push({ line, reason: "the row does not match the header's columns" });
    else cases.push({ line, case: csvCase(Object.fromEntries(columns.map((col, i) => [col, cells[i] ?? ""])), columns) });
  }
  if (cases.length === 0 && bad.length === 0) return { cases, bad, problem: HEADER_ONLY };
  return checked(cases, bad);
}

/** The file's bytes read by the server's rule: what it is when not cases, else CSV or JSONL. */
export function readCaseFile(name: string, bytes: Uint8Array): ReadFile {
  const problem = whatFile(bytes);
  if (problem) return { cases: [], bad: [], problem };
  const text = new TextDecoder().decode(bytes); // a leading byte-order mark is dropped
  return isCsv(name, bytes) ? readCsv(text) : readJsonl(text);
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

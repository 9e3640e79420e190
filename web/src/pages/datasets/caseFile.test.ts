import { describe, expect, it } from "vitest";
import { chunks, readCaseFile as readBytes, type ReadFile } from "./caseFile";
import examples from "./caseFile.examples.json";

const readCaseFile = (name: string, text: string): ReadFile => readBytes(name, new TextEncoder().encode(text));

interface Example {
  about: string;
  name: string;
  text?: string;
  base64?: string;
  cases?: { line: number; case: Record<string, unknown> }[];
  bad?: { line: number; reason: string };
  problem?: string;
}

/** The table server/datasets/case_file.py is checked on too (tests/server/datasets/test_case_file.py). */
describe("the server's rule (caseFile.examples.json)", () => {
  it.each((examples as Example[]).map((e) => [e.about, e] as const))("%s", (_, example) => {
    const bytes =
      example.base64 !== undefined
        ? Uint8Array.from(atob(example.base64), (c) => c.charCodeAt(0))
        : new TextEncoder().encode(example.text ?? "");
    const read = readBytes(example.name, bytes);
    expect(read.cases).toEqual(example.cases ?? []);
    expect(read.problem).toBe(example.problem);
    if (example.bad) {
      expect(read.bad[0]?.line).toBe(example.bad.line);
      expect(read.bad[0]?.reason.startsWith(example.bad.reason)).toBe(true);
    } else {
      expect(read.bad).toEqual([]);
    }
  });
});

describe("readCaseFile", () => {
  it("reads JSONL and lists bad lines by number", () => {
    const text = [
      '{"datasetItemId": "a", "input": "2+2", "expected": "4"}',
      "",
      "{not json",
      '{"datasetItemId": "b"}',
      '{"datasetItemId": "a", "input": "x"}',
      '{"datasetItemId": "c", "input": {"q": 1}, "split": "HOLDOUT", "tags": ["t"]}',
      '{"datasetItemId": "d", "input": "y", "colour": "red"}',
    ].join("\n");
    const read = readCaseFile("cases.jsonl", text);
    expect(read.cases.map((c) => [c.line, c.case.datasetItemId])).toEqual([
      [1, "a"],
      [6, "c"],
    ]);
    expect(read.bad).toEqual([
      { line: 3, reason: "not valid JSON" },
      { line: 4, reason: "input is missing" },
      { line: 5, reason: 'datasetItemId "a" repeats line 1' },
      { line: 7, reason: 'unknown field "colour" (allowed: datasetItemId, expected, input, split, tags)' },
    ]);
  });

  it("reads CSV: other columns make the input an object, tags split on ;", () => {
    const text = 'datasetItemId,question,expected,split,tags\nq1,"Capital of France, please?",Paris,holdout,geo; easy\nq2,Capital of Peru?,Lima,,\n,no id,x,,\n';
    const read = readCaseFile("cases.CSV", text);
    expect(read.cases).toEqual([
      {
        line: 2,
        case: {
          datasetItemId: "q1",
          input: { question: "Capital of France, please?" },
          expected: "Paris",
          split: "HOLDOUT",
          tags: ["geo", "easy"],
        },
      },
      { line: 3, case: { datasetItemId: "q2", input: { question: "Capital of Peru?" }, expected: "Lima" } },
    ]);
    expect(read.bad).toEqual([{ line: 4, reason: "datasetItemId must be text of 1 to 200 characters" }]);
  });

  it("refuses a CSV without an id column at line 1", () => {
    expect(readCaseFile("x.csv", "id,input\n1,a\n").bad).toEqual([
      { line: 1, reason: "the header has no datasetItemId column" },
    ]);
  });
});

describe("chunks", () => {
  it("keeps each chunk's position in the file", () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([
      { position: 0, items: [1, 2] },
      { position: 2, items: [3, 4] },
      { position: 4, items: [5] },
    ]);
  });

  it("starts a new chunk before one would pass its byte limit", () => {
    const sized = (n: number) => n;
    expect(chunks([4, 4, 4, 9, 1], 10, 10, sized)).toEqual([
      { position: 0, items: [4, 4] },
      { position: 2, items: [4] },
      { position: 3, items: [9, 1] },
    ]);
    expect(chunks([12, 1], 10, 10, sized)).toEqual([
      { position: 0, items: [12] },
      { position: 1, items: [1] },
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { actionWords, detailRows, targetWords } from "./auditWords";

describe("audit words", () => {
  it("says an action in words", () => {
    expect(actionWords("report.sign_off")).toBe("Report: sign off");
    expect(actionWords("experiment.create")).toBe("Experiment: create");
  });
  it("names the target by its name when the details hold one", () => {
    expect(targetWords("experiment", { name: "weekly" })).toBe("Experiment weekly");
    expect(targetWords("model_connection", {})).toBe("Model connection");
  });
  it("lists the details as labels and values", () => {
    expect(detailRows({ ownerId: "mem_1", cohorts: [1, 2] })).toEqual([
      ["Owner id", "mem_1"],
      ["Cohorts", "[\n  1,\n  2\n]"],
    ]);
    expect(detailRows(null)).toEqual([]);
  });
});

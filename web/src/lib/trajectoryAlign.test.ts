import { describe, expect, it } from "vitest";
import { alignSteps, type AlignableStep } from "./trajectoryAlign";

const tool = (name: string): AlignableStep => ({ kind: "TOOL", name: `execute_tool ${name}`, toolName: name });
const llm: AlignableStep = { kind: "LLM", name: "chat" };

describe("trajectory alignment", () => {
  it("keeps common steps in place and marks the rest", () => {
    const rows = alignSteps(
      [llm, tool("lookup"), tool("refund"), llm],
      [llm, tool("lookup"), tool("escalate"), llm, tool("notify")],
    );
    expect(rows.map((r) => r.mark)).toEqual([
      "SAME",
      "SAME",
      "DIFFERENT_TOOL",
      "SAME",
      "CANDIDATE_ONLY",
    ]);
    expect(rows[2]?.baseline?.toolName).toBe("refund");
    expect(rows[2]?.candidate?.toolName).toBe("escalate");
  });
  it("marks a step only one side took", () => {
    const rows = alignSteps([llm, tool("lookup"), llm], [llm, llm]);
    expect(rows.map((r) => r.mark)).toEqual(["SAME", "BASELINE_ONLY", "SAME"]);
    expect(alignSteps([], [])).toEqual([]);
  });
  it("marks matched model calls that ask for different tools", () => {
    const asks = (...names: string[]): AlignableStep => ({
      kind: "LLM",
      name: "chat",
      outputMessages: [{ toolCalls: names.map((name) => ({ name })) }],
    });
    const rows = alignSteps([asks("lookup"), asks()], [asks("refund"), asks()]);
    expect(rows.map((r) => r.mark)).toEqual(["DIFFERENT_CALLS", "SAME"]);
    expect(alignSteps([asks("a", "b")], [asks("a", "b")])[0]?.mark).toBe("SAME");
  });
});

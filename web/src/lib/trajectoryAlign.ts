/**
 * Two trajectories aligned step by step (docs/domain.md, "Trajectories in runs"): steps match
 * by their key (a tool step by its tool name, another by its kind and name) in order, the
 * longest common run of keys kept in place; the rest are a step on one side only, or, where
 * a tool step on each side stands unmatched at the same place, a differing tool. Two matched
 * model calls that ask for different tools (by name, in order) are marked too: a hosted
 * comparison's trial is one model call, its tool calls asked for and never run.
 * Shared by the run diff and the comparison's case dialog (`components/Trajectories.tsx`).
 */

export interface AlignableStep {
  kind: string;
  name: string;
  toolName?: string | null;
  outputMessages?: readonly { toolCalls: readonly { name: string }[] }[];
}

export type RowMark =
  | "SAME"
  | "BASELINE_ONLY"
  | "CANDIDATE_ONLY"
  | "DIFFERENT_TOOL"
  | "DIFFERENT_CALLS";

/** The names of the tools a step asks for, in order. */
export function askedTools(step: AlignableStep): string {
  return (step.outputMessages ?? []).flatMap((m) => m.toolCalls.map((c) => c.name)).join(",");
}

export interface AlignedRow<S> {
  baseline: S | null;
  candidate: S | null;
  mark: RowMark;
}

export function stepKey(step: AlignableStep): string {
  if (step.kind === "TOOL") return `TOOL ${step.toolName ?? step.name}`;
  if (step.kind === "LLM") return "LLM";
  return `${step.kind} ${step.name}`;
}

/** The rows of the two sides aligned (each side's steps in their order). */
export function alignSteps<S extends AlignableStep>(
  baseline: readonly S[],
  candidate: readonly S[],
): AlignedRow<S>[] {
  const a = baseline.map(stepKey);
  const b = candidate.map(stepKey);
  // Longest common subsequence lengths of the suffixes, row-major: at(i, j) for a[i..], b[j..].
  const width = b.length + 1;
  const table = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number): number => table[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const rows: AlignedRow<S>[] = [];
  let i = 0;
  let j = 0;
  for (;;) {
    const left = baseline[i];
    const right = candidate[j];
    if (left === undefined && right === undefined) break;
    if (left !== undefined && right !== undefined && a[i] === b[j]) {
      const same = askedTools(left) === askedTools(right);
      rows.push({ baseline: left, candidate: right, mark: same ? "SAME" : "DIFFERENT_CALLS" });
      i++;
      j++;
    } else if (left !== undefined && (right === undefined || at(i + 1, j) >= at(i, j + 1))) {
      rows.push({ baseline: left, candidate: null, mark: "BASELINE_ONLY" });
      i++;
    } else if (right !== undefined) {
      rows.push({ baseline: null, candidate: right, mark: "CANDIDATE_ONLY" });
      j++;
    }
  }
  return pairDifferingTools(rows);
}

/** A baseline-only tool step next to a candidate-only tool step: one row, a differing tool. */
function pairDifferingTools<S extends AlignableStep>(rows: AlignedRow<S>[]): AlignedRow<S>[] {
  const out: AlignedRow<S>[] = [];
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k];
    const next = rows[k + 1];
    if (row === undefined) continue;
    if (
      next !== undefined &&
      row.mark === "BASELINE_ONLY" &&
      next.mark === "CANDIDATE_ONLY" &&
      row.baseline?.kind === "TOOL" &&
      next.candidate?.kind === "TOOL"
    ) {
      out.push({ baseline: row.baseline, candidate: next.candidate, mark: "DIFFERENT_TOOL" });
      k++;
    } else {
      out.push(row);
    }
  }
  return out;
}

export const MARK_WORDS: Record<RowMark, string> = {
  SAME: "",
  BASELINE_ONLY: "only in the baseline",
  CANDIDATE_ONLY: "only in the candidate",
  DIFFERENT_TOOL: "a different tool",
  DIFFERENT_CALLS: "asks for different tools",
};

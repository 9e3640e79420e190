/** Enum values in words, wherever the portal shows one (never OPEN, CLUSTERED_CR1, …). */

const SPECIAL: Record<string, string> = {
  OPENAI_COMPATIBLE: "OpenAI-compatible",
  SIMULATED: "Simulated",
  READY: "Ready",
  UNREACHABLE: "Unreachable",
  UNVERIFIED: "Not checked yet",
  COUNT_AS_MISSING: "Count as missing and go on",
  FAIL_RUN: "Fail the run",
  COMPARISON_FINISHED: "Comparison finished",
  COMPARISON_REGRESSED: "Comparison regressed",
  RUN_REGRESSED: "Imported run regressed",
  PROMPT_TEMPLATE: "Prompt template",
  MODEL_CONFIG: "Model config",
  EVALUATION_SUITE: "Dataset",
  TOOL_SCHEMA: "Tool schema",
  CLUSTERED_CR1: "Clustered by case (CR1)",
  MCNEMAR_MID_P: "McNemar mid-p",
  SIGN_FLIP_PERMUTATION: "Sign-flip permutation test",
  PASS_FAIL: "Pass or fail",
  SCORE_0_1: "Score from 0 to 1",
  DEV: "Dev",
  HOLDOUT: "Holdout",
};

/** "OPENAI_COMPATIBLE" → "OpenAI-compatible"; any other → "Sentence case words". */
export function enumWords(value: string | null | undefined): string {
  if (!value) return "—";
  const special = SPECIAL[value];
  if (special) return special;
  const words = value.toLowerCase().replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a connection's status means, in a sentence; a simulated one has no provider to ask. */
export function connectionStatusWords(status: string, simulated = false): string {
  if (simulated && status !== "UNREACHABLE") {
    return "Ready: a simulated connection answers without a provider";
  }
  switch (status) {
    case "READY":
      return "Ready: the provider answered the last check";
    case "UNREACHABLE":
      return "Unreachable: the provider did not answer the last check";
    default:
      return "Not checked yet";
  }
}

/** A release's binding roles (prompt template, model config, …) and how they read. */
import type { BindingRole } from "../gql/graphql";

export const BINDING_ROLES: readonly BindingRole[] = [
  "PROMPT_TEMPLATE",
  "MODEL_CONFIG",
  "RUBRIC",
  "TOOLS",
];

const WORDS: Record<BindingRole, string> = {
  PROMPT_TEMPLATE: "Prompt template",
  MODEL_CONFIG: "Model config",
  RUBRIC: "Rubric",
  TOOLS: "Tools",
};

/** "Prompt template", "Model config", … */
export function bindingRoleWord(role: BindingRole): string {
  return WORDS[role];
}

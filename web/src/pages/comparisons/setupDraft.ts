/**
 * The setup panel's state as the person types it, and the `CreateComparisonInput` it makes.
 * Pure: the panel renders it, `comparisonPreview` and `createComparison` take its input.
 */
import type {
  AssetKind,
  BindingRole,
  CohortKind,
  CreateComparisonInput,
  Split,
} from "../../gql/graphql";
import { firstPolicyProblem, policyInput, type PolicyDraft } from "../../lib/shipPolicyDraft";

/** The checks the panel offers (the others need more fields: a schema, a tool, a rubric). */
export type OfferedCheck = "CONTAINS" | "EXACT_MATCH";

export interface OverrideDraft {
  key: number;
  role: BindingRole | "";
  assetVersionId: string;
}

export interface CohortDraft {
  key: number;
  kind: CohortKind;
  /** The release, or a variant's base release. */
  releaseId: string;
  label: string;
  overrides: OverrideDraft[];
}

export interface SetupDraft {
  cohorts: CohortDraft[];
  datasetId: string;
  datasetVersionId: string;
  label: string;
  /** The spinbuttons' text as typed: "" leaves an optional one out. */
  budgetCapCents: string;
  trialsPerCase: string;
  sampleSize: string;
  split: Split;
  checks: OfferedCheck[];
  /** The ship policy, prefilled with the workspace's default once read; null until then. */
  shipPolicy: PolicyDraft | null;
}

export const EMPTY_DRAFT: SetupDraft = {
  cohorts: [],
  datasetId: "",
  datasetVersionId: "",
  label: "",
  budgetCapCents: "",
  trialsPerCase: "3",
  sampleSize: "",
  split: "DEV",
  checks: ["CONTAINS"],
  shipPolicy: null,
};

/** The asset kind a binding role takes (server/releases/roles.py). */
const KIND_OF_ROLE: Record<BindingRole, AssetKind> = {
  PROMPT_TEMPLATE: "PROMPT_TEMPLATE",
  MODEL_CONFIG: "MODEL_CONFIG",
  RUBRIC: "RUBRIC",
  TOOLS: "TOOL_SCHEMA",
};

export function kindOfRole(role: BindingRole): AssetKind {
  return KIND_OF_ROLE[role];
}

/** The cohort group's name: "Cohort 1 (Candidate)", then "Cohort 2", … */
export function cohortGroupName(index: number): string {
  return index === 0 ? "Cohort 1 (Candidate)" : `Cohort ${index + 1}`;
}

export function addCohort(draft: SetupDraft, kind: CohortKind): SetupDraft {
  const key = Math.max(0, ...draft.cohorts.map((c) => c.key)) + 1;
  const cohort: CohortDraft = { key, kind, releaseId: "", label: "", overrides: [] };
  if (kind === "VARIANT") cohort.overrides = [{ key: 1, role: "", assetVersionId: "" }];
  return { ...draft, cohorts: [...draft.cohorts, cohort] };
}

export function addOverride(cohort: CohortDraft): CohortDraft {
  const key = Math.max(0, ...cohort.overrides.map((o) => o.key)) + 1;
  return { ...cohort, overrides: [...cohort.overrides, { key, role: "", assetVersionId: "" }] };
}

const WHOLE = /^\d+$/;
const AMOUNT = /^\d+(\.\d+)?$/;

/** The first thing still to choose or fix before the comparison can be previewed; null: none. */
export function missingChoice(draft: SetupDraft): string | null {
  if (draft.cohorts.length < 2 || !draft.datasetVersionId) return "Choose two cohorts and a dataset.";
  for (const [index, cohort] of draft.cohorts.entries()) {
    const name = cohortGroupName(index);
    if (!cohort.releaseId)
      return `Choose ${cohort.kind === "VARIANT" ? "a base release" : "a release"} for ${name}.`;
    if (cohort.overrides.some((o) => !o.role || !o.assetVersionId))
      return `Choose a role and an asset version for each override of ${name}, or remove it.`;
  }
  if (draft.checks.length === 0) return "Choose at least one check.";
  const problems = fieldProblems(draft);
  const policy = draft.shipPolicy ? firstPolicyProblem(draft.shipPolicy) : null;
  return problems.trialsPerCase ?? problems.sampleSize ?? problems.budgetCapCents ?? policy;
}

export type NumberField = "trialsPerCase" | "sampleSize" | "budgetCapCents";

/** What is wrong with each number the person typed, in words, shown at its field. */
export function fieldProblems(draft: SetupDraft): Partial<Record<NumberField, string>> {
  const problems: Partial<Record<NumberField, string>> = {};
  const trials = draft.trialsPerCase.trim();
  if (!/^[-−]?\d+$/.test(trials))
    problems.trialsPerCase = "Trials per case needs a whole number from 1 to 10.";
  else if (Number(trials.replace("−", "-")) < 1 || Number(trials) > 10)
    problems.trialsPerCase = "Trials per case must be from 1 to 10.";
  const sample = draft.sampleSize.trim();
  if (sample && (!WHOLE.test(sample) || Number(sample) < 1))
    problems.sampleSize = "Sample size needs a whole number of cases, or leave it empty for every case.";
  const cap = draft.budgetCapCents.trim();
  if (cap && Number(cap) < 0)
    problems.budgetCapCents = "A budget cap cannot be below zero: give an amount in cents, or leave it empty for no cap.";
  else if (cap && !AMOUNT.test(cap))
    problems.budgetCapCents = "Budget cap needs an amount in cents, e.g. 50 or 0.5, or leave it empty for no cap.";
  return problems;
}

/** The input for `comparisonPreview` and `createComparison`; null while a choice is missing. */
export function toInput(draft: SetupDraft): CreateComparisonInput | null {
  if (missingChoice(draft) !== null) return null;
  const sample = draft.sampleSize.trim();
  const cap = draft.budgetCapCents.trim();
  return {
    cohorts: draft.cohorts.map((c) => {
      const label = c.label.trim() || null;
      if (c.kind === "RELEASE") return { kind: "RELEASE", releaseId: c.releaseId, label };
      const overrides = c.overrides.map((o) => ({
        role: o.role as BindingRole,
        assetVersionId: o.assetVersionId,
      }));
      return { kind: "VARIANT", baseReleaseId: c.releaseId, overrides, label };
    }),
    datasetVersionId: draft.datasetVersionId,
    split: draft.split,
    trialsPerCase: Number(draft.trialsPerCase.trim()),
    checks: draft.checks.map((kind) => ({ kind })),
    sample: sample ? { size: Number(sample), seed: 0 } : null,
    budgetCapCents: cap ? Number(cap) : null,
    label: draft.label.trim() || null,
    shipPolicy: draft.shipPolicy ? policyInput(draft.shipPolicy) : null,
  };
}

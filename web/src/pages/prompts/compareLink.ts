/**
 * "Compare on a dataset": the New comparison link, prefilled (seed 002's entry points), and
 * reading it back into the setup panel's draft.
 *
 * `?release=A&release=B`: release cohorts, A the candidate. `?role=R&version=V[&version=W]
 * [&base=REL]`: a variant cohort per version (V the candidate) binding role R over the base
 * release; with one version, the base release itself is the baseline. A prompt's link carries
 * its gate settings: `dataset`, `split`, `trials`, `check`, and its ship policy if it has one
 * (`policyLink.ts`), which the form then starts from instead of the workspace's default.
 */
import type { BindingRole } from "../../gql/graphql";
import type { ShownPolicy } from "../../lib/shipPolicyDraft";
import { EMPTY_DRAFT, type CohortDraft, type OfferedCheck, type SetupDraft } from "../comparisons/setupDraft";
import { policyFromLink, policyQuery } from "./policyLink";

/** `dataset=first`: the form takes the first dataset with a sealed version. */
export const FIRST_DATASET = "first";

/** What a prompt's comparisons start from: its gate settings (or seed 002's defaults). */
export interface GateStart {
  datasetId: string | null;
  split: string;
  trialsPerCase: number;
  checks: unknown;
  /** Null (or not read): the workspace's default. */
  shipPolicy?: ShownPolicy | null;
}

const OFFERED: OfferedCheck[] = ["CONTAINS", "EXACT_MATCH"];

function gateQuery(q: URLSearchParams, gate: GateStart | null): void {
  q.set("dataset", gate?.datasetId ?? FIRST_DATASET);
  q.set("split", gate?.split ?? "DEV");
  q.set("trials", String(gate?.trialsPerCase ?? 3));
  const kinds = Array.isArray(gate?.checks)
    ? (gate.checks as { kind?: unknown }[]).map((c) => c.kind).filter((k): k is OfferedCheck => OFFERED.includes(k as OfferedCheck))
    : [];
  for (const kind of kinds.length ? kinds : ["CONTAINS"]) q.append("check", kind);
  if (gate?.shipPolicy) policyQuery(q, gate.shipPolicy);
}

const ROLES: BindingRole[] = ["PROMPT_TEMPLATE", "MODEL_CONFIG", "RUBRIC", "TOOLS"];

export function compareReleasesLink(releaseIds: string[]): string {
  const q = new URLSearchParams();
  for (const id of releaseIds) q.append("release", id);
  return `/comparisons/new?${q.toString()}`;
}

export function compareVersionsLink(
  role: BindingRole,
  versionIds: string[],
  baseReleaseId: string | null,
  gate?: GateStart | null,
): string {
  const q = new URLSearchParams({ role });
  for (const id of versionIds) q.append("version", id);
  if (baseReleaseId) q.set("base", baseReleaseId);
  if (gate !== undefined) gateQuery(q, gate);
  return `/comparisons/new?${q.toString()}`;
}

/** The setup draft a prefilled link asks for; the empty draft for any other query. */
export function draftFromLink(search: string): SetupDraft {
  const q = new URLSearchParams(search);
  const cohorts: CohortDraft[] = [];
  const base = q.get("base") ?? "";
  const role = q.get("role") as BindingRole | null;
  const releaseCohort = (releaseId: string): CohortDraft => ({
    key: cohorts.length + 1,
    kind: "RELEASE",
    releaseId,
    label: "",
    overrides: [],
  });
  for (const id of q.getAll("release")) cohorts.push(releaseCohort(id));
  if (role && ROLES.includes(role)) {
    for (const id of q.getAll("version"))
      cohorts.push({
        key: cohorts.length + 1,
        kind: "VARIANT",
        releaseId: base,
        label: "",
        overrides: [{ key: 1, role, assetVersionId: id }],
      });
    if (q.getAll("version").length === 1 && base) cohorts.push(releaseCohort(base));
  }
  const start: SetupDraft = { ...EMPTY_DRAFT, cohorts };
  const dataset = q.get("dataset");
  if (dataset) start.datasetId = dataset;
  if (q.get("split") === "HOLDOUT") start.split = "HOLDOUT";
  const trials = q.get("trials");
  if (trials && /^\d+$/.test(trials)) start.trialsPerCase = trials;
  const checks = q.getAll("check").filter((k): k is OfferedCheck => OFFERED.includes(k as OfferedCheck));
  if (checks.length) start.checks = checks;
  start.shipPolicy = policyFromLink(q);
  return start;
}

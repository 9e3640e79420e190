/**
 * "Compare on a dataset": the New comparison link, prefilled (seed 002's entry points), and
 * reading it back into the setup panel's draft.
 *
 * `?release=A&release=B`: release cohorts, A the candidate. `?role=R&version=V[&version=W]
 * [&base=REL]`: a variant cohort per version (V the candidate) binding role R over the base
 * release; with one version, the base release itself is the baseline.
 */
import type { BindingRole } from "../../gql/graphql";
import { EMPTY_DRAFT, type CohortDraft, type SetupDraft } from "../comparisons/setupDraft";

const ROLES: BindingRole[] = ["PROMPT_TEMPLATE", "MODEL_CONFIG", "RUBRIC", "TOOLS"];

export function compareReleasesLink(releaseIds: string[]): string {
  const q = new URLSearchParams();
  for (const id of releaseIds) q.append("release", id);
  return `/comparisons/new?${q.toString()}`;
}

export function compareVersionsLink(role: BindingRole, versionIds: string[], baseReleaseId: string | null): string {
  const q = new URLSearchParams({ role });
  for (const id of versionIds) q.append("version", id);
  if (baseReleaseId) q.set("base", baseReleaseId);
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
  return { ...EMPTY_DRAFT, cohorts };
}

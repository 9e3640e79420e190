"""Report operations over GraphQL, and finalized comparisons to report on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.kit.factories import ComparisonSetup, WorkspaceFixture, make_workspace
from bench.kit.harness import Backend, GraphQLResult
from bench.kit.scenarios import finalized, scripted_setup
from server.workspaces.roles import Role

GENERATE = """
mutation($id: ID!) { generateReport(comparisonId: $id) {
  id comparisonId version document documentSha256 pagePath isLatest createdAt
  signOff { id } } }
"""
REPORT = """
query($id: ID!) { report(id: $id) {
  id version document documentSha256 isLatest
  signOff { id decision verdict override overrideJustification openFollowUps resolvedFollowUps
            signerMemberId signerRole
            followUpStates(first: 100) { totalCount edges { node { followUpId state } } } }
  followUps(first: 100) { totalCount edges { node {
    id baselineCohortIndex caseOrdinal datasetItemId state note resolvedByMemberId resolvedAt
  } } } } }
"""
REPORTS = """
query($id: ID!) { comparison(id: $id) { verdict reports { id version isLatest } } }
"""
FOLLOW_UPS = """
query($id: ID!, $state: FollowUpState, $b: Int) { report(id: $id) {
  followUps(first: 100, state: $state, baselineCohortIndex: $b) { totalCount edges { node {
    id baselineCohortIndex datasetItemId state note resolvedByMemberId resolvedAt } } } } }
"""
RESOLVE = """
mutation($id: ID!, $note: String!) { resolveFollowUp(id: $id, note: $note) {
  id state note resolvedByMemberId resolvedAt } }
"""
RESOLVE_MANY = """
mutation($ids: [ID!]!, $note: String!) { resolveFollowUps(ids: $ids, note: $note) {
  id state note } }
"""
SIGN_OFF = """
mutation($id: ID!, $decision: SignOffDecision!, $override: Boolean!, $why: String) {
  signOff(reportId: $id, decision: $decision, override: $override,
          overrideJustification: $why) {
    id reportId decision verdict override overrideJustification openFollowUps
    resolvedFollowUps signerMemberId signerRole } }
"""
LINK = """
mutation($id: ID!, $hours: Int!) { reportLink(id: $id, expiresInHours: $hours) {
  url path expiresAt } }
"""
LINK_DEFAULT = "mutation($id: ID!) { reportLink(id: $id) { url path expiresAt } }"
SETTINGS = """
mutation { updateWorkspaceSettings(input: {allowSelfSignOff: true}) {
  settings { allowSelfSignOff } } }
"""
AUDIT = """
query($action: String) { auditEvents(first: 50, action: $action) {
  edges { node { action targetId actorRole details } } } }
"""

# 24 cases, one trial: the candidate fails the last 8 that both baselines pass, so each
# baseline has 8 worse cases (16 follow-ups in all); baseline 2 also fails the first 4.
CANDIDATE = ["P"] * 16 + ["F"] * 8
BASELINE_1 = ["P"] * 24
BASELINE_2 = ["F"] * 4 + ["P"] * 20
LABELS = ["v4", "v3", "v2", "v1"]
"""Cohort labels: the candidate v4 against v3 (and v2)."""


@dataclass
class Finalized:
    backend: Backend
    ws: WorkspaceFixture
    setup: ComparisonSetup
    comparison_id: str
    comparison: dict[str, Any]

    def token(self, role: Role) -> str:
        return self.ws.tokens[role]

    async def gql(
        self, query: str, variables: dict[str, Any] | None = None, *, role: Role = Role.MEMBER
    ) -> GraphQLResult:
        return await self.backend.gql(query, variables, token=self.token(role))

    async def generate(self, role: Role = Role.MEMBER) -> dict[str, Any]:
        data = (await self.gql(GENERATE, {"id": self.comparison_id}, role=role)).ok()
        report: dict[str, Any] = data["generateReport"]
        return report

    async def follow_ups(self, report_id: str, **filters: Any) -> list[dict[str, Any]]:
        data = (await self.gql(FOLLOW_UPS, {"id": report_id, **filters})).ok()
        return [e["node"] for e in data["report"]["followUps"]["edges"]]

    async def sign_off(
        self,
        report_id: str,
        decision: str,
        *,
        role: Role = Role.ADMIN,
        override: bool = False,
        why: str | None = None,
    ) -> GraphQLResult:
        variables = {"id": report_id, "decision": decision, "override": override, "why": why}
        return await self.gql(SIGN_OFF, variables, role=role)


async def finalized_comparison(
    backend: Backend,
    tensor: list[list[str]] | None = None,
    *,
    ws: WorkspaceFixture | None = None,
    **fields: Any,
) -> Finalized:
    """A comparison run by the workspace's MEMBER to its finalized scorecard."""
    ws = ws or await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(
        backend.sessionmaker,
        ws,
        tensor or [CANDIDATE, BASELINE_1, BASELINE_2],
        output_cents_per_million_tokens=1_000_000.0,
    )
    labels = LABELS[: len(setup.release_ids)]
    cohorts = [
        {"kind": "RELEASE", "releaseId": rid, "label": label}
        for rid, label in zip(setup.release_ids, labels, strict=True)
    ]
    comparison_id, comparison = await finalized(
        backend, setup, trialsPerCase=1, **({"label": "capitals", "cohorts": cohorts} | fields)
    )
    return Finalized(backend, ws, setup, comparison_id, comparison)

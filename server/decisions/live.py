"""A live comparison's decision (docs/live.md): its stored ship policy over the arms'
anytime-valid sequences (`stats/decision/live.py`), as the document a comparison's decision
is, in the words of traces rather than cases."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.decisions import document as decision_document
from server.decisions import policy as ship_policy_option
from stats.decision.live import LiveArm, decide_live
from stats.decision.policy import ShipPolicy
from stats.live.means import SequenceNow


def decide(
    *,
    candidate: LiveArm,
    baselines: Sequence[LiveArm],
    policy_document: dict[str, Any],
    running: Sequence[tuple[SequenceNow, SequenceNow]] | None = None,
) -> tuple[dict[str, Any], list[SequenceNow]]:
    """The decision document and each baseline's quality sequence (`running`: each
    baseline's quality and FAILED_OR_MISSING sequences kept up to date, `decide_live`)."""
    policy = engine_policy(policy_document)
    decision, sequences = decide_live(candidate, list(baselines), policy, running=running)
    labels = {index + 1: arm.release for index, arm in enumerate(baselines)}
    document = decision_document.to_document(
        decision, policy=policy, labels=labels, candidate=candidate.release
    )
    return _in_traces(document), sequences


def engine_policy(policy_document: dict[str, Any]) -> ShipPolicy:
    """The stored ship policy as the decision engine takes it."""
    return ship_policy_option.to_engine(ship_policy_option.from_document(policy_document))


def _in_traces(document: dict[str, Any]) -> dict[str, Any]:
    """The decision's sentence speaks of traces an arm, not usable cases."""
    sentence = str(document["sentence"])
    sentence = sentence.replace("usable cases would decide", "traces an arm would decide")
    sentence = sentence.replace("usable cases, and this run has", "traces an arm, and it has")
    document["sentence"] = sentence.replace("this run has", "it has")
    document["tracesNeeded"] = document.get("casesNeeded")
    return document

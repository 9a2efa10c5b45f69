"""Audit counts over influence decisions; accepted + stay + failed == actors x rounds always."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from mam_bench.protocol import OK_OUTCOMES, AuditEntry


def audit_counts(entries: Iterable[AuditEntry], actors: int, rounds: int, mismatches: int = 0) -> dict:
    entries = list(entries)
    by = Counter(e.outcome for e in entries)
    accepted = by.get("accepted", 0)
    stay = by.get("stay", 0)
    failed = sum(n for k, n in by.items() if k not in OK_OUTCOMES)
    return {
        "accepted": accepted,
        "stay": stay,
        "failed": failed,
        "outcomes": dict(sorted(by.items())),
        "policy_error": by.get("policy_error", 0),
        "mismatches": mismatches,
        "decisions": len(entries),
        "expected": actors * rounds,
        "identity_holds": accepted + stay + failed == actors * rounds,
    }

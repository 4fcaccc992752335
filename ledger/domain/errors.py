"""Domain errors: one base class, each refusal names the rule it enforces.

An error carries a `code` (what kind of refusal) and a `rule` (which rule or check refused),
never an HTTP status: the web layer maps codes to statuses (api/http/errors.py, STATUS_OF_CODE).
"""

from __future__ import annotations


class LedgerError(Exception):
    """A command the ledger refuses; nothing is appended."""

    code = "rule-violation"

    def __init__(self, message: str, *, rule: str, field: str | None = None, **extra: object):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.field = field
        self.extra = extra

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"rule": self.rule, "detail": self.message}
        if self.field:
            out["field"] = self.field
        out.update(self.extra)
        return out


class InvalidInput(LedgerError):
    """The command is malformed or names something that does not exist (card, player, type)."""

    code = "invalid-input"


class OutOfTurn(LedgerError):
    """The command is well formed but not what the table expects now."""

    code = "out-of-turn"


class SessionNotFound(LedgerError):
    code = "not-found"


class ConcurrencyConflict(LedgerError):
    """The stream moved on since the version the client expected."""

    code = "version-conflict"

    def __init__(self, current_version: int, expected_version: int):
        super().__init__(
            f"expected version {expected_version} but the session is at version {current_version}",
            rule="expected-version",
            current_version=current_version,
            expected_version=expected_version,
        )
        self.current_version = current_version
        self.expected_version = expected_version


class InvariantBroken(AssertionError):
    """A postcondition of the ledger itself failed: a bug, never the client's fault."""

"""One error type for every broken rule, so shells can report it uniformly."""

from __future__ import annotations


class RuleError(ValueError):
    """A rule of the game was broken.

    ``rule`` names the rule in words a floor supervisor recognises (with its
    RULEBOOK section); ``field`` names the input that broke it, when there is
    one, so the API can answer 400 with field errors and the calculator can
    point at the offending JSON path.
    """

    def __init__(self, message: str, *, rule: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.field = field

    def with_field(self, field: str) -> RuleError:
        """The same error, attributed to ``field`` (prefixing any inner field)."""
        inner = self.field
        if not inner:
            joined = field
        elif inner.startswith("["):
            joined = field + inner
        else:
            joined = f"{field}.{inner}"
        return RuleError(self.message, rule=self.rule, field=joined)

    def __str__(self) -> str:
        where = f"{self.field}: " if self.field else ""
        return f"{where}{self.message} [{self.rule}]"


class StateError(Exception):
    """An action not allowed in the current state (the API answers 409 and names the state)."""

    def __init__(self, message: str, *, state: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.state = state
        self.rule = rule

    def __str__(self) -> str:
        return self.message

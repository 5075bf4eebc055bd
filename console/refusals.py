"""The console's translator of a refusal: the message on the form, in the floor's words, with
the rule it names; the same text on the audit trail; the API's status (400 or 409)."""

from __future__ import annotations

from cardroom.errors import Refused, RuleError, StateError, describe


def heading(label: str) -> str:
    """The first line of a refused form: what was tried, as the action registry names it
    ("post the bank", "seat a called player"), never the action's identifier."""
    return f"Refused: {label}."


def refuse(request, form, error: RuleError | StateError | Refused, field: str | None = None) -> int:
    """Put ``error`` on ``form`` (on ``field`` for a broken rule, when the form has it) and
    answer the status the API answers: 400 for a broken rule, 409 for the wrong state."""
    if isinstance(error, Refused):
        error = error.error
    text = describe(error)
    is_rule = isinstance(error, RuleError)
    form.add_error(field if is_rule and field in form.fields else None, text)
    request.audit_message = text
    return 400 if is_rule else 409

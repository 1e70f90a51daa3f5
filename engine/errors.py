"""What the user got wrong, said as a message: the one error type front ends catch.

A question with a value out of range, an unknown GPU or precision, or a combination the models
cannot answer is not a bug: the user gets a short message saying what was wrong and what is
accepted, in their language. So the engine raises ``UserError(key, **args)`` — a message key and
plain values, like every other thing it says — and each front end renders ``.message``; anything
else that escapes the engine is a bug and is logged as one.
"""

from __future__ import annotations

from engine.message import Msg, Value, msg


class UserError(ValueError):
    """A mistake in the question, as ``key`` (a message in the catalogs) and its ``values``."""

    def __init__(self, key: str, /, **values: Value) -> None:
        super().__init__(key, values)
        self.key = key
        self.values = values

    @property
    def message(self) -> Msg:
        return msg(self.key, **self.values)

    def __str__(self) -> str:
        """The key and values, for logs (users see ``message`` rendered in their language)."""
        return f"{self.key} {self.values}" if self.values else self.key


def listed(values: tuple[str, ...] | list[str]) -> tuple[Msg, ...]:
    """Code tokens ("bf16", "lora") as a list the renderer joins in the user's language."""
    return tuple(msg("error.item", value=v) for v in values)

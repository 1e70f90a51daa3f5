"""Errors the store raises for the user who caused them, said as messages like every other word.

``StoreError`` is an ``engine.errors.UserError``: a key in ``data/locales/messages/store.yaml`` and
plain values (numbers, codes, names, the value as given; a list of known choices as a tuple of str,
joined the language's way), e.g. ``InvalidValue("store.error.unknown_currency", given="'XYZ'",
known=("USD", "EUR"))``. The bot's command error handler (``AdvisorTree.on_error``) shows
``.message`` in the user's language, and so does the CLI; ``str(error)`` is the English sentence,
for logs. Database failures are SQLAlchemy errors, never these.
"""

from __future__ import annotations

from engine.errors import UserError


class StoreError(UserError):
    """A request the store refuses; ``.message`` is the Msg to show the user, ``str()`` its English."""

    def __str__(self) -> str:
        from bot.words import english  # the catalogs load on first use, not when the store is imported

        try:
            return english(self.message)
        except (KeyError, ValueError):  # a log line must not fail: the key and values then
            return super().__str__()


class InvalidValue(StoreError):
    """A value out of range or of the wrong form (amount, currency, 'where', locale ...)."""


class LimitReached(StoreError):
    """A per-user limit, e.g. at most 3 price reports per GPU per user per day."""


class NotFound(StoreError):
    """No such row (or not in this server), e.g. removing a report that does not exist."""


def given(value: object, limit: int | None = None) -> str:
    """A value as the user gave it, quoted as Python does (``'abc'``, ``5``, ``None``), for a message.

    ``limit`` cuts a string (or the text of anything else) to that many characters first."""
    if limit is not None:
        return repr(str(value)[:limit])
    return repr(value)

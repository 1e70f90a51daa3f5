"""Errors the store raises with a message meant for the user who caused them.

``StoreError`` is a ``ValueError`` so the bot's command error handler (``AdvisorTree.on_error``)
shows its first argument as one clear line; database failures are SQLAlchemy errors, never these.
"""

from __future__ import annotations


class StoreError(ValueError):
    """A request the store refuses; ``str(error)`` is safe and useful to show to the user."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else self.__class__.__name__


class InvalidValue(StoreError):
    """A value out of range or of the wrong form (amount, currency, 'where', locale ...)."""


class LimitReached(StoreError):
    """A per-user limit, e.g. at most 3 price reports per GPU per user per day."""


class NotFound(StoreError):
    """No such row (or not in this server), e.g. removing a report that does not exist."""

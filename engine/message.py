"""Messages: what the engine says, as a key and plain values, never as a sentence.

The engine decides *what* to tell the user (a verdict, a caveat, a figure); the words, in the
user's language, are chosen at the edge (``bot.words`` renders a message from the catalogs in
``data/locales/messages/``). So a Chinese answer is written in Chinese from the same facts as an
English one, and a new sentence is a new key that a test checks exists in every language.

Values are plain: numbers, ids, dates, money, or nested messages (a workload's name, a verdict
inside a headline). A tuple of messages is a list the renderer joins in the user's language.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Union

from pydantic import BaseModel, ConfigDict

from engine.money import Money

Value = Union[bool, int, float, Decimal, str, dt.date, Money, "Msg", tuple[Union["Msg", str], ...], None]


@dataclass(frozen=True, slots=True)
class Msg:
    """One thing to say: ``key`` names the sentence in the message catalogs, ``args`` fill it.

    A slotted dataclass, not a pydantic model: an answer holds dozens of messages and the caches
    hold thousands of answers, and a model's instance dict and field set made each message ≈0.4 KB
    bigger (issue #24, docs/performance.md). The models that hold messages still validate them:
    pydantic passes a Msg through as it is and builds one from JSON (a ParseResult's notes read back)."""

    key: str
    args: dict[str, Value] = field(default_factory=dict)

    def __hash__(self) -> int:
        """Hashable like the frozen answers that hold it (answers are remembered and compared)."""
        return hash((self.key, tuple(sorted((k, _hashable(v)) for k, v in self.args.items()))))

    def __getitem__(self, name: str) -> Any:
        return self.args[name]

    def nested(self) -> Iterator[Msg]:
        """This message and the messages nested in its values (lists too), outermost first."""
        yield self
        for value in self.args.values():
            for item in value if isinstance(value, tuple) else (value,):
                if isinstance(item, Msg):
                    yield from item.nested()

    def all_keys(self) -> tuple[str, ...]:
        """This message's key and those of the messages nested in its values, outermost first."""
        return tuple(m.key for m in self.nested())


def _hashable(value: object) -> object:
    return value if not isinstance(value, dict) else tuple(sorted(value.items()))


def msg(key: str, /, **args: Value) -> Msg:
    """``msg("power.headline", count=4, gpu="RTX 3090", load_w=1550)``."""
    return Msg(key, args)


# ---- one set of given fields per distinct set, shared by frozen models ---------------------------

FIELD_SETS_SHARED = 1024  # distinct sets of given fields kept; a model with a set beyond them keeps its own
_FIELD_SETS: dict[frozenset[str], set[str]] = {}


def share_fields_set(model: BaseModel, context: Any = None, /) -> None:
    """A frozen model's ``model_post_init``: its set of the fields given (pydantic's per-instance
    ``__pydantic_fields_set__``, 216 bytes for up to 4 names, 728 for 5–18) becomes one set shared by
    every frozen model given the same fields (issue #24, docs/performance.md).

    Safe for frozen models only: pydantic adds to the set on assignment, which a frozen model refuses
    before it touches the set, and ``model_copy`` copies the set before it adds the updated names.
    The shared sets are this module's own copies, so a caller's ``model_construct(_fields_set=...)``
    set is never the shared one. :class:`Frozen` takes it as ``model_post_init``."""
    given = model.__pydantic_fields_set__
    shared = _FIELD_SETS.get(key := frozenset(given))
    if shared is None:
        if len(_FIELD_SETS) >= FIELD_SETS_SHARED:
            return
        shared = _FIELD_SETS[key] = set(key)
    object.__setattr__(model, "__pydantic_fields_set__", shared)


class Frozen(BaseModel):
    """Frozen, and its instances given the same fields share one set of them (issue #24): the base of the
    models engine.canrun, engine.answer and engine.calibration make by the thousand."""

    model_config = ConfigDict(frozen=True)

    def model_post_init(self, context: Any, /) -> None:
        share_fields_set(self, context)

"""A Query in under 100 characters and back, exactly: what a button carries.

Discord gives a button 100 characters of ``custom_id`` and nothing else; a button that redraws a
chart or records a vote must rebuild the very answer it sits under after a restart, on any shard.
So ``encode`` packs every field of a ``Query`` into bits — one presence bit per field, then each
stated value at a fixed width (a choice by its index, a number at the resolution Query keeps, a
GPU or model by a 24-bit hash of its catalog id) — and writes them as Base85 text; an unknown
model name follows as UTF-8, then one check byte. ``decode`` reverses it and validates through ``Query`` again.
``decode(encode(q)) == q`` for every valid Query (a property test). The queries questions produce take at most
48 characters (the corpus's 2,130); one with every field at its widest takes 88-89, past what a vote button leaves
(87), and bot.views sends that answer without its chart and vote buttons rather than rely on it never coming.

The layout is part of every button already posted: add new fields at the end of ``LAYOUT`` and new
choices at the end of their lists, never reorder (tests/engine/test_codec.py pins an encoding).
An appended field adds a presence bit, which can push the bits into one more byte and would shift
an unknown model's text after them, so the bits carry a version: the first layout's buttons start
with a 1 (``kind`` is always stated), later ones with a 0 and ``VERSION_BITS`` of the layout's
version, which says how many of ``LAYOUT``'s fields the button was written with.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from decimal import Decimal
from functools import cache
from typing import Any, get_args

from engine.catalog import load_catalog
from engine.cycles import Edition
from engine.errors import UserError
from engine.money import Money
from engine.query import BOUNDS, CHOICES, TOPICS, Query

ID_BITS = 24
COUNT_BITS = 13  # 0..8191 holds 1..4096
MAX_ITEMS_BITS = 3  # 0..7 holds up to BOUNDS["gpus"] entries
CURRENCY_LETTER_BITS = 5


@cache
def _precisions() -> tuple[str, ...]:
    from engine.memory import PRECISIONS

    return tuple(PRECISIONS)


def _code(identifier: str) -> int:
    return zlib.crc32(identifier.encode()) & ((1 << ID_BITS) - 1)


@cache
def _gpu_codes() -> dict[int, str]:
    return {_code(g): g for g in load_catalog().gpus}


@cache
def _model_codes() -> dict[int, str]:
    from engine.model_specs import load_model_catalog

    return {_code(m): m for m in load_model_catalog().ids()}


def _check(payload: bytes) -> bytes:
    """One check byte: a forged, truncated or foreign custom_id fails before it is read as a Query."""
    return bytes([zlib.crc32(payload) & 0xFF])


def _bits(n: int) -> int:
    return max(1, (n - 1).bit_length())


class _Writer:
    def __init__(self) -> None:
        self.value, self.size = 0, 0

    def put(self, value: int, bits: int) -> None:
        if not 0 <= value < 1 << bits:
            raise ValueError(f"{value} does not fit in {bits} bits")
        self.value = (self.value << bits) | value
        self.size += bits

    def to_bytes(self) -> bytes:
        pad = -self.size % 8
        return (self.value << pad).to_bytes((self.size + pad) // 8, "big")


class _Reader:
    def __init__(self, data: bytes, size: int) -> None:
        self.value, self.left = int.from_bytes(data, "big"), len(data) * 8
        self.size = size

    def take(self, bits: int) -> int:
        self.left -= bits
        if self.left < 0:
            raise ValueError("truncated")
        return (self.value >> self.left) & ((1 << bits) - 1)


def _scaled(step: Decimal, high: Decimal | int) -> tuple[Decimal, int]:
    return step, _bits(int(Decimal(high) / step) + 1)


# field → how its value is packed: ("choice", options) · ("bool",) · ("int", low, high) ·
# ("fixed", step, high) for numbers kept at a resolution · ("money",) · ("gpus",) · ("counts",) · ("model",)
LAYOUT: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("kind", ("choice", CHOICES["kind"])),
    ("task", ("choice", CHOICES["task"])),
    ("budget", ("money",)),
    ("min_memory_gb", ("fixed", Decimal("0.01"), BOUNDS["min_memory_gb"].high)),
    ("hours_per_day", ("fixed", Decimal("0.01"), BOUNDS["hours_per_day"].high)),
    ("num_gpus", ("int", BOUNDS["num_gpus"].low, BOUNDS["num_gpus"].high)),
    ("gpus", ("gpus",)),
    ("gpu_counts", ("counts",)),
    ("condition", ("choice", CHOICES["condition"])),
    ("cloud_interest", ("bool",)),
    ("model", ("model",)),
    ("workload", ("choice", CHOICES["workload"])),
    ("organization", ("bool",)),
    ("topic", ("choice", TOPICS)),  # the guide's topics
    ("power_limit_w", ("int", BOUNDS["power_limit_w"].low, BOUNDS["power_limit_w"].high)),
    ("mode", ("choice", CHOICES["mode"])),
    ("precision", ("choice", None)),  # engine.memory.PRECISIONS
    ("context_tokens", ("int", BOUNDS["context_tokens"].low, BOUNDS["context_tokens"].high)),
    ("desktop_usd", ("fixed", Decimal("0.01"), BOUNDS["desktop_usd"].high)),
    ("cloud_usd_per_hour", ("fixed", Decimal("0.0001"), BOUNDS["cloud_usd_per_hour"].high)),
    ("electricity_usd_per_kwh", ("fixed", Decimal("0.0001"), BOUNDS["electricity_usd_per_kwh"].high)),
    ("edition", ("choice", get_args(Edition))),
    ("tensor_cores", ("bool",)),
    ("tma", ("bool",)),
    ("objective", ("choice", CHOICES["objective"])),
    ("vendor", ("choice", CHOICES["vendor"])),
    ("cpu_only", ("bool",)),  # the last field of the first layout (version 0)
    ("psu_w", ("fixed", Decimal(10), BOUNDS["psu_w"].high)),  # PSUs come in steps of 10 W or more
    ("ran_out", ("bool",)),
    ("provider", ("choice", CHOICES["provider"])),
    ("offload", ("bool",)),
    ("vram_need_gb", ("fixed", Decimal("0.01"), BOUNDS["vram_need_gb"].high)),
    ("cloud_usd_per_month", ("fixed", Decimal("0.01"), BOUNDS["cloud_usd_per_month"].high)),
    ("deadline_hours", ("fixed", Decimal("0.01"), BOUNDS["deadline_hours"].high)),
)
VERSION_BITS = 2
# The last value VERSION_BITS can hold says "more version bits follow": layout 3 is written 11 then 0000, layout 4
# 11 then 0001, … (layouts 1 and 2 keep their two bits, so their buttons read as they were written).
EXTENDED = 2**VERSION_BITS - 1
EXTENSION_BITS = 4
# The last field of each layout version: version 0 (no version bits) ends at cpu_only. Whenever LAYOUT
# grows, append its new last field here; the new version is the last index.
LAST_FIELD_OF_VERSION = (
    "cpu_only",
    "psu_w",
    "ran_out",
    "provider",
    "offload",
    "vram_need_gb",
    "cloud_usd_per_month",
    "deadline_hours",
)
FIELDS_IN_VERSION = tuple([name for name, _ in LAYOUT].index(last) + 1 for last in LAST_FIELD_OF_VERSION)
VERSION = len(FIELDS_IN_VERSION) - 1
BUDGET_CENTS_BITS = _bits(int(BOUNDS["budget"].high) * 100 + 1)


def _options(name: str, spec: tuple[Any, ...]) -> tuple[str, ...]:
    if spec[1] is not None:
        return tuple(spec[1])
    return _precisions()  # precision, whose names engine.memory holds (imported when first needed)


def _stated(value: Any) -> bool:
    return value is not None and value != ()


def encode(query: Query) -> str:
    """``query`` as printable ASCII characters (Base85): 48 at most for the corpus's questions (module doc).

    The bits are those of ``_Writer.put`` field by field, written into one integer here, each field read
    through a plan made once from ``LAYOUT`` (``_plan``): ≈17 µs a charted answer's query, most of it
    calls and the layout read again (issue #24); the checks are ``put``'s (``_fits``)."""
    value, size = _VERSION_START  # a 0 (not the first layout), then its version
    text = b""
    fields = query.__dict__  # a pydantic model's field values: a dict look-up, not an attribute's
    for name, kind, arg, bits in _plan():
        item = fields[name]
        if item is None or item == ():  # not _stated
            value <<= 1
            size += 1
            continue
        if kind == "choice":
            if arg is None:  # precision
                arg, bits = _precision_indexes(), _bits(len(_precisions()))
            index = arg.get(item)
            if index is None:
                raise ValueError(f"{item!r} is not in list")
            value = (((value << 1) | 1) << bits) | _fits(index, bits)
        elif kind == "bool":
            value = (((value << 1) | 1) << 1) | _fits(int(item), 1)  # bits: 1
        elif kind == "int":
            value = (((value << 1) | 1) << bits) | _fits(item - arg, bits)
        elif kind == "fixed":
            value = (((value << 1) | 1) << bits) | _fits(int(Decimal(str(item)) / arg), bits)
        else:
            out = _Writer()
            out.value, out.size = (value << 1) | 1, 0
            _put_other(out, kind, item)
            if kind == "model" and not _known_model(item):
                text = item.encode()
            value, size = out.value, size + 1 + out.size
            continue
        size += 1 + bits
    pad = -size % 8
    payload = (value << pad).to_bytes((size + pad) // 8, "big") + text
    return base64.b85encode(payload + _check(payload)).decode()


def _version_bits() -> tuple[int, int]:
    """The bits that start a button of this layout (after its leading 0), as (value, size)."""
    if VERSION < EXTENDED:
        return VERSION, 1 + VERSION_BITS
    return (EXTENDED << EXTENSION_BITS) | (VERSION - EXTENDED), 1 + VERSION_BITS + EXTENSION_BITS


_VERSION_START = _version_bits()


def _fits(value: int, bits: int) -> int:
    if not 0 <= value < 1 << bits:
        raise ValueError(f"{value} does not fit in {bits} bits")
    return value


def _known_model(model: str) -> bool:
    codes = _model_codes()
    return codes.get(_code(model)) == model


def _put_other(out: _Writer, kind: str, value: Any) -> None:
    """A value of a kind with more than one part, as ``encode`` wrote it field by field."""
    if kind == "money":
        for letter in value.currency:
            out.put(ord(letter) - ord("A"), CURRENCY_LETTER_BITS)
        out.put(int(value.amount * 100), BUDGET_CENTS_BITS)
    elif kind == "gpus":
        out.put(len(value), MAX_ITEMS_BITS)
        for gpu in value:
            out.put(_code(gpu), ID_BITS)
    elif kind == "counts":
        out.put(len(value), MAX_ITEMS_BITS)
        for count in value:
            out.put(count - 1, COUNT_BITS)
    elif kind == "model":
        known = _known_model(value)
        out.put(int(known), 1)
        if known:
            out.put(_code(value), ID_BITS)


@cache
def _plan() -> tuple[tuple[str, str, Any, int], ...]:
    """``LAYOUT`` as ``encode`` reads it: (field, kind, argument, bits) — a choice's index of each option
    (None for precision, whose options load with engine.memory: ``_precision_indexes``), an int's low
    bound, a fixed number's step."""
    plan: list[tuple[str, str, Any, int]] = []
    for name, spec in LAYOUT:
        kind = spec[0]
        if kind == "choice":
            options = spec[1]
            if options is None:
                plan.append((name, kind, None, 0))
                continue
            plan.append((name, kind, _indexes(tuple(options)), _bits(len(options))))
        elif kind == "bool":
            plan.append((name, kind, None, 1))
        elif kind == "int":
            plan.append((name, kind, spec[1], _bits(spec[2] - spec[1] + 1)))
        elif kind == "fixed":
            step, bits = _scaled(spec[1], spec[2])
            plan.append((name, kind, step, bits))
        else:
            plan.append((name, kind, None, 0))
    return tuple(plan)


def _indexes(options: tuple[str, ...]) -> dict[str, int]:
    """Each option's first index, as ``tuple.index`` finds it."""
    out: dict[str, int] = {}
    for i, option in enumerate(options):
        out.setdefault(option, i)
    return out


@cache
def _precision_indexes() -> dict[str, int]:
    return _indexes(_precisions())


def decode(text: str) -> Query:
    """The Query ``encode`` wrote; a ``UserError`` for text that is not one (an old or forged button)."""
    try:
        data = base64.b85decode(text)
        if len(data) < 2 or _check(data[:-1]) != data[-1:]:
            raise ValueError("not an encoded query")
        return Query(**_fields(data[:-1]))
    except (ValueError, KeyError, IndexError, binascii.Error) as exc:
        if isinstance(exc, UserError):
            raise
        raise UserError("error.stale_button") from None


def _fields(data: bytes) -> dict[str, Any]:
    reader = _Reader(data, len(data))
    fields: dict[str, Any] = {}
    text_follows = False
    first = reader.take(1)  # 1: the first layout, where it was kind's presence bit
    version = 0 if first else reader.take(VERSION_BITS)
    if version == EXTENDED:
        version += reader.take(EXTENSION_BITS)
    if version >= len(FIELDS_IN_VERSION) or (version == 0 and not first):
        raise ValueError("a layout this version does not know")
    for index, (name, spec) in enumerate(LAYOUT[: FIELDS_IN_VERSION[version]]):
        if not (first if index == 0 and version == 0 else reader.take(1)):
            continue
        kind = spec[0]
        if kind == "choice":
            options = _options(name, spec)
            fields[name] = options[reader.take(_bits(len(options)))]
        elif kind == "bool":
            fields[name] = bool(reader.take(1))
        elif kind == "int":
            fields[name] = reader.take(_bits(spec[2] - spec[1] + 1)) + spec[1]
        elif kind == "fixed":
            step, bits = _scaled(spec[1], spec[2])
            number = reader.take(bits) * step
            fields[name] = float(number) if name in ("min_memory_gb", "hours_per_day") else number
        elif kind == "money":
            currency = "".join(chr(reader.take(CURRENCY_LETTER_BITS) + ord("A")) for _ in range(3))
            fields[name] = Money(amount=Decimal(reader.take(BUDGET_CENTS_BITS)) / 100, currency=currency)
        elif kind == "gpus":
            fields[name] = tuple(_gpu_codes()[reader.take(ID_BITS)] for _ in range(reader.take(MAX_ITEMS_BITS)))
        elif kind == "counts":
            fields[name] = tuple(reader.take(COUNT_BITS) + 1 for _ in range(reader.take(MAX_ITEMS_BITS)))
        elif kind == "model":
            if reader.take(1):
                fields[name] = _model_codes()[reader.take(ID_BITS)]
            else:
                text_follows = True
    if text_follows:
        used = (len(data) * 8 - reader.left + 7) // 8
        fields["model"] = data[used:].decode()
    return fields

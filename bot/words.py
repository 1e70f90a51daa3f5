"""Messages → words: the one place a message key becomes a sentence in the user's language.

The catalogs are ``data/locales/messages/*.yaml``, one mapping per file: a key, then its template
in each language (``en``, ``zh-Hant``, ``zh-Hans``) side by side, so a translator sees all three
at once. Templates use Python's format syntax (the "python-brace-format" of gettext): ``{gb:.1f}``
formats a number; ``{price}`` a Money; ``{date}`` a date as ISO and ``{date:month}`` as "Sep 2026"
/ "2026年9月" (CLDR patterns through Babel); a nested message is rendered in the same language; a
tuple is a list joined in the language's way (``{parts}`` with commas, ``{parts:or}`` /
``{parts:and}`` with its words, ``{parts:sentences}`` as consecutive sentences). Every key exists
in every language with the same fields: checked when the catalogs load, and by tests against every
key the engine emits.
"""

from __future__ import annotations

import datetime as dt
import re
import string
from functools import cache, lru_cache
from typing import Any

from babel.dates import format_skeleton

from bot.locales import LANGS, Lang
from engine.datafiles import DataError, data_dir, read_yaml
from engine.message import Msg
from engine.money import Money

_BABEL = {"en": "en", "zh-Hant": "zh_Hant", "zh-Hans": "zh_Hans"}
_LIST = {  # separators for a tuple of messages: plain, "or", "and"
    "en": {"": ", ", "or": " or ", "and": " and ", "sentences": " "},
    "zh-Hant": {"": "、", "or": "或", "and": "和", "sentences": ""},
    "zh-Hans": {"": "、", "or": "或", "and": "和", "sentences": ""},
}


def _fields(template: str) -> frozenset[str]:
    return frozenset(name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name)


@cache
def catalog() -> dict[str, dict[str, str]]:
    """Every message: ``{key: {lang: template}}``, checked once: all languages, the same fields."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted((data_dir() / "locales" / "messages").glob("*.yaml")):
        for key, templates in (read_yaml(path) or {}).items():
            if key in out:
                raise DataError(f"{path.name}: message {key!r} is defined twice")
            missing = [lang for lang in LANGS if not isinstance((templates or {}).get(lang), str)]
            if missing:
                raise DataError(f"{path.name}: message {key!r} has no text for {', '.join(missing)}")
            english = _fields(templates["en"])
            for lang in LANGS[1:]:
                if _fields(templates[lang]) != english:
                    raise DataError(
                        f"{path.name}: message {key!r} in {lang} has fields "
                        f"{sorted(_fields(templates[lang]))}, English has {sorted(english)}"
                    )
            out[key] = {lang: templates[lang] for lang in LANGS}
    return out


@cache
def _citations() -> dict[str, str]:
    """English citation text → its key in the catalog (``cite.*``, data/locales/messages/citations.yaml)."""
    return {templates["en"]: key for key, templates in catalog().items() if key.startswith("cite.")}


def citation(source: str, lang: Lang) -> str:
    """A rule's source in the reader's language: a citation of the guide or the docs from the catalog;
    anything else (a URL, a repository, a vendor's page) as written."""
    key = _citations().get(source)
    return catalog()[key][lang] if key else source


_URL = re.compile(r"https?://[^\s)）,，]+")


def spec_source(source: str, lang: Lang) -> str:
    """A spec's source as a reader of ``lang`` sees it: in English as written; in another language its links alone
    where it has any ("Required system power 650 W, NVIDIA's figure as reported by https://… (Newegg Insider, …)"
    is English prose around the link), else its title (a document's or a repository's name) without its gloss."""
    if lang == "en":
        return source
    links = _URL.findall(source)
    if links:
        return " · ".join(link.rstrip(".;'\"") for link in links)
    return _GLOSS.split(source, maxsplit=1)[0]  # the title, without the English gloss after it


_GLOSS = re.compile(r"\s+\(|\s+as reported by\s")


class _Date:
    def __init__(self, value: dt.date, lang: Lang) -> None:
        self.value, self.lang = value, lang

    def __format__(self, spec: str) -> str:
        if spec == "month":
            return _month(self.value, self.lang)
        return self.value.isoformat()


@lru_cache(maxsize=256)
def _month(value: dt.date, lang: Lang) -> str:
    """ "Sep 2026" / "2026年9月": Babel takes ≈25 µs a date, and an answer's dates are its price snapshots'
    and a few launch dates, the same from answer to answer (issue #24). A date never equals a datetime, so
    no datetime is answered from a date's entry."""
    return format_skeleton("yMMM", value, locale=_BABEL[lang])


class _Money:
    def __init__(self, value: Money) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return self.value.format()


class _List:
    def __init__(self, items: tuple[str, ...], lang: Lang) -> None:
        self.items, self.lang = items, lang

    def __format__(self, spec: str) -> str:
        if spec in ("or", "and") and len(self.items) > 1:
            return _LIST[self.lang][""].join(self.items[:-1]) + _LIST[self.lang][spec] + self.items[-1]
        return _LIST[self.lang].get(spec, _LIST[self.lang][""]).join(self.items)


# Values a template formats as they are: most of a message's values. Looked up by exact type before the
# isinstance checks below, which a number or a name otherwise went through one by one, and before a call
# (``render`` calls nothing for them; issue #24).
_PLAIN = frozenset({str, int, float, bool})


def _value(value: Any, lang: Lang) -> Any:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Msg):
        return render(value, lang)
    if isinstance(value, tuple):
        return _List(tuple(str(_value(v, lang)) for v in value), lang)
    if isinstance(value, Money):
        return _Money(value)
    if isinstance(value, dt.date):
        return _Date(value, lang)
    if value is None:
        return ""
    return value


def render(message: Msg, lang: Lang = "en") -> str:
    """``message`` as a sentence in ``lang``. A key missing from the catalogs is a bug (tests
    check every key the engine emits), so it raises KeyError rather than showing the key."""
    template = catalog()[message.key][lang]
    args = message.args
    if not args:
        return template
    values: dict[str, Any] = {}
    for name, v in args.items():
        kind = type(v)
        if kind in _PLAIN and name != "source":
            values[name] = v
        elif kind is Msg:  # a nested message (a verdict in a headline): rendered here, not through _argument
            values[name] = render(v, lang)  # type: ignore[arg-type]  # type(v) is Msg
        else:
            values[name] = _argument(name, v, lang)
    if "low" in args:
        template = _one_ended(template, values)
    return template.format_map(values)


# a range in a template ("~{low:.0f}-{high:.0f} tokens/s", "{total_low:.0f}-{total_high:.0f} h")
_RANGE = re.compile(r"\{(?P<low>\w*low):(?P<spec>\.\d+f)\}-\{(?P<high>\w*high):(?P=spec)\}")


def _one_ended(template: str, values: dict[str, Any]) -> str:
    """A range whose ends read the same once rounded ("~3-3 tokens/s") said as the one figure ("~3 tokens/s")."""

    def one(m: re.Match[str]) -> str:
        low, high, spec = values.get(m["low"]), values.get(m["high"]), m["spec"]
        if isinstance(low, (int, float)) and isinstance(high, (int, float)) and f"{low:{spec}}" == f"{high:{spec}}":
            return "{" + m["low"] + ":" + spec + "}"
        return m.group()

    return _RANGE.sub(one, template)


def _argument(name: str, value: Any, lang: Lang) -> Any:
    """A message's value as its template formats it. A source named in a sentence ("Cloud price: …,
    {source}") reads in the reader's language where the citations catalog has it, as a rule's source does."""
    if name == "source" and isinstance(value, str):
        return citation(value, lang)
    return _value(value, lang)


def say(lang: Lang, key: str, **values: Any) -> str:
    """The catalog's words for ``key`` in ``lang`` with ``values`` filled in: the bot's own words
    (titles, headers, buttons, errors), which have no Msg of their own."""
    template = catalog()[key][lang]
    return template.format_map({name: _value(v, lang) for name, v in values.items()}) if values else template


def english(message: Msg) -> str:
    """``message`` in English: for logs, stored headlines and tests that read the words."""
    return render(message, "en")


def keys() -> frozenset[str]:
    return frozenset(catalog())

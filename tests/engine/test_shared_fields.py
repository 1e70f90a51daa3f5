"""Frozen models given the same fields share one set of them (issue #24, docs/performance.md
"Thirteenth session: memory (helper)"): the engine's answers, verdicts and calibrations read as before."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from engine import answer, calibration, canrun, message
from engine.catalog import load_catalog
from engine.message import msg


def _rules() -> tuple[answer.Rule, answer.Rule, answer.Rule]:
    return (
        answer.Rule(id="a", text=msg("x")),
        answer.Rule(id="b", text=msg("y", n=1)),
        answer.Rule(id="c", text=msg("z"), source="a guide"),
    )


def test_two_instances_given_the_same_fields_share_one_set():
    a, b, with_source = _rules()
    assert a.model_fields_set == b.model_fields_set == {"id", "text"}
    assert a.model_fields_set is b.model_fields_set
    assert with_source.model_fields_set == {"id", "text", "source"}
    assert with_source.model_fields_set is not a.model_fields_set
    # another frozen model given the same names shares it too, across the three modules' bases
    speed = canrun.SpeedRange(low=1, high=2, bound=3, unit="tok/s", basis=msg("b"))
    again = canrun.SpeedRange(low=4, high=5, bound=6, unit="img/s", basis=msg("c"))
    assert speed.model_fields_set is again.model_fields_set
    util = calibration.Utilisation(low=0.1, point=0.2, high=0.3, basis="all", rows=3)
    assert util.model_fields_set is calibration.Utilisation(**dict(util)).model_fields_set


def test_the_shared_set_is_not_one_a_caller_holds():
    fields = {"id", "text"}
    built = answer.Rule.model_construct(fields, id="q", text=msg("x"))
    assert built.model_fields_set == fields and built.model_fields_set is not fields
    fields.add("source")  # the caller's set may change; the shared one does not
    assert built.model_fields_set == {"id", "text"} == _rules()[0].model_fields_set


def test_model_copy_with_an_update_leaves_the_shared_set_alone():
    a, b, _ = _rules()
    shared = a.model_fields_set
    copied = a.model_copy(update={"source": "elsewhere"})
    assert copied.source == "elsewhere" and a.source == ""
    assert copied.model_fields_set == {"id", "text", "source"}
    assert a.model_fields_set is shared is b.model_fields_set and shared == {"id", "text"}
    assert a.model_copy().model_fields_set == shared
    assert a.model_copy(deep=True) == a


def test_frozen_models_still_refuse_assignment_and_keep_their_set():
    a, _, _ = _rules()
    with pytest.raises(ValidationError):
        a.source = "x"  # type: ignore[misc]
    assert a.model_fields_set == {"id", "text"}


def test_json_round_trip_keeps_what_was_given_and_the_value():
    _, _, with_source = _rules()
    back = answer.Rule.model_validate_json(with_source.model_dump_json())
    assert back == with_source and back.model_fields_set is with_source.model_fields_set
    unset = answer.Rule.model_validate_json(_rules()[0].model_dump_json(exclude_unset=True))
    assert unset.model_fields_set == {"id", "text"}


def _models(value: object, out: list[BaseModel]) -> list[BaseModel]:
    if isinstance(value, BaseModel):
        out.append(value)
        for name in type(value).model_fields:
            _models(getattr(value, name), out)
    elif isinstance(value, tuple | list):
        for item in value:
            _models(item, out)
    return out


def test_the_engine_answers_models_share_their_sets():
    from bot.chat import respond, understand
    from engine.advisor import AdviceContext

    load_catalog()
    found: list[BaseModel] = []
    for text in ("can I run llama 3.1 8b on an rtx 4090 or a 3060?", "best gpu for stable diffusion under $800"):
        _models(respond(understand(text, None, "USD"), AdviceContext()), found)
    ours = [m for m in found if isinstance(m, answer.Frozen | canrun.Frozen | calibration.Frozen)]
    assert len(ours) > 10
    by_fields: dict[frozenset[str], set[int]] = {}
    for m in ours:
        by_fields.setdefault(frozenset(m.model_fields_set), set()).add(id(m.model_fields_set))
    assert all(len(ids) == 1 for ids in by_fields.values())
    assert len(by_fields) < len(ours)


def test_beyond_the_bound_a_model_keeps_its_own_set(monkeypatch):
    monkeypatch.setattr(message, "_FIELD_SETS", {})
    monkeypatch.setattr(message, "FIELD_SETS_SHARED", 1)
    a, b, with_source = _rules()
    assert a.model_fields_set is b.model_fields_set
    other = answer.Rule(id="d", text=msg("w"), source="s")
    assert other.model_fields_set == with_source.model_fields_set
    assert other.model_fields_set is not with_source.model_fields_set  # the second set is not kept

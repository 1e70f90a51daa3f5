"""encode/decode: every valid Query survives a button's custom_id exactly, and the longest fits."""

from __future__ import annotations

import base64
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.catalog import load_catalog
from engine.codec import LAYOUT, _code, decode, encode
from engine.errors import UserError
from engine.memory import PRECISIONS
from engine.model_specs import load_model_catalog
from engine.money import Money
from engine.query import BOUNDS, CHOICES, MODEL_TEXT_BYTES, TOPICS, Query

# The longest a button puts before the encoded query (bot.views: "ga:chart:s:", "ga:vote:down:").
PREFIX = len("ga:vote:down:")
GPUS = sorted(load_catalog().gpus)
MODELS = load_model_catalog().ids()


def _fixed(step: str, high: int | Decimal, low: str = "0") -> st.SearchStrategy[Decimal]:
    scale = Decimal(step)
    return st.integers(int(Decimal(low) / scale), int(Decimal(high) / scale)).map(lambda n: n * scale)


def _hundredths(low: float, high: float) -> st.SearchStrategy[float]:
    return st.floats(low, high, allow_nan=False).map(lambda x: round(x, 2))


queries = st.builds(
    lambda gpus, counts, **fields: _valid(lambda: Query(gpus=gpus, gpu_counts=counts[: len(gpus)], **fields)),
    gpus=st.lists(st.sampled_from(GPUS), max_size=4).map(tuple),
    counts=st.lists(st.integers(1, int(BOUNDS["gpu_counts"].high)), max_size=4).map(tuple),
    kind=st.sampled_from(CHOICES["kind"]),
    task=st.none() | st.sampled_from(CHOICES["task"]),
    budget=st.none()
    | st.builds(
        lambda cents, cur: Money(amount=Decimal(cents) / 100, currency=cur),
        st.integers(1, int(BOUNDS["budget"].high) * 100),
        st.sampled_from(["USD", "EUR", "CNY", "TWD", "JPY", "KRW", "GBP"]),
    ),
    min_memory_gb=st.none() | _hundredths(0.01, 4096),
    hours_per_day=st.none() | _hundredths(0, 24),
    num_gpus=st.none() | st.integers(1, int(BOUNDS["num_gpus"].high)),
    condition=st.none() | st.sampled_from(CHOICES["condition"]),
    cloud_interest=st.none() | st.booleans(),
    model=st.none() | st.sampled_from(MODELS) | st.text(min_size=1, max_size=40),
    workload=st.none() | st.sampled_from(CHOICES["workload"]),
    organization=st.none() | st.booleans(),
    topic=st.none() | st.sampled_from(TOPICS),
    power_limit_w=st.none() | st.integers(1, 2000),
    mode=st.none() | st.sampled_from(CHOICES["mode"]),
    precision=st.none() | st.sampled_from(sorted(PRECISIONS)),
    context_tokens=st.none() | st.integers(128, 10_000_000),
    desktop_usd=st.none() | _fixed("0.01", 10_000_000, "1"),
    cloud_usd_per_hour=st.none() | _fixed("0.0001", 10_000, "0.01"),
    electricity_usd_per_kwh=st.none() | _fixed("0.0001", 100),
    edition=st.none() | st.sampled_from(["2023", "2020"]),
    tensor_cores=st.none() | st.booleans(),
    tma=st.none() | st.booleans(),
    vram_need_gb=st.none() | _hundredths(0.01, 4096),
    cloud_usd_per_month=st.none() | _fixed("0.01", 10_000_000, "0.01"),
    deadline_hours=st.none() | _hundredths(0.01, 87_600),
).filter(lambda query: query is not None)


def _valid(build):
    try:
        return build()
    except UserError:
        return None


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(queries)
def test_every_valid_query_survives_a_button(query: Query):
    text = encode(query)
    assert decode(text) == query
    assert len(text) + PREFIX <= 100, (len(text), query)
    assert text.isascii() and text.isprintable()


# Every field at its widest but ran_out, provider, offload, vram_need_gb, cloud_usd_per_month and deadline_hours
# (added below).
LONGEST = Query(
    kind="can_run",
    task="llm_finetune",
    budget=Money(amount=BOUNDS["budget"].high - Decimal("0.01"), currency="KRW"),
    min_memory_gb=4095.99,
    hours_per_day=23.99,
    num_gpus=4096,
    gpus=tuple(GPUS[:4]),
    gpu_counts=(4096,) * 4,
    condition="used",
    cloud_interest=True,
    model="x" * MODEL_TEXT_BYTES,  # bytes: a CJK name is cut at a whole character, so never longer
    workload="infer16",
    organization=True,
    topic=TOPICS[-1],
    power_limit_w=1999,
    mode="full_finetune",
    precision="bf16",
    context_tokens=9_999_999,
    desktop_usd=Decimal("9999999.99"),
    cloud_usd_per_hour=Decimal("9999.9999"),
    electricity_usd_per_kwh=Decimal("99.9999"),
    edition="2023",
    tensor_cores=True,
    tma=True,
    objective="fastest",
    vendor=CHOICES["vendor"][-1],
    cpu_only=True,
    psu_w=BOUNDS["psu_w"].high,
)


def test_the_widest_query_round_trips_one_character_past_a_vote_button():
    """Every field at its widest (an unknown model's name too) takes 89-100 characters, 102-113 with the vote
    button's prefix: it round-trips, and bot.views sends such an answer without its chart and vote buttons
    (tests/bot/test_embeds.py). No question produces it: the 2,130 corpus questions' queries take at most 49
    characters (2026-12-07, layout 7: deadline_hours)."""
    every = LONGEST.model_copy(
        update={
            "ran_out": True,
            "provider": CHOICES["provider"][-1],
            "offload": True,
            "vram_need_gb": 4095.99,
            "cloud_usd_per_month": Decimal("9999999.99"),
            "deadline_hours": 87599.99,
        }
    )
    for query, length in ((LONGEST, 102), (every, 113)):
        assert decode(encode(query)) == query
        assert len(encode(query)) + PREFIX == length
    asked = Query(kind="cloud_vs_buy", task="llm_finetune", model="x" * MODEL_TEXT_BYTES, provider="runpod")
    assert decode(encode(asked)) == asked and len(encode(asked)) + PREFIX <= 100


def test_every_field_of_query_has_a_place_in_the_layout():
    assert [name for name, _ in LAYOUT] == list(Query.model_fields)


def test_catalog_ids_do_not_collide_in_their_codes():
    assert len({_code(g) for g in GPUS}) == len(GPUS)
    assert len({_code(m) for m in MODELS}) == len(MODELS)


PINNED_QUERY = Query(
    kind="recommend",
    task="llm_finetune",
    budget=Money(amount=3000, currency="EUR"),
    hours_per_day=8,
    organization=True,
    condition="used",
)
PINNED = "X$i?lfB*tX@FqYpfB*nd"  # written out, not computed: the encoding of PINNED_QUERY since 2026-12-07 (layout 7)


def test_the_layout_is_pinned_so_posted_buttons_keep_working():
    """Changing this encoding breaks every button already posted: append fields and choices only."""
    assert encode(PINNED_QUERY) == PINNED
    assert decode(PINNED) == PINNED_QUERY


# Buttons posted before the layout had versions (2026-12-03 to -06), written by that day's codec:
# they decode to what they meant, an unknown model's text included.
LEGACY = {
    "gyf_^00AWU6CfDC0C4": PINNED_QUERY,
    "kU$20HJbzg15<BpWmRr#Zf|#PO>bmnY(f": Query(
        kind="can_run", model="SomeUnknownModelXYZ", gpus=("rtx-3090",), num_gpus=2, cpu_only=True
    ),
}


@pytest.mark.parametrize("text", sorted(LEGACY))
def test_buttons_posted_before_layout_versions_still_work(text):
    assert decode(text) == LEGACY[text]


# Buttons of each earlier layout version, as that version's codec wrote them: version 1 (to psu_w) was
# written 2026-12-06 until ran_out was appended; version 2 (to ran_out) until provider was, 2026-12-07; version 3
# (to provider, the first with extension bits) until offload was, the same day; version 4 (to offload) until
# vram_need_gb was, version 5 (to vram_need_gb) until cloud_usd_per_month was, and version 6 until deadline_hours was,
# the same day.
EARLIER_VERSIONS = {
    "Fr1W#001PP0%QXi001Q": PINNED_QUERY,
    "P@I&A001PP0%QXi000a": PINNED_QUERY,
    "VF}4dfB*tX@FqYpfB*p2": PINNED_QUERY,
    "V+qMffB*tX@FqYpfB*nT": PINNED_QUERY,
    "WeLehfB*tX@FqYpfB*os": PINNED_QUERY,
    "X9>wjfB*tX@FqYpfB*m_": PINNED_QUERY,
}


@pytest.mark.parametrize("text", sorted(EARLIER_VERSIONS))
def test_buttons_of_an_earlier_layout_version_still_work(text):
    assert decode(text) == EARLIER_VERSIONS[text]


def test_a_reported_out_of_memory_travels_in_a_button():
    asked = Query(kind="can_run", model="FooNet", gpus=("rtx-3090",), ran_out=True)
    assert decode(encode(asked)) == asked


def test_a_layout_version_this_bot_does_not_know_is_a_stale_button():
    from engine.codec import EXTENDED, EXTENSION_BITS, VERSION, VERSION_BITS

    assert VERSION - EXTENDED < 2**EXTENSION_BITS - 1  # room for the next versions
    # A button from a newer bot (a version past ours): refused as stale, not misread.
    newer = format(EXTENDED, f"0{VERSION_BITS}b") + format(VERSION + 1 - EXTENDED, f"0{EXTENSION_BITS}b")
    bits = "0" + newer + "1" * 9
    payload = int(bits, 2).to_bytes(2, "big")
    from engine.codec import _check

    with pytest.raises(UserError):
        decode(base64.b85encode(payload + _check(payload)).decode())


@pytest.mark.parametrize("text", ["", "zz", "!!!!!", "0" * 95, "ga:c:e:xx", "\x00", PINNED[:-2], PINNED[1:]])
def test_a_stale_or_forged_button_is_a_user_error(text):
    with pytest.raises(UserError):
        decode(text)


def test_an_unknown_model_cut_at_a_separator_survives_a_button():
    # Found by the property above: a long unknown name cut where a part ends ("00… -abcdefgh") kept the
    # space before the cut, which the button's round trip then stripped.
    asked = Query(kind="recommend", model="00\x80\U00010000 -abcdefgh")
    assert not asked.model.endswith(" ") and decode(encode(asked)) == asked


def test_an_unknown_model_cut_with_no_part_to_end_at_shows_the_cut():
    # "visual-chatgpt" is longer than a button keeps and has no earlier part to end at: "visual-cha…",
    # not "visual-chatgp" (a name that looks typed that way); the cut name survives a button
    asked = Query(kind="can_run", model="visual-chatgpt")
    assert asked.model == "visual-cha…" and decode(encode(asked)) == asked


def test_a_name_cut_where_a_part_ends_shows_the_cut_and_survives_a_button():
    # "Real-Time-Voice-Cloning" kept as "Real-Time" read as a name the user never typed: the cut is shown
    for name, kept in (("Real-Time-Voice-Cloning", "Real-Time…"), ("index-tts-vllm", "index-tts…")):
        asked = Query(kind="can_run", model=name)
        assert asked.model == kept and len(kept.encode()) <= MODEL_TEXT_BYTES and decode(encode(asked)) == asked
    assert Query(kind="can_run", model="llama-3-8b-instruct-gguf-q4").model == "llama-3-8b"  # a part that is a model


def test_an_unknown_model_whose_cut_name_names_a_model_survives_a_button():
    # Found by the property above: "70B" and noise too long for a button resolves to nothing whole, but its
    # cut does (a generic 70B); the Query keeps what the cut resolves to, so the round trip reads the same
    asked = Query(kind="recommend", model="70B\x80\x80\xbf\U000100000")
    assert decode(encode(asked)) == asked

"""Cloud break-even and power planning against the guide's figures."""

from __future__ import annotations

import pytest

from bot.words import english, render
from engine.cloud import break_even, guide_example
from engine.datafiles import data_dir, read_yaml
from engine.power import plan, power_limit_tradeoff


def test_guide_case_591_kwh_71_dollars_293_days():
    result = guide_example()
    assert round(result.kwh_per_year) == 591
    assert round(result.electricity_cost_per_year) == 71
    assert round(result.days) == 293
    cloud_300 = 2.14 * 0.15 * 24 * 300
    assert round(cloud_300) == 2311
    desktop_300, cloud = result.cumulative(300)
    assert cloud == pytest.approx(cloud_300, rel=1e-3) and desktop_300 < cloud


def test_a_months_cloud_bill_is_a_years_over_twelve():
    # "A100 租一个月多少钱？我每天用8小时": $2.14/h × 8 h × 365 / 12 = $520.7 a month
    result = break_even(2200, 2.14, hours_per_day=8)
    assert result.cloud_cost_per_month == pytest.approx(2.14 * 8 * 365 / 12, rel=1e-3)


def test_spot_breaks_even_later():
    spot = break_even(2200, 0.90, utilisation=0.15, gpu_power_w=350)
    assert spot.days > guide_example().days


def test_hours_per_day_equals_utilisation():
    assert break_even(2200, 2.14, hours_per_day=3.6).days == pytest.approx(guide_example().days)


def test_never_when_electricity_costs_more_than_renting():
    result = break_even(2000, 0.05, hours_per_day=10, gpu_power_w=450, electricity_usd_per_kwh=0.5)
    assert result.days is None and english(result.verdict).startswith("Never")


@pytest.mark.parametrize(
    "kwargs", [dict(utilisation=1.5), dict(hours_per_day=25), dict(utilisation=0.1, hours_per_day=2), dict()]
)
def test_break_even_rejects_bad_usage(kwargs):
    with pytest.raises(ValueError):
        break_even(2200, 2.14, **kwargs)


def test_1600w_fine_for_4x_3080_too_tight_for_4x_3090():
    assert english(plan("rtx-3080-10gb", 4, psu_w=1600).psu_verdict) == "fine"
    tight = plan("rtx-3090", 4, psu_w=1600)
    assert english(tight.psu_verdict) != "fine"
    assert tight.load_w == 4 * 350 + 200
    assert tight.recommended_psu_w >= 1700


def test_4x_4090_is_1800w_of_gpus_and_warns_about_outlet_slots_and_connector():
    result = plan("rtx-4090", 4)
    assert result.gpu_power_w * 4 == 1800
    text = " ".join(english(w) for w in result.warnings)
    assert "outlet" in text and "3-slot" in text and "12VHPWR" in text


def test_minus_50_watts_is_about_7_percent():
    assert power_limit_tradeoff(250, 200).slowdown_percent == pytest.approx(7.0)
    on_3090 = power_limit_tradeoff(350, 300)
    assert 4 < on_3090.slowdown_percent < 7


def test_power_limit_applies_to_plan():
    limited = plan("rtx-3090", 4, power_limit_w=300)
    assert limited.load_w == 4 * 300 + 200
    assert limited.power_limit.watts_saved_per_gpu == 50


@pytest.mark.parametrize(("count", "limit"), [(0, None), (17, None), (1, 0), (1, 900)])
def test_power_rejects_bad_values(count, limit):
    with pytest.raises(ValueError):
        plan("rtx-3090", count, power_limit_w=limit)


def model_keys() -> set[str]:
    """The keys of the models' own message catalog."""
    return set(read_yaml(data_dir() / "locales" / "messages" / "models.yaml"))


def _english_run(text: str) -> bool:
    """Three ordinary English words in a row (names in capitals and figures do not count)."""
    run = 0
    for token in text.split():
        run = run + 1 if token.isalpha() and token.isascii() and not token.isupper() else 0
        if run >= 3:
            return True
    return False


def test_cloud_and_power_messages_read_in_every_language(catalog):
    said = [
        m
        for days in (0.5, 3.6, 12)
        for rate in (0.05, 2.14)
        for cost in (2200, 20000)
        for result in [break_even(cost, rate, hours_per_day=days, electricity_usd_per_kwh=0.5)]
        for m in (result.verdict, *result.notes)
    ]
    said += [
        m
        for gpu in catalog.ids()
        for count in (1, 2, 4, 8)
        for psu in (None, 1000, 1600, 3000)
        for result in [plan(gpu, count, psu_w=psu)]
        for m in (result.psu_verdict, *result.warnings)
        if m
    ]
    emitted = {m.key for m in said}
    assert emitted == {k for k in model_keys() if k.startswith(("cloud.break_even.", "power.plan."))}
    for message in set(said):
        for lang in ("zh-Hant", "zh-Hans"):
            text = render(message, lang)
            assert message.key not in text and not _english_run(text), (message.key, lang, text)


# ---- typed facts drive the power warnings --------------------------------------------------------


@pytest.mark.parametrize(
    ("gpu", "warns"),
    [("rtx-4090", True), ("rtx-5090", True), ("h100-pcie", True), ("rtx-3090", False), ("rx-7900-xtx", False)],
)
def test_the_16_pin_warning_follows_the_power_connector_field(gpu, warns):
    keys = {w.key for w in plan(gpu, 1).warnings}
    assert ("power.plan.warning.12vhpwr" in keys) == warns


def test_the_warning_reads_the_field_not_the_notes(monkeypatch, catalog):
    """A card whose notes mention 12VHPWR but whose field says 8-pin gets no warning, and the other way round."""
    import engine.power as power

    eight_pin = catalog.get("rtx-4090").model_copy(update={"power_connector": "8pin"})
    sixteen_pin = catalog.get("rtx-3090").model_copy(update={"power_connector": "12vhpwr", "notes": None})
    fake = catalog.model_copy(update={"gpus": {**catalog.gpus, "rtx-4090": eight_pin, "rtx-3090": sixteen_pin}})
    monkeypatch.setattr(power, "load_catalog", lambda: fake)
    assert "12VHPWR" in (eight_pin.notes or "")
    assert all(w.key != "power.plan.warning.12vhpwr" for w in power.plan("rtx-4090", 1).warnings)
    assert any(w.key == "power.plan.warning.12vhpwr" for w in power.plan("rtx-3090", 1).warnings)


def test_small_cards_get_no_minus_50_watts_advice():
    """The guide's -50 W is for 250 W-class cards; a 50 W card in a 4-GPU build gets no such tip."""
    assert all(w.key != "power.plan.warning.power_limit" for w in plan("rtx-a1000", 4).warnings)
    assert any(w.key == "power.plan.warning.power_limit" for w in plan("rtx-3090", 4).warnings)

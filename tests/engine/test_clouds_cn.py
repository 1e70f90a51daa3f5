"""Rental prices from the platforms Chinese users name (data/clouds.yaml): AutoDL's CNY prices
converted at data/currencies.yaml's rate, Tencent Cloud's official USD list, and what the bot
says once a provider is priced ("autodl租4090多少钱一小时")."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

import pytest

from bot.words import english, render
from engine import advise
from engine.catalog import load_catalog
from engine.message import msg
from engine.money import exchange_rates
from engine.parse import parse
from engine.parse_vocab import load_vocab

CNY_PER_USD = Decimal("6.8966")  # data/currencies.yaml, ECB reference rates of 2026-03-13

# id → (catalog card, CNY per hour as the cited write-up gives it); all dated 2026-08-13
AUTODL = {
    "autodl-rtx-4090-2026": ("rtx-4090", "1.88"),
    "autodl-rtx-3090-2026": ("rtx-3090", "1.32"),
    "autodl-rtx-5090-2026": ("rtx-5090", "2.78"),
    "autodl-rtx-3080-ti-2026": ("rtx-3080-ti", "0.98"),
    "autodl-rtx-2080-ti-2026": ("rtx-2080-ti", "0.88"),
    "autodl-rtx-a4000-2026": ("rtx-a4000", "0.92"),
    "autodl-a800-80gb-2026": ("a800-80gb-pcie", "4.98"),
    "autodl-h800-2026": ("h800-pcie", "8.88"),
}

# id → (catalog card, GPUs, USD per instance-hour as Tencent Cloud's price list gives it)
TENCENT = {
    "tencent-gn10xp-2xlarge40-2023": ("v100-32gb", 1, "1.72"),
    "tencent-gn10xp-20xlarge320-2023": ("v100-32gb", 8, "13.78"),
}


def test_the_rate_the_conversions_use_is_the_one_on_file():
    assert exchange_rates().per_usd["CNY"] == CNY_PER_USD


@pytest.mark.parametrize(("entry", "cited"), AUTODL.items())
def test_autodl_prices_are_the_cited_yuan_at_the_rate_on_file(entry: str, cited: tuple[str, str]) -> None:
    gpu, cny = cited
    c = load_catalog().clouds[entry]
    assert (c.provider, c.gpu, c.gpu_count, c.date, c.historical) == ("AutoDL", gpu, 1, dt.date(2026, 8, 13), False)
    expected = (Decimal(cny) / CNY_PER_USD).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    assert c.on_demand_usd_per_hour == expected
    assert c.spot_usd_per_hour is None  # AutoDL sells on demand and day/week/month terms, no spot
    # the source keeps what was converted, at what rate, and where it was read
    assert f"¥{cny}/h" in c.source and "6.8966" in c.source and f"${expected}/h" in c.source
    assert "0xPabloLI/inside-china-ai" in c.source and "2026-08-13" in c.source


def test_a_chinese_platforms_price_line_cites_its_source_in_the_readers_language() -> None:
    # "autodl租4090多少钱": the price line's source reads in Chinese (the citations catalog), and no source of a
    # rental price names a project file or a research note instead of the public page it was read from
    for entry in [*AUTODL, "tencent-gn10xp-2xlarge40-2023"]:
        c = load_catalog().clouds[entry]
        line = msg("advice.note.cloud_price", provider=c.provider, instance=c.name, date=c.date, source=c.source)
        zh = render(line, "zh-Hans")
        assert ("AutoDL 价目表" in zh or "腾讯云官方价目表" in zh) and c.source not in zh
        assert "AutoDL 價目表" in render(line, "zh-Hant") or "騰訊雲官方價目表" in render(line, "zh-Hant")
    for c in load_catalog().clouds.values():
        assert "data/" not in c.source and "handoff" not in c.source, c.id


def test_autodl_4090_is_188_yuan_an_hour():
    c = load_catalog().clouds["autodl-rtx-4090-2026"]
    assert c.on_demand_usd_per_hour == Decimal("0.2726")  # ¥1.88 / 6.8966
    assert abs(c.on_demand_usd_per_hour * CNY_PER_USD - Decimal("1.88")) < Decimal("0.001")


@pytest.mark.parametrize(("entry", "cited"), TENCENT.items())
def test_tencent_prices_are_its_official_usd_list(entry: str, cited: tuple[str, int, str]) -> None:
    gpu, count, usd = cited
    c = load_catalog().clouds[entry]
    assert (c.provider, c.gpu, c.gpu_count, c.date) == ("腾讯云", gpu, count, dt.date(2023, 6, 30))
    assert c.on_demand_usd_per_hour == Decimal(usd) and c.spot_usd_per_hour is None
    assert f"{usd} USD/hr" in c.source and "tencentyun/intlcloud-documents" in c.source


def test_a_priced_provider_is_off_the_unpriced_list_and_the_others_stay_on_it():
    priced = {c.provider for c in load_catalog().clouds.values() if not c.historical}
    unpriced = set(load_vocab().unpriced_providers)
    assert {"AutoDL", "腾讯云"} <= priced
    assert not priced & unpriced
    assert unpriced == {"恒源云", "矩池云", "Featurize", "阿里云", "华为云"}


def test_autodl_named_with_a_4090_carries_no_unpriced_note():
    result = parse("autodl租4090多少钱一小时", standalone=True)
    assert result.query.kind == "cloud_vs_buy" and result.query.gpus == ("rtx-4090",)
    assert not [n for n in result.notes if n.key == "parse.note.provider_unpriced"]
    # a provider still without prices keeps its note
    other = parse("恒源云租4090多少钱一小时", standalone=True)
    assert [n.args["provider"] for n in other.notes if n.key == "parse.note.provider_unpriced"] == ["恒源云"]


def test_renting_a_4090_leads_with_the_cheapest_offer_which_is_autodls():
    query = parse("autodl租4090多少钱一小时", standalone=True).query
    answer = advise(query)
    current = [
        c
        for c in load_catalog().clouds.values()
        if c.gpu == "rtx-4090" and not c.historical and c.on_demand_usd_per_hour
    ]
    cheapest = min(current, key=lambda c: (c.on_demand_usd_per_hour or 0) / c.gpu_count)
    assert cheapest.id == "autodl-rtx-4090-2026"
    lead = answer.rentals[0]
    assert (lead.provider, lead.gpu_id, lead.on_demand_usd_per_hour) == ("AutoDL", "rtx-4090", Decimal("0.2726"))
    assert english(answer.headline).startswith("To rent, RTX 4090 is cheapest on AutoDL at $0.27/GPU-hour")

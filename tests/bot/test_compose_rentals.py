"""The cloud offers' table: a named LLM's fine-tune adds what one run costs on each offer."""

from __future__ import annotations

from bot.compose import rentals_table
from engine import advise
from engine.query import Query


def test_a_fine_tunes_offers_show_the_price_of_a_run_in_a_column_a_narrow_embed_keeps():
    answer = advise(Query(kind="cloud_vs_buy", model="llama-3-8b", mode="lora", cloud_interest=True))
    for lang, header in (("en", "$ a run (100M tokens)"), ("zh-Hans", "一次（100M token）")):
        table = rentals_table(answer, lang)
        column = table.headers.index(header)
        assert column not in table.optional  # the embed's narrow layout keeps it
        top = answer.rentals[0].run
        assert table.rows[0][column] == f"${top.usd_low:,.2f}-{top.usd_high:,.2f}"
        assert len(table.headers) == len(table.rows[0])
    # running a model, no fine-tune: no such column
    running = advise(Query(kind="cloud_vs_buy", model="llama-3-8b", cloud_interest=True))
    assert "$ a run (100M tokens)" not in rentals_table(running, "en").headers

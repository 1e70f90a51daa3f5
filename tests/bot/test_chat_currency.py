"""A Chinese question in a server that prices in dollars reads the asker's currency beside the dollars."""

from __future__ import annotations

from bot.chat import respond, understand
from bot.words import render
from engine.advisor import AdviceContext


def test_a_chinese_question_in_a_dollar_server_gets_yuan_beside_the_dollars():
    """ "租4090一小时多少钱" in a server set to USD: the dollars stay first and the yuan AutoDL bills in follow them
    ("$0.27（≈ CN¥1.88）"); an English question there stays in dollars; a server set to euros keeps its euros."""
    dollars = AdviceContext()
    yuan = respond(understand("租4090一小时多少钱？", None, "USD"), dollars)
    said = render(yuan.headline, "zh-Hans")
    assert "$0.27（≈ CN¥" in said
    english = respond(understand("how much is a 4090 an hour to rent?", None, "USD"), dollars)
    assert "≈" not in render(english.headline, "en")
    euros = respond(understand("租4090一小时多少钱？", None, "EUR"), AdviceContext(currency="EUR"))
    assert "€" in render(euros.headline, "zh-Hans") and "CN¥" not in render(euros.headline, "zh-Hans")

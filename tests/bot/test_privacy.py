"""Logs carry no user text by default, an opt-in excerpt is scrubbed, discord.py's payload logging
stays off at any LOG_LEVEL, and interaction tokens never reach a log line (issue 23, item 7)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot import observability
from bot.observability import (
    DISCORD_PAYLOAD_LOGGERS,
    QUIET_LOGGERS,
    JsonFormatter,
    excerpt,
    redact,
    scrub,
    setup_logging,
)

INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OTpYeFl5WnpBYUJiQ2NEZEVlRmZHZ0hoSWk"


@pytest.fixture
def logs() -> Iterator[io.StringIO]:
    """``setup_logging`` writing into a buffer; the root logger, discord.py's loggers and the
    module's options are put back afterwards (pytest's own capture handlers included)."""
    root = logging.getLogger()
    saved = (root.handlers[:], root.level, dict(observability._options))
    levels = {name: logging.getLogger(name).level for name in (*DISCORD_PAYLOAD_LOGGERS, *QUIET_LOGGERS)}
    buffer = io.StringIO()

    def configure(level: str = "INFO", **options: bool) -> None:
        setup_logging(level, True, **options)
        root.handlers[0].setStream(buffer)  # type: ignore[attr-defined]

    buffer.configure = configure  # type: ignore[attr-defined]
    try:
        yield buffer
    finally:
        root.handlers[:], _, options = saved
        root.setLevel(saved[1])
        observability._options.update(options)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


HOSTILE = (
    "call me at +1 (555) 123-4567 or 0912-345-678 or 138 0013 8000, mail jane.doe+gpu@example.co.uk, "
    "https://example.com/reset?token=abcDEF123456789 discord.gg/abcXYZ https://discord.com/invite/qwerty "
    "<@123456789012345678> <@&987654321098765432> @everyone my card 4111111111111111 which 4090?"
)
SECRETS = (
    "555",
    "123-4567",
    "0912",
    "0013",
    "jane.doe",
    "example.co.uk",
    "abcDEF123456789",
    "reset",
    "abcXYZ",
    "qwerty",
    "123456789012345678",
    "987654321098765432",
    "@everyone",
    "4111",
)


def test_no_excerpt_unless_the_operator_opts_in(logs):
    logs.configure("DEBUG")
    assert excerpt(HOSTILE) is None
    logging.getLogger("gpu_advisor.chat").info("answered", extra={"source": "chat", "excerpt": excerpt(HOSTILE)})
    line = json.loads(logs.getvalue().strip().splitlines()[-1])
    assert line["message"] == "answered" and "excerpt" not in line


def test_an_opted_in_excerpt_is_scrubbed_before_it_is_cut(logs):
    logs.configure("INFO", excerpts=True)
    short = excerpt(HOSTILE)
    assert short is not None and len(short) <= observability.EXCERPT_CHARS + 1
    full = scrub(HOSTILE)
    for secret in SECRETS:
        assert secret not in full, secret
    assert "[phone]" in full and "[email]" in full and "[invite]" in full and "https://example.com/…" in full
    assert "4090" in full  # a question's own numbers stay
    logging.getLogger("gpu_advisor.chat").info("answered", extra={"excerpt": excerpt(HOSTILE)})
    assert json.loads(logs.getvalue().strip().splitlines()[-1])["excerpt"] == short


@pytest.mark.parametrize(
    "text",
    [
        "+44 20 7946 0958 rtx 4090",
        "(02) 2345-6789 which gpu",
        "555.123.4567",
        "tel 13800138000",
        "a@b.cd x@y.example",
        "see www.example.com/path/secret-token-value",
        "join discordapp.com/invite/abc-def",
    ],
)
def test_scrub_removes_each_kind(text):
    out = scrub(text)
    assert not any(part in out for part in ("7946", "2345", "4567", "13800138000", "a@b", "secret-token", "abc-def")), (
        out
    )


def test_scrub_keeps_gpu_questions_readable():
    assert scrub("2x 3090 vs 4090 under $1500, 24GB, 3.5 h/day") == "2x 3090 vs 4090 under $1500, 24GB, 3.5 h/day"


def test_scrub_is_fast_on_hostile_digit_runs():
    import time

    started = time.perf_counter()
    scrub("1-" * 50_000 + "x")
    scrub("(" * 20_000 + "1 " * 20_000)
    scrub("a." * 50_000)
    redact("a" * 200_000)
    redact("a" * 50 + "." + "b" * 100_000)
    assert time.perf_counter() - started < 20  # linear: a quadratic regex takes minutes on these


@pytest.mark.parametrize("level", ["DEBUG", "INFO", 5])
def test_discord_payload_loggers_stay_at_info_whatever_the_level(logs, level):
    logs.configure(level)
    for name in DISCORD_PAYLOAD_LOGGERS:
        assert logging.getLogger(name).getEffectiveLevel() >= logging.INFO
        logging.getLogger(name).debug("For Shard ID %s: WebSocket Event: %s", 0, {"content": "my phone is 5551234"})
    logging.getLogger("discord.gateway").setLevel(logging.DEBUG)  # someone lowers it later: the filter holds
    logging.getLogger("discord.gateway").debug("WebSocket Event: %s", {"token": INTERACTION_TOKEN})
    assert "5551234" not in logs.getvalue() and INTERACTION_TOKEN not in logs.getvalue()
    logging.getLogger("gpu_advisor").debug("our own debug line")
    assert ("our own debug line" in logs.getvalue()) == (level in ("DEBUG", 5))


def test_sql_parameters_stay_out_of_debug_logs(logs):
    logs.configure("DEBUG", discord_debug=True)  # even when discord.py's debugging is asked for
    assert logging.getLogger("aiosqlite").getEffectiveLevel() >= logging.INFO
    logging.getLogger("aiosqlite").setLevel(logging.DEBUG)
    logging.getLogger("aiosqlite").debug("executing %s", ("INSERT INTO price_reports", "Jenny's flat"))
    assert "Jenny" not in logs.getvalue()


def test_a_higher_level_is_kept_for_discord_too(logs):
    logs.configure("WARNING")
    assert logging.getLogger("discord.http").getEffectiveLevel() == logging.WARNING


def test_discord_debug_is_an_explicit_opt_in(logs):
    logs.configure("DEBUG", discord_debug=True)
    logging.getLogger("discord.gateway").debug("WebSocket Event: %s", {"t": "MESSAGE_CREATE"})
    assert "MESSAGE_CREATE" in logs.getvalue()


@pytest.mark.parametrize(
    "line",
    [
        # discord.http's 429 warning prints the URL, which holds the interaction token
        f"We are being rate limited. POST https://discord.com/api/v10/interactions/123456789/{INTERACTION_TOKEN}"
        "/callback responded with 429. Retrying in 0.20 seconds.",
        f"POST https://discord.com/api/v10/webhooks/987654321/{INTERACTION_TOKEN}?wait=1 has returned 200",
        f"payload {{'type': 2, 'token': '{INTERACTION_TOKEN}', 'id': '1'}}",
        f'{{"token": "{INTERACTION_TOKEN}"}}',
        f"token={INTERACTION_TOKEN}",
    ],
)
def test_interaction_tokens_are_redacted(line):
    assert INTERACTION_TOKEN not in redact(line)
    record = logging.makeLogRecord({"msg": line, "levelname": "WARNING", "name": "discord.http"})
    assert INTERACTION_TOKEN not in JsonFormatter().format(record)


def test_settings_have_the_opt_ins_off_by_default(monkeypatch):
    from bot.config import Settings

    settings = Settings(_env_file=None)
    assert settings.log_excerpts is False and settings.log_discord_debug is False
    monkeypatch.setenv("LOG_EXCERPTS", "true")
    assert Settings(_env_file=None).log_excerpts is True

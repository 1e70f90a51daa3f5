"""The terminal front end: tables, JSON, and one clear line for bad input."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_explain_takes_the_libraries_too(capsys):
    code, out, _ = run(capsys, "explain", "vllm")
    assert code == 0 and "vLLM and your GPU" in out and "compute capability 7.0" in out
    assert out.startswith("Software and your GPU")  # the library's documentation, not the guide
    assert run(capsys, "explain", "tma")[1].startswith("From the guide")


def test_info_prints_the_spec_card_with_sources(capsys):
    code, out, _ = run(capsys, "info", "rtx-3090")
    assert code == 0
    assert "NVIDIA GeForce RTX 3090" in out and "936" in out and "Sources:" in out


def test_info_json_is_the_catalog_entry(capsys):
    code, out, _ = run(capsys, "info", "3090", "--json")
    assert code == 0 and json.loads(out)["id"] == "rtx-3090"


def test_unknown_gpu_gets_did_you_mean(capsys):
    code, _, err = run(capsys, "info", "rtx 4099")
    assert code == 2 and "Did you mean" in err and "rtx-4090" in err


def test_recommend_table_and_json(capsys):
    code, out, _ = run(capsys, "recommend", "--task", "kaggle", "--budget", "500", "--prices", "2020-09")
    assert code == 0 and "RTX 3070" in out and "Prices as of 2020-09-07" in out
    code, out, _ = run(capsys, "recommend", "--task", "kaggle", "--budget", "500", "--prices", "2020-09", "--json")
    assert json.loads(out)["options"][0]["gpu_id"] == "rtx-3070"


def test_compare_accepts_counts(capsys):
    code, out, _ = run(capsys, "compare", "4090", "2x3090")
    assert code == 0 and "2× RTX 3090" in out


def test_cycles_and_breakeven_reproduce_the_guide(capsys):
    assert "235" in run(capsys, "cycles")[1]
    assert "504" in run(capsys, "cycles", "--no-tensor-cores")[1]
    code, out, _ = run(capsys, "breakeven", "--utilization", "15")
    assert code == 0 and "293 days" in out and "591 kWh" in out


@pytest.mark.parametrize(
    "argv",
    [
        ("recommend", "--budget", "-500"),
        ("recommend", "--budget", "lots"),
        ("recommend", "--budget", "1e300"),
        ("recommend", "--count", "0"),
        ("recommend", "--budget", "500", "--currency", "XYZ"),
        ("breakeven", "--utilization", "150"),
        ("breakeven", "--hours", "30"),
        ("power", "3090", "--count", "0"),
        ("power", "3090", "--power-limit", "5000"),
        ("compare", "4090", "0x3090"),
        ("recommend", "--prices", "1999-01"),
    ],
)
def test_invalid_values_exit_2_with_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == "" and err.count("\n") == 1 and err.startswith("gpu-advisor: ")


def test_ask_answers_free_text_in_chinese(capsys):
    code, out, _ = run(capsys, "ask", "預算 500 美元，玩 Kaggle 該買哪張顯示卡？", "--prices", "2020-09")
    assert code == 0 and "RTX 3070" in out
    from bot.i18n import t

    assert out.startswith(t("zh-Hant", "title.recommend"))  # answered in the question's script


def test_ask_says_back_what_it_ignored(capsys):
    code, out, _ = run(capsys, "ask", "budget: -500 dollars lol which gpu")
    assert code == 0 and "negative" in out


def test_main_module_without_token_answers_a_sample(capsys, monkeypatch):
    from bot.__main__ import main as bot_main

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert bot_main() == 0
    captured = capsys.readouterr()
    assert "No DISCORD_TOKEN" in captured.err and "Kaggle" in captured.out and "per dollar" in captured.out


def test_canrun_answers_and_refuses_unknown_precision(capsys):
    code, out, _ = run(capsys, "canrun", "llama 3 8b", "--gpu", "3060 12G")
    assert code == 0 and "RTX 3060 12GB: Yes" in out and "KV cache" in out
    code, _, err = run(capsys, "canrun", "llama 3 8b", "--precision", "q9")
    assert code == 2 and err.count("\n") == 1


def test_chart_flag_writes_a_png(capsys, tmp_path):
    out = tmp_path / "chart.png"
    code, _, err = run(capsys, "compare", "4090", "2x3090", "--chart", str(out))
    assert code == 0 and out.read_bytes().startswith(b"\x89PNG") and "chart written" in err


def test_migrate_and_feedback_report(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    code, out, _ = run(capsys, "migrate")
    assert code == 0 and "database migrated (sqlite)" in out and (tmp_path / "gpu-advisor.sqlite3").exists()
    code, out, _ = run(capsys, "feedback-report", "--days", "7")
    assert code == 0 and "No votes yet." in out


# ---- hostile arguments: exit 2, one line, nothing on stdout (issue 23, item 10) -----------------

HOSTILE = [
    # NaN, infinities and huge numbers
    ("recommend", "--memory", "nan"),
    ("recommend", "--memory", "inf"),
    ("recommend", "--memory", "1e400"),
    ("recommend", "--hours", "nan"),
    ("recommend", "--hours=-inf"),
    ("recommend", "--budget", "nan"),
    ("recommend", "--budget", "-inf"),
    ("recommend", "--budget", "1e999999999"),
    ("recommend", "--budget", "9" * 5000),
    ("recommend", "--budget", "0.000000001"),
    ("recommend", "--count", "99999999999999999999999999"),
    ("breakeven", "--desktop-cost", "nan"),
    ("breakeven", "--desktop-cost", "1e308"),
    ("breakeven", "--cloud-hourly", "inf"),
    ("breakeven", "--electricity", "nan"),
    ("breakeven", "--electricity", "1e400"),
    ("breakeven", "--hours", "nan"),
    ("breakeven", "--utilization", "nan"),
    ("breakeven", "--hours", "1e-9"),
    ("power", "3090", "--count", "99999999999999999999"),
    ("power", "3090", "--count", "17"),
    ("power", "3090", "--power-limit", "-5"),
    ("compare", "99999999999999x3090", "4090"),
    ("canrun", "llama 3 8b", "--context", "99999999999"),
    ("canrun", "llama 3 8b", "--count", "0"),
    ("feedback-report", "--days", "99999999999"),
    ("feedback-report", "--days", "-5"),
    # empty or hostile --currency, on every subcommand that takes it
    ("recommend", "--currency", ""),
    ("recommend", "--currency", "$$$"),
    ("recommend", "--currency", "usd\x01"),
    ("recommend", "--currency", "USD; rm -rf /"),
    ("recommend", "--currency", "ＵＳＤ"),
    ("recommend", "--currency", "x" * 10_000),
    ("recommend", "--budget", "500", "--currency", "\u202eDSU"),
    ("compare", "4090", "3090", "--currency", "XYZ"),
    ("ask", "best gpu under 500", "--currency", "??"),
    ("info", "3090", "--currency", "\n"),
    # unknown model, precision, GPU, topic, snapshot; argparse's own refusals
    ("canrun", "llama 3 8b", "--precision", "q9"),
    ("canrun", "llama 3 8b", "--precision", "x" * 500),
    ("canrun", "llama 3 8b", "--mode", "bogus"),
    ("canrun", "llama 3 8b", "--gpu", "rtx 9999"),
    ("info", ""),
    ("info", "zz\nqq\u202e"),
    ("compare", "4090", ""),
    ("explain", "nope"),
    ("recommend", "--prices", "../../etc/passwd"),
    ("recommend", "--count", "x"),
    ("recommend", "--nope"),
    ("bogus",),
    (),
    # --chart paths that cannot be written (checked before any output)
    ("compare", "4090", "3090", "--chart", "/nonexistent/dir/x.png"),
    ("compare", "4090", "3090", "--chart", "/"),
    ("compare", "4090", "3090", "--chart", " "),
    ("power", "3090", "--chart", "/proc/version"),
    ("info", "3090", "--chart", "x.png"),  # info has no chart: argparse refuses the option
    ("canrun", "1000000b", "--chart", "/proc/nope/x.png"),
]


@pytest.mark.parametrize("argv", HOSTILE, ids=[repr(a)[:60] for a in HOSTILE])
def test_every_hostile_argument_exits_2_with_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2, (out[-500:], err[-500:])
    assert out == "" and err.count("\n") == 1 and err.startswith("gpu-advisor"), err
    assert "Traceback" not in err and "\u202e" not in err and "\x01" not in err


def test_a_chart_that_cannot_be_written_leaves_nothing_behind(capsys, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        import os

        if os.access(locked, os.W_OK):  # root writes anywhere: nothing to check here
            pytest.skip("running as root")
        code, out, err = run(capsys, "compare", "4090", "3090", "--chart", str(locked / "x.png"))
        assert code == 2 and out == "" and "cannot be written" in err and err.count("\n") == 1
    finally:
        locked.chmod(0o700)


def test_a_chart_that_fails_on_write_says_so_in_one_line(capsys, tmp_path, monkeypatch):
    from pathlib import Path

    def full(self, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    code, out, err = run(capsys, "compare", "4090", "3090", "--chart", str(tmp_path / "x.png"))
    assert (
        code == 2
        and out == ""
        and err == f"gpu-advisor: --chart: cannot write '{tmp_path / 'x.png'}': No space left on device\n"
    )


def closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("command", [("migrate",), ("feedback-report",), ("feedback-report", "--days", "7")])
@pytest.mark.parametrize(
    "url",
    [
        "postgresql://advisor:s3cret-pw@127.0.0.1:{port}/advisor",
        "postgresql+asyncpg://127.0.0.1:{port}/x",
        "not a url at all",
        "mysql://127.0.0.1/x",
    ],
)
def test_database_commands_against_a_down_database_exit_2_with_one_line(capsys, monkeypatch, command, url):
    monkeypatch.setenv("DATABASE_URL", url.format(port=closed_port()))
    code, out, err = run(capsys, *command)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("gpu-advisor: cannot ") and "DATABASE_URL" in err and "s3cret-pw" not in err


def test_an_unusable_data_dir_exits_2_with_one_line(capsys, monkeypatch, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DATA_DIR", str(blocker / "var"))
    code, out, err = run(capsys, "migrate")
    assert code == 2 and out == "" and err.count("\n") == 1 and "DATA_DIR" in err


def test_help_still_exits_0(capsys):
    code, out, _ = run(capsys, "recommend", "--help")
    assert code == 0 and "--budget" in out


@pytest.mark.parametrize(
    "argv",
    [
        ("ask", "can a 4090 run 1000000b"),
        ("ask", "PSU for 17x 3090"),
        ("ask", "\u202e\u200b which gpu 🚀 <@123> @everyone"),
        ("ask", "x" * 20_000),
        ("canrun", "1000000b"),
        ("recommend", "--budget", "500", "--currency", " eur "),
    ],
)
def test_odd_but_valid_questions_are_answered(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 0 and out and "Traceback" not in err


def test_the_spec_card_names_the_form_factor_in_the_readers_words(capsys):
    # "datacenter, PCIe card", not the catalog's raw "pcie"; in Chinese "数据中心，PCIe 卡"
    _, out, _ = run(capsys, "info", "A100 80GB PCIe")
    assert "datacenter, PCIe card" in out
    _, out, _ = run(capsys, "ask", "H100 SXM5 支持 PyTorch 吗？")
    assert "数据中心，SXM 模组" in out

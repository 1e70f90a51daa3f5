"""The terminal front end: tables, JSON, and one clear line for bad input."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


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

"""Answer → text: the terminal's rendering (and the plain-text fallback everywhere else).

Only formatting happens here; every figure was computed by the engine and travels in the Answer.
"""

from __future__ import annotations

from bot.locales import Lang, lookup
from engine.answer import Answer, Option
from engine.canrun import CanRunReport
from engine.catalog import load_catalog
from engine.cycles import CycleBreakdown
from engine.performance import WORKLOAD_NAMES
from engine.specs import Gpu


def counted(name: str, count: int) -> str:
    """"2× RTX 3090", or just the name for one card."""
    return f"{count}× {name}" if count > 1 else name


def unknown_gpu(typed: str, lang: Lang = "en", shown: str | None = None) -> str:
    """'I don't know the GPU “…”. Did you mean …?' with the catalog's closest cards: one wording for
    slash commands and chat (``shown`` is the name as it may safely be displayed, default ``typed``)."""
    catalog = load_catalog()
    close = [catalog.get(g).short_name for g in catalog.suggest(typed)]
    hint = lookup("ui.yaml", lang, "error.did_you_mean", names=", ".join(close)) if close else ""
    return lookup("ui.yaml", lang, "error.unknown_gpu", name=typed if shown is None else shown, hint=hint)


def money(option: Option) -> str:
    usd = f"${option.gpus_usd:,.0f}"
    return f"{usd} ({option.gpus_local.format()})" if option.gpus_local else usd


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A monospace table that survives narrow terminals and Discord code blocks."""
    widths = [max(map(len, column)) for column in zip(headers, *rows, strict=True)]
    line = "  ".join(f"{{:<{w}}}" for w in widths)
    out = [line.format(*headers).rstrip(), line.format(*("-" * w for w in widths)).rstrip()]
    out += [line.format(*row).rstrip() for row in rows]
    return "\n".join(out)


def options_table(options: tuple[Option, ...]) -> str:
    rows = [
        [
            counted(o.name, o.gpu_count),
            f"{o.memory_gb:g} GB",
            f"{o.speed_vs_reference:.2f}×",
            f"{o.value_vs_best:.0%}",
            money(o),
            o.price.basis,
        ]
        for o in options
    ]
    ref = load_catalog().get(options[0].reference_id).short_name if options else ""
    return table(["GPU", "Memory", f"Speed vs {ref}", "Value", "Price", "Price basis"], rows)


def answer_text(answer: Answer) -> str:
    parts = [answer.headline]
    if answer.options:
        parts.append(options_table(answer.options))
    if answer.alternatives:
        parts.append("More speed with several cards:\n" + options_table(answer.alternatives))
    if answer.comparison:
        c = answer.comparison
        cat = load_catalog()
        names = [counted(cat.get(g).short_name, n) for g, n in zip(c.gpu_ids, c.counts, strict=True)]
        rows = [[WORKLOAD_NAMES[r.workload], f"{r.ratio:.2f}×"] for r in c.rows]
        rows += [
            ["Memory", f"{c.memory_gb[0]:g} GB vs {c.memory_gb[1]:g} GB"],
            ["Bandwidth", f"{c.bandwidth_gbs[0]:g} vs {c.bandwidth_gbs[1]:g} GB/s"],
            ["Power", f"{c.tdp_w[0]} W vs {c.tdp_w[1]} W (per card)"],
        ]
        prices = [f"${p.usd:,.0f} ({p.basis})" if p else "no price" for p in c.prices]
        rows.append(["Price per card", f"{prices[0]} vs {prices[1]}"])
        if all(v is not None for v in c.perf_per_kusd):
            rows.append([f"{WORKLOAD_NAMES[c.workload]} per $1k", " vs ".join(f"{v:.0f}" for v in c.perf_per_kusd)])
        parts.append(table([f"{names[0]} / {names[1]}", ""], rows))
    if answer.break_even:
        b = answer.break_even
        parts.append(
            f"Electricity: {b.kwh_per_year:,.0f} kWh/yr ≈ ${b.electricity_cost_per_year:,.0f}/yr; "
            f"cloud: ${b.cloud_cost_per_year:,.0f}/yr. {b.verdict}"
        )
    if answer.power:
        p = answer.power
        parts.append(
            f"Load {p.load_w} W ({p.gpu_count} × {p.gpu_power_w} W + {p.cpu_and_board_w} W CPU/board), "
            f"~{p.wall_draw_w} W at the wall." + (f" Your {p.psu_w} W PSU: {p.psu_verdict}." if p.psu_w else "")
        )
    if answer.explanation:
        e = answer.explanation
        parts.append(e.text + ("\n" + "\n".join(f"• {f}" for f in e.figures) if e.figures else ""))
    if answer.cycles:
        parts.append(cycles_text(answer.cycles))
    if answer.spec:
        parts.append(spec_text(answer.spec))
    if answer.can_run:
        parts.extend(can_run_blocks(answer.can_run))
    if answer.caveats:
        parts.append("\n".join(f"! {c}" for c in answer.caveats))
    if answer.rules:
        parts.append("Why:\n" + "\n".join(f"- {r.text} [{r.source}]" for r in answer.rules))
    for note in answer.notes:
        parts.append(note)
    if answer.price_date:
        parts.append(f"Prices as of {answer.price_date:%Y-%m-%d}.")
    if answer.follow_up:
        choices = ", ".join(label for _, label in answer.follow_up.choices)
        parts.append(f"? {answer.follow_up.question}" + (f" ({choices})" if choices else ""))
    if answer.suggestions:
        parts.append("\n".join(f"Tip: {s}" for s in answer.suggestions))
    return "\n\n".join(parts)


def cycles_text(c: CycleBreakdown) -> str:
    rows = [[t.label, str(t.count), str(t.cycles_each), str(t.total)] for t in c.terms]
    rows.append(["total", "", "", str(c.total)])
    head = (
        f"{c.size}×{c.size} matmul on {c.sms} SMs × {c.warps_per_sm} warps, "
        f"{'Tensor Cores' if c.tensor_cores else 'FFMA units'}{' + TMA' if c.tma else ''}:"
    )
    return "\n".join([head, table(["term", "count", "cycles each", "cycles"], rows), *c.notes, f"[{c.source}]"])


def spec_text(gpu: Gpu) -> str:
    def fmt(value, unit: str = "") -> str:
        return "—" if value is None else f"{value:g}{unit}" if isinstance(value, float | int) else str(value)

    rows = [
        ["Architecture", f"{load_catalog().architectures[gpu.architecture].name} ({gpu.release_year})"],
        ["Class", f"{gpu.gpu_class}, {gpu.form_factor}"],
        ["Memory", f"{gpu.memory_gb:g} GB {gpu.memory_type}"],
        ["Bandwidth", f"{gpu.bandwidth_gbs:g} GB/s"],
        ["SMs / Tensor Cores", f"{fmt(gpu.sm_count)} / {fmt(gpu.tensor_cores)}"],
        ["L2 cache", fmt(gpu.l2_mb, " MB")],
        [
            "FP16 Tensor (FP32 acc)",
            fmt(gpu.fp16_tensor_tflops, " TFLOPS") + (" (half rate: GeForce)" if gpu.half_rate_fp32_accumulate else ""),
        ],
        ["FP8 Tensor", fmt(gpu.fp8_tensor_tflops, " TFLOPS")],
        ["TDP", f"{gpu.tdp_w} W"],
        ["Slots", fmt(gpu.slot_width)],
        ["Launch price", f"${gpu.launch_price.usd:,.0f} ({gpu.launch_price.date})" if gpu.launch_price else "—"],
    ]
    return "\n".join([table([gpu.name, ""], rows), "Sources:", *(f"- {s}" for s in gpu.sources)])


def can_run_blocks(report: CanRunReport) -> list[str]:
    """The memory breakdown of the first verdict and the cheapest setups that fit, as tables."""
    blocks = []
    estimate = next((v.estimate for v in report.verdicts if v.estimate), None)
    if estimate is None and report.memory_verdict is not None:
        estimate = report.memory_verdict.estimate
    if estimate is not None:
        gib = 1e9 / 2**30  # the headline compares with card sizes, which are GiB
        rows = [[term.name, f"{term.per_gpu_gb * gib:.1f}", term.basis[:70]] for term in estimate.terms]
        rows.append(["total per GPU", f"{estimate.per_gpu_gib:.1f}", ""])
        blocks.append(table(["memory term", "GiB", "assumption"], rows))
    if report.alternatives:
        rows = [[counted(a.name, a.count), a.precision, f"{a.need_gib:.1f}",
                 f"${a.gpus_usd:,.0f}", f"{a.decode.low:.0f}-{a.decode.high:.0f} tok/s" if a.decode else "—"]
                for a in report.alternatives]
        blocks.append(table(["setup", "precision", "GiB/GPU", "GPUs", "decode"], rows))
    return blocks

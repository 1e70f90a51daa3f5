"""Answer → Document: every word a user reads, in their language, from the message catalogs.

The engine returns facts (figures, ids, dates, money) and messages (a key and plain values); this
module decides which of them an answer shows, in which order, under which titles, and words them
through ``bot.words``. It is the only place that does: the Discord embed and the terminal lay the
Document out and add no words of their own. A new answer kind adds a branch here and keys in
``data/locales/messages/`` (docs/architecture.md has the checklist).
"""

from __future__ import annotations

from functools import lru_cache

from bot.document import Block, Document, Table
from bot.locales import Lang
from bot.words import citation, render, say, spec_source
from engine.answer import Answer, Option, Rental
from engine.canrun import CanRunReport
from engine.canrun import rung_label as _rung
from engine.catalog import load_catalog
from engine.cost import PriceQuote
from engine.cycles import CycleBreakdown
from engine.libraries import libraries
from engine.memory import MemoryEstimate, Mode
from engine.message import Msg
from engine.performance import SpeedEstimate
from engine.specs import Gpu

_NO_CHOICES: tuple[tuple[str, str], ...] = ()  # not tuple[...](): building the alias to call it took ≈0.5 µs
GIB_PER_GB = 1e9 / 2**30  # can-run figures are decimal GB; card sizes are GiB, as the verdicts compare them


def compose(answer: Answer, lang: Lang = "en") -> Document:
    """The whole answer in ``lang``: headline first, then tables, caveats, reasons and tips."""
    blocks: list[Block] = []
    headline = render(answer.headline, lang)
    if answer.options:
        blocks.append(
            Block(role="options", title=say(lang, "field.options"), table=options_table(answer.options, lang))
        )
    if answer.alternatives:
        blocks.append(
            Block(
                role="alternatives", title=say(lang, "field.more_gpus"), table=options_table(answer.alternatives, lang)
            )
        )
    if answer.comparison:
        c = answer.comparison
        # With more setups, or when only one holds the model, the verdict is the headline (or leads it): said once.
        items = answer.headline.args.get("items") if answer.headline.key == "sentences" else None
        leads = isinstance(items, tuple) and items[:1] == (c.verdict,)
        if c.verdict is not None and len(c.gpu_ids) == 2 and c.verdict != answer.headline and not leads:
            blocks.append(Block(role="verdict", title=say(lang, "field.verdict"), text=render(c.verdict, lang)))
        blocks.append(Block(role="details", title=say(lang, "field.details"), table=comparison_table(answer, lang)))
        names = _setup_names(c.gpu_ids, c.counts)
        blocks.append(
            Block(
                role="prices",
                title=say(lang, "field.prices"),
                lines=tuple(
                    f"{name}: {_per_card(price, count, lang)}"
                    for name, price, count in zip(names, c.prices, c.counts, strict=True)
                ),
            )
        )
    if answer.break_even:
        b = answer.break_even
        blocks.append(
            Block(
                role="details",
                title=say(lang, "field.details"),
                text=say(
                    lang,
                    "detail.break_even",
                    kwh=b.kwh_per_year,
                    electricity=b.electricity_cost_per_year,
                    cloud=b.cloud_cost_per_year,
                    month=b.cloud_cost_per_month,
                    verdict=b.verdict,
                ),
            )
        )
    if answer.rentals:
        blocks.append(Block(role="options", title=say(lang, "field.rentals"), table=rentals_table(answer, lang)))
    if answer.power:
        p = answer.power
        text = say(
            lang,
            "detail.power",
            load=p.load_w,
            count=p.gpu_count,
            gpu_w=p.gpu_power_w,
            cpu=p.cpu_and_board_w,
            wall=p.wall_draw_w,
        )
        blocks.append(Block(role="details", title=say(lang, "field.details"), text=text))
    facts: tuple[Msg, ...] = ()
    if answer.explanation:
        words = answer.explanation.wording(lang)
        headline = f"**{words.title}**\n{words.text}"
        if answer.notes:  # the guide's text answers beside today's facts: the verdict leads
            facts = answer.notes
            headline = f"{render(answer.headline, lang)}\n\n{headline}"
            blocks.append(
                Block(role="figures", title=say(lang, "field.today"), lines=tuple(render(f, lang) for f in facts))
            )
        elif answer.headline.key != f"advice.explain.{answer.explanation.topic}":
            # a verdict for the user's own setup ("4 cards, slower than one?", "vLLM on my P40?") leads
            headline = f"{render(answer.headline, lang)}\n\n{headline}"
        if words.figures:
            blocks.append(Block(role="figures", title=say(lang, "field.figures"), lines=words.figures))
    if answer.cycles:
        blocks.extend(cycles_blocks(answer.cycles, lang))
    if answer.spec:
        blocks.extend(spec_blocks(answer.spec, lang))
    if answer.can_run:
        blocks.extend(can_run_blocks(answer.can_run, lang))
    caveats = [*answer.caveats, *(c for o in answer.options[:1] for c in o.caveats)]
    if caveats:
        blocks.append(
            Block(role="caveats", title=say(lang, "field.caveats"), lines=tuple(render(c, lang) for c in caveats))
        )
    if answer.rules:
        lines = tuple(
            answer.explanation.wording(lang).title
            if rule.id.startswith("explain.") and answer.explanation
            else render(rule.text, lang)
            for rule in answer.rules
        )
        blocks.append(
            Block(
                role="why",
                title=say(lang, "field.why"),
                lines=lines,
                sources=tuple(citation(rule.source, lang) for rule in answer.rules),
            )
        )
    tips = [*(n for n in answer.notes if n not in facts), *answer.suggestions]
    if tips:
        blocks.append(Block(role="tips", title=say(lang, "field.tips"), lines=tuple(render(t, lang) for t in tips)))
    question, choices = "", _NO_CHOICES
    if answer.follow_up:
        question = render(answer.follow_up.question, lang)
        choices = tuple((value, render(label, lang)) for value, label in answer.follow_up.choices)
    footer = ""
    if answer.price_date:
        # decode and 16-bit inference speeds are calibrated on published measurements, not the guide's model alone
        ranked = {getattr(o, "workload", None) for o in answer.options}
        if answer.comparison is not None:
            ranked.add(answer.comparison.workload)
        measured = next((w for w in ("decode", "infer16") if w in ranked), None)
        footer = say(
            lang,
            f"footer.prices_{measured}" if measured else "footer.prices",
            date=answer.price_date,
            reference=load_catalog().get("rtx-3090").short_name,
        )
    return Document(
        kind=answer.kind,
        lang=lang,
        title=say(lang, _title_key(answer)),
        headline=headline,
        blocks=tuple(blocks),
        question=question,
        choices=choices,
        footer=footer,
        credit=say(lang, "footer.guide"),
    )


def counted(name: str, count: int) -> str:
    """ "2× RTX 3090", or just the name for one card (the same in every language)."""
    return f"{count}× {name}" if count > 1 else name


def price_words(quote: PriceQuote | None, lang: Lang) -> str:
    """ "$1,207 (used, Sep 2026)" — a price always with its basis and date, or "no price"."""
    if quote is None:
        return say(lang, "price.none")
    return say(lang, "price.quote", usd=quote.usd, basis=render(quote.basis_message(), lang), date=quote.date)


def _per_card(quote: PriceQuote | None, count: int, lang: Lang) -> str:
    words = price_words(quote, lang)
    return say(lang, "price.each", quote=words) if count > 1 and quote is not None else words


def options_table(options: tuple[Option, ...], lang: Lang) -> Table:
    reference = load_catalog().get(options[0].reference_id).short_name
    rows = tuple(
        (
            counted(o.name, o.gpu_count),
            f"{o.memory_gb:g} GB",
            f"{o.speed_vs_reference:.2f}×",
            f"{o.value_vs_best:.0%}",
            _money(o, lang),
            render(o.price.basis_message(), lang),
            f"{o.price.date:%Y-%m}",
        )
        for o in options
    )
    headers = (
        say(lang, "col.gpu"),
        say(lang, "col.memory"),
        say(lang, "col.speed_vs", reference=reference),
        say(lang, "col.value"),
        say(lang, "col.price"),
        say(lang, "col.basis"),
        say(lang, "col.date"),
    )
    return Table(headers=headers, rows=rows, optional=(5, 6))


def _money(option: Option, lang: Lang) -> str:
    """The price in USD as the snapshot has it, and in the user's currency marked as converted (no
    public source gives street prices in those currencies yet; docs/data.md)."""
    usd = f"${option.gpus_usd:,.0f}"
    if option.gpus_local is None:
        return usd
    return f"{usd} ({say(lang, 'price.converted', local=option.gpus_local)})"


def rentals_table(answer: Answer, lang: Lang) -> Table:
    """Cloud offers, cheapest per hour of the reference card's work first — or, for a named LLM's fine-tune,
    cheapest per run, with the run's price as a column."""
    reference = load_catalog().get("rtx-3090").short_name
    run = next((r.run for r in answer.rentals if r.run is not None), None)

    def usd(value: object) -> str:
        return f"${value:.2f}" if value is not None else "—"

    def per_run(r: Rental) -> tuple[str, ...]:
        if run is None:
            return ()
        return (f"${r.run.usd_low:,.2f}-{r.run.usd_high:,.2f}" if r.run else "—",)

    rows = tuple(
        (
            r.name,
            f"{r.memory_gb:g} GB",
            r.provider,
            usd(r.on_demand_usd_per_hour),
            usd(r.spot_usd_per_hour),
            f"{r.speed_vs_reference:.2f}×",
            usd(r.usd_per_reference_hour),
            *per_run(r),
            f"{r.date:%Y-%m}",
        )
        for r in answer.rentals
    )
    headers = (
        say(lang, "col.gpu"),
        say(lang, "col.memory"),
        say(lang, "col.provider"),
        say(lang, "col.on_demand"),
        say(lang, "col.spot"),
        say(lang, "col.speed_vs", reference=reference),
        say(lang, "col.per_work", reference=reference),
        *((say(lang, "col.per_run", tokens=run.time.tokens / 1e6),) if run else ()),
        say(lang, "col.date"),
    )
    # a narrow layout keeps the offer, its hourly price and what a run costs; the per-work column gives way to it
    optional = (1, 4, 5, 6, 8) if run else (1, 4, 5, 7)
    return Table(headers=headers, rows=rows, optional=optional)


def _setup_names(gpu_ids: tuple[str, ...], counts: tuple[int, ...]) -> list[str]:
    catalog = load_catalog()
    return [counted(catalog.get(g).short_name, n) for g, n in zip(gpu_ids, counts, strict=True)]


def _title_key(answer: Answer) -> str:
    """The answer's title by its kind; what a library needs of a GPU is from its documentation, not the guide."""
    if answer.explanation is not None and answer.explanation.topic in libraries():
        return "title.library"
    return f"title.{answer.kind}"


def comparison_table(answer: Answer, lang: Lang) -> Table:
    """One column per setup: speeds relative to the first, then memory, bandwidth, power, value."""
    c = answer.comparison
    assert c is not None
    rows = [(say(lang, f"workload.{r.workload}"), *(f"{v:.2f}×" for v in r.speeds)) for r in c.rows]
    rows += [
        (say(lang, "row.memory"), *(f"{gb:g} GB" for gb in c.memory_gb)),
        (say(lang, "row.bandwidth"), *(f"{b:g} GB/s" for b in c.bandwidth_gbs)),
        (say(lang, "row.power"), *(f"{w} W" for w in c.tdp_w)),
    ]
    if all(v is not None for v in c.perf_per_kusd):
        rows.append(
            (
                say(lang, "row.per_kusd", workload=say(lang, f"workload.{c.workload}")),
                *(f"{v:.0f}" for v in c.perf_per_kusd if v is not None),
            )
        )
    return Table(headers=("", *_setup_names(c.gpu_ids, c.counts)), rows=tuple(rows))


def cycles_blocks(c: CycleBreakdown, lang: Lang) -> list[Block]:
    rows = [(render(t.label, lang), str(t.count), str(t.cycles_each), str(t.total)) for t in c.terms]
    rows.append((say(lang, "cycles.total"), "", "", str(c.total)))
    units = say(lang, "cycles.tensor_cores" if c.tensor_cores else "cycles.ffma")
    head = say(
        lang,
        "cycles.head",
        size=c.size,
        sms=c.sms,
        warps=c.warps_per_sm,
        units=units,
        tma=say(lang, "cycles.tma") if c.tma else "",
    )
    table = Table(
        headers=(
            say(lang, "cycles.term"),
            say(lang, "cycles.count"),
            say(lang, "cycles.each"),
            say(lang, "cycles.cycles"),
        ),
        rows=tuple(rows),
    )
    return [
        Block(
            role="details",
            title=say(lang, "field.details"),
            text=head,
            table=table,
            lines=tuple(render(n, lang) for n in c.notes),
            sources=(citation(c.source, lang),),
        )
    ]


def spec_blocks(gpu: Gpu, lang: Lang) -> list[Block]:
    def fmt(value: object, unit: str = "") -> str:
        return "—" if value is None else f"{value:g}{unit}" if isinstance(value, float | int) else str(value)

    fp16 = fmt(gpu.fp16_tensor_tflops, " TFLOPS")
    if gpu.half_rate_fp32_accumulate:
        fp16 += " " + say(lang, "spec.half_rate")
    launch = (
        say(lang, "spec.launch_price", usd=gpu.launch_price.usd, date=gpu.launch_price.date)
        if gpu.launch_price
        else "—"
    )
    rows = (
        (say(lang, "spec.architecture"), f"{load_catalog().architectures[gpu.architecture].name} ({gpu.release_year})"),
        (
            say(lang, "spec.class"),
            say(
                lang,
                "spec.class_value",
                cls=say(lang, f"class.{gpu.gpu_class}"),
                form=say(lang, f"form.{gpu.form_factor}"),
            ),
        ),
        (say(lang, "spec.memory"), f"{gpu.memory_gb:g} GB {gpu.memory_type}"),
        (say(lang, "spec.bandwidth"), f"{gpu.bandwidth_gbs:g} GB/s"),
        (say(lang, "spec.sms"), f"{fmt(gpu.sm_count)} / {fmt(gpu.tensor_cores)}"),
        (say(lang, "spec.l2"), fmt(gpu.l2_mb, " MB")),
        (say(lang, "spec.fp16"), fp16),
        (say(lang, "spec.fp8"), fmt(gpu.fp8_tensor_tflops, " TFLOPS")),
        (say(lang, "spec.tdp"), f"{gpu.tdp_w} W"),
        (say(lang, "spec.slots"), fmt(gpu.slot_width)),
        (say(lang, "spec.launch"), launch),
    )
    return [
        Block(role="details", title=say(lang, "field.details"), table=Table(headers=(gpu.name, ""), rows=rows)),
        Block(role="sources", title=say(lang, "field.sources"), lines=tuple(spec_source(s, lang) for s in gpu.sources)),
    ]


def can_run_blocks(report: CanRunReport, lang: Lang) -> list[Block]:
    """The memory breakdown of the first verdict and the cheapest setups that fit, as tables; with no
    card named, the setups come first and the breakdown of what is needed after them."""
    blocks = []
    estimate = next((v.estimate for v in report.verdicts if v.estimate), None)
    if estimate is None and report.memory_verdict is not None:
        estimate = report.memory_verdict.estimate
    if estimate is not None:
        blocks.append(memory_block(estimate, lang))
    for verdict in report.verdicts:  # per setup: how it is split or sharded, offload, tight fits, vendor limits
        if verdict.notes:
            blocks.append(
                Block(
                    role="caveats",
                    title=counted(verdict.name, verdict.count),
                    lines=tuple(render(note, lang) for note in verdict.notes),
                )
            )
    if report.card:
        blocks.append(Block(role="options", title=say(lang, "field.card"), table=card_table(report, lang)))
    if report.by_size:
        blocks.append(Block(role="options", title=say(lang, "field.by_size"), table=by_size_table(report, lang)))
    if report.alternatives:
        rows = [
            (
                counted(a.name, a.count),
                a.precision,
                f"{a.need_gib:.1f}",
                f"${a.gpus_usd:,.0f}",
                f"{a.decode.low:.0f}-{a.decode.high:.0f} tok/s" if a.decode else "—",
            )
            for a in report.alternatives
        ]
        table = Table(
            headers=(
                say(lang, "canrun.col.setup"),
                say(lang, "canrun.col.precision"),
                "GiB/GPU",
                say(lang, "canrun.col.gpus"),
                say(lang, "canrun.col.decode"),
            ),
            rows=tuple(rows),
        )
        blocks.append(Block(role="options", title=say(lang, "field.fits"), table=table))
    if report.breakdown is not None:
        blocks.append(memory_block(report.breakdown, lang))
    return blocks


def memory_block(estimate: MemoryEstimate, lang: Lang) -> Block:
    """One estimate's memory terms (weights, KV cache, optimizer states, …) with the assumption of each."""
    terms = [
        (say(lang, f"memory.term.{term.name}"), f"{term.per_gpu_gb * GIB_PER_GB:.1f}", render(term.basis, lang))
        for term in estimate.terms
    ]
    terms.append((say(lang, "canrun.total_per_gpu"), f"{estimate.per_gpu_gib:.1f}", ""))
    table = Table(
        headers=(say(lang, "canrun.col.term"), "GiB", say(lang, "canrun.col.assumption")),
        rows=tuple(terms),
        optional=(2,),
    )
    return Block(role="details", title=say(lang, "field.memory"), table=table)


def by_size_table(report: CanRunReport, lang: Lang) -> Table:
    """GiB per GPU a dense model of each common size needs, a column per rung (BF16, Q4_K_M / QLoRA)."""
    first = report.by_size[0].needs
    headers = (
        say(lang, "canrun.col.size"),
        *(f"{rung_words(n.mode, n.precision, False, lang)} GiB" for n in first),
    )
    rows = tuple((f"{row.size_b:g}B", *(f"{n.gib:.1f}" for n in row.needs)) for row in report.by_size)
    return Table(headers=headers, rows=rows)


@lru_cache(maxsize=256, typed=True)
def rung_words(mode: Mode, precision: str, offload: bool, lang: Lang) -> str:
    """A rung's name in ``lang`` ("GGUF Q4_K_M", "QLoRA (4-bit NF4 base)"), worded once: a can-run answer's
    tables name a rung in every row, from a few dozen modes and precisions (issue #24; of the messages
    a corpus answer renders: ≈8 %). ``typed``: an offload of 1 is not answered from True's entry."""
    return render(_rung(mode, precision, offload), lang)


def card_table(report: CanRunReport, lang: Lang) -> Table:
    """What a card can do: per use, the largest reference model it runs and the next that does not."""
    rows = []
    for row in report.card:
        v = row.verdict
        rung = rung_words(v.mode, v.precision, v.offload, lang) if v.precision else ""
        speed = f"{v.decode.low:.0f}-{v.decode.high:.0f} tok/s" if v.decode and v.fits else ""
        rows.append(
            (
                say(lang, f"card.use.{row.use}"),
                row.model_name,
                rung,
                f"{v.need_gib:.1f}",
                say(lang, "card.fits" if v.fits else "card.no_fit"),
                speed,
            )
        )
    headers = (
        say(lang, "canrun.col.use"),
        say(lang, "canrun.col.model"),
        say(lang, "canrun.col.precision"),
        "GiB/GPU",
        say(lang, "canrun.col.fits"),
        say(lang, "canrun.col.decode"),
    )
    return Table(headers=headers, rows=tuple(rows), optional=(2,))


def compose_why(estimate: SpeedEstimate, relative: float, lang: Lang) -> Document:
    """The "Why?" button: the factors of one card's speed estimate, each with its basis."""
    gpu = load_catalog().get(estimate.gpu_id)
    lines = [
        say(lang, "why.factor", name=render(f.name, lang), value=f"{f.value:.3g}", basis=render(f.basis, lang))
        for f in estimate.factors
    ]
    if estimate.bound == "compute":
        lines.append(say(lang, "why.bound_compute"))
    lines += [render(n, lang) for n in estimate.notes]
    title = say(
        lang,
        "why.title",
        gpu=gpu.short_name,
        speed=f"{relative:.2f}",
        workload=say(lang, f"workload.{estimate.workload}"),
    )
    return Document(
        kind="explain",
        lang=lang,
        title=title,
        headline="",
        blocks=(Block(role="why", title="", lines=tuple(lines)),),
        footer=estimate.source,
    )

"""Answer → Discord embed, in the asker's language, within Discord's limits.

The answer comes first (the description), then a compact table of alternatives in a code block,
the one or two caveats that matter, and a footer with the price date. Only formatting happens
here: every figure was computed by the engine and travels in the Answer.
"""

from __future__ import annotations

import discord

from bot.i18n import Lang, phrase, t
from bot.render import can_run_blocks, counted, cycles_text, money, spec_text, table
from engine.answer import Answer, Option
from engine.catalog import load_catalog
from engine.performance import SpeedEstimate

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
TITLE_MAX, DESCRIPTION_MAX, FIELD_NAME_MAX, FIELD_VALUE_MAX, FOOTER_MAX, TOTAL_MAX = 256, 4096, 256, 1024, 2048, 6000
MAX_FIELDS = 25
COLOURS = {"recommend": 0x76B900, "compare": 0x3498DB, "cloud_vs_buy": 0x9B59B6, "power": 0xE67E22,
           "explain": 0x95A5A6, "can_run": 0x1ABC9C, "other": 0x7F8C8D}
MAX_CAVEATS = 2


class AnswerEmbed(discord.Embed):
    """An answer's embed. It is rendered once per answer and sent again for every repeat of the
    question (bot.views.rendered), and discord.py asks for its payload at every send: the payload is
    built on the first send and kept. Nothing changes an answer's embed once it is rendered."""

    def to_dict(self) -> dict:  # type: ignore[override]
        try:
            return self._payload
        except AttributeError:
            self._payload = payload = super().to_dict()
            return payload


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _code(text: str, limit: int = FIELD_VALUE_MAX) -> str:
    """A code block that stays within ``limit`` by dropping whole lines, never a broken fence."""
    lines = text.splitlines()
    while lines and len("```\n" + "\n".join(lines) + "\n```") > limit:
        lines.pop()
    return "```\n" + "\n".join(lines) + "\n```"


def options_block(options: tuple[Option, ...], lang: Lang) -> str:
    rows = [[counted(o.name, o.gpu_count), f"{o.memory_gb:g}GB", f"{o.speed_vs_reference:.2f}×",
             f"{o.value_vs_best:.0%}", money(o)] for o in options]
    headers = [t(lang, k) for k in ("col.gpu", "col.memory", "col.speed", "col.value", "col.price")]
    return _code(table(headers, rows))


def headline(answer: Answer, lang: Lang) -> str:
    """The first line, rebuilt from structured fields so it reads naturally in every language."""
    catalog = load_catalog()
    if answer.kind == "recommend" and answer.options:
        top = answer.options[0]
        name = counted(top.name, top.gpu_count)
        return t(lang, "headline.recommend", name=name, memory=f"{top.memory_gb:g}",
                 workload=t(lang, f"workload.{top.workload}"),
                 within=t(lang, "headline.within_budget") if answer.query.budget else "",
                 speed=f"{top.speed_vs_reference:.2f}", reference=catalog.get(top.reference_id).short_name,
                 price=money(top), basis=t(lang, f"basis.{top.price.basis}"),
                 date=f"{top.price.date:%Y-%m}")
    if answer.kind == "compare" and answer.comparison:
        c = answer.comparison
        names = _names(c.gpu_ids, c.counts)
        main = next(r for r in c.rows if r.workload == c.workload)
        faster, slower, ratio = ((names[0], names[1], main.ratio) if main.ratio >= 1
                                 else (names[1], names[0], 1 / main.ratio))
        text = t(lang, "headline.compare", faster=faster, slower=slower, ratio=f"{ratio:.2f}",
                 workload=t(lang, f"workload.{c.workload}"))
        if all(v is not None for v in c.perf_per_kusd):
            better = names[0] if c.perf_per_kusd[0] >= c.perf_per_kusd[1] else names[1]
            text += " " + t(lang, "headline.compare_value", better=better)
        return text
    if answer.kind == "power" and answer.power:
        p = answer.power
        text = t(lang, "headline.power", count=p.gpu_count, gpu=catalog.get(p.gpu_id).short_name, load=p.load_w,
                 psu=p.recommended_psu_w)
        if p.power_limit:
            pl = p.power_limit
            text += " " + t(lang, "headline.power_limit", limit=pl.limit_w, slowdown=f"{pl.slowdown_percent:.0f}",
                            saved=pl.watts_saved_per_gpu * p.gpu_count)
        return text
    return phrase(lang, answer.headline)


def answer_embed(answer: Answer, lang: Lang = "en") -> AnswerEmbed:
    embed = AnswerEmbed(title=clip(t(lang, f"title.{answer.kind}"), TITLE_MAX),
                        description=clip(headline(answer, lang), DESCRIPTION_MAX),
                        colour=COLOURS.get(answer.kind, COLOURS["other"]))
    fields: list[tuple[str, str]] = []
    if answer.options:
        fields.append((t(lang, "field.options"), options_block(answer.options, lang)))
    if answer.alternatives:
        fields.append((t(lang, "field.more_gpus"), options_block(answer.alternatives, lang)))
    if answer.comparison:
        fields.append((t(lang, "field.details"), _code(_comparison_table(answer, lang))))
    if answer.break_even:
        b = answer.break_even
        fields.append((t(lang, "field.details"),
                       f"{b.kwh_per_year:,.0f} kWh/yr ≈ ${b.electricity_cost_per_year:,.0f}/yr · "
                       f"cloud ${b.cloud_cost_per_year:,.0f}/yr\n{phrase(lang, b.verdict)}"))
    if answer.explanation:
        e = answer.explanation.wording(lang)
        embed.description = clip(f"**{e.title}**\n{e.text}", DESCRIPTION_MAX)
        if e.figures:
            fields.append((t(lang, "field.figures"), "\n".join(f"• {f}" for f in e.figures)))
    if answer.cycles:
        fields.append((t(lang, "field.details"), _code(cycles_text(answer.cycles))))
    if answer.spec:
        fields.append((t(lang, "field.details"), _code(spec_text(answer.spec).split("\nSources:")[0])))
        fields.append((t(lang, "field.sources"), "\n".join(f"• {s}" for s in answer.spec.sources)))
    if answer.can_run:
        for block in can_run_blocks(answer.can_run):
            fields.append((t(lang, "field.details"), _code(block)))
    caveats = list(answer.caveats) + [c for o in answer.options[:1] for c in o.caveats]
    if caveats:
        fields.append((t(lang, "field.caveats"), "\n".join(f"• {phrase(lang, c)}" for c in caveats[:MAX_CAVEATS])))
    why = _why_lines(answer, lang)
    if why:
        fields.append((t(lang, "field.why"), "\n".join(f"• {w}" for w in why)))
    if answer.follow_up:
        fields.insert(0, ("❓", t(lang, f"followup.{answer.follow_up.field}")))
    tips = [*answer.notes, *answer.suggestions[:2]]
    if tips:
        fields.append((t(lang, "field.tips"), "\n".join(f"• {phrase(lang, s)}" for s in tips)))
    for name, value in fields[:MAX_FIELDS]:
        embed.add_field(name=clip(name, FIELD_NAME_MAX), value=clip(value, FIELD_VALUE_MAX), inline=False)
    footer = t(lang, "footer.guide")
    if answer.price_date:
        footer = t(lang, "footer.prices", date=f"{answer.price_date:%Y-%m-%d}",
                   reference=load_catalog().get("rtx-3090").short_name) + " · " + footer
    embed.set_footer(text=clip(footer, FOOTER_MAX))
    return fit_total(embed)


def _why_lines(answer: Answer, lang: Lang) -> list[str]:
    lines = []
    for rule in answer.rules:
        kind = rule.id.split(".")[0]
        if kind == "memory" and answer.options is not None and "≥" in rule.text and lang != "en":
            gb = rule.text.split("≥")[1].split("GB")[0].strip()
            lines.append(t(lang, "rule.memory", gb=gb, source=rule.source))
        elif kind == "metric" and lang != "en":
            lines.append(t(lang, "rule.metric", workload=t(lang, f"workload.{rule.id.split('.')[1]}")))
        elif kind == "explain" and answer.explanation is not None:  # the rule is the topic's title
            lines.append(answer.explanation.wording(lang).title)
        else:
            lines.append(phrase(lang, rule.text))
    return lines[:4]


def _comparison_table(answer: Answer, lang: Lang) -> str:
    c = answer.comparison
    rows = [[t(lang, f"workload.{r.workload}"), f"{r.ratio:.2f}×"] for r in c.rows]
    rows.append([t(lang, "row.memory"), f"{c.memory_gb[0]:g} / {c.memory_gb[1]:g} GB"])
    rows.append([t(lang, "row.bandwidth"), f"{c.bandwidth_gbs[0]:g} / {c.bandwidth_gbs[1]:g} GB/s"])
    rows.append([t(lang, "row.power"), f"{c.tdp_w[0]} / {c.tdp_w[1]} W"])
    prices = [f"${p.usd:,.0f}" if p else "—" for p in c.prices]
    rows.append([t(lang, "row.price"), " / ".join(prices)])
    if all(v is not None for v in c.perf_per_kusd):
        rows.append([t(lang, "row.per_kusd", workload=t(lang, f"workload.{c.workload}")),
                     " / ".join(f"{v:.0f}" for v in c.perf_per_kusd)])
    return table([" / ".join(_names(c.gpu_ids, c.counts)), ""], rows)


def _names(gpu_ids: tuple[str, ...], counts: tuple[int, ...]) -> list[str]:
    catalog = load_catalog()
    return [counted(catalog.get(g).short_name, n) for g, n in zip(gpu_ids, counts, strict=True)]


def why_embed(estimate: SpeedEstimate, relative: float, lang: Lang) -> discord.Embed:
    gpu = load_catalog().get(estimate.gpu_id)
    lines = [t(lang, "why.factor", name=f.name, value=f"{f.value:.3g}", basis=f.basis) for f in estimate.factors]
    if estimate.bound == "compute":
        lines.append(t(lang, "why.bound_compute"))
    lines += list(estimate.notes)
    embed = discord.Embed(
        title=clip(t(lang, "why.title", gpu=gpu.short_name, speed=f"{relative:.2f}",
                     workload=t(lang, f"workload.{estimate.workload}")), TITLE_MAX),
        description=clip("\n".join(f"• {line}" for line in lines), DESCRIPTION_MAX), colour=COLOURS["explain"])
    embed.set_footer(text=clip(estimate.source, FOOTER_MAX))
    return embed


def fit_total(embed: discord.Embed) -> discord.Embed:
    """Drop trailing fields until the whole embed is within Discord's 6,000-character total."""
    while len(embed) > TOTAL_MAX and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > TOTAL_MAX:
        embed.description = clip(embed.description or "", max(0, DESCRIPTION_MAX - (len(embed) - TOTAL_MAX)))
    return embed

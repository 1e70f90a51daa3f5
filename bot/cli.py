"""The terminal front end: ``gpu-advisor recommend|compare|canrun|breakeven|cycles|power|info|explain|ask|chat``.

Each subcommand builds the same ``Query`` a chat message or slash command would and prints the
engine's Answer as a table, or as JSON with ``--json``. Anything the user can fix — a value out of
range, NaN or infinity, an unknown GPU, model, precision or currency, an option argparse refuses,
a ``--chart`` path that cannot be written, a database that cannot be reached by ``migrate`` or
``feedback-report`` — exits with status 2 and one line on stderr (``gpu-advisor: …``), with
nothing on stdout; unknown GPU names get "did you mean ...".
"""

from __future__ import annotations

import argparse
import os
import sys
import unicodedata
from collections.abc import Callable, Coroutine, Sequence
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from bot.render import answer_text
from bot.words import english
from engine.advisor import AdviceContext, advise
from engine.answer import Answer
from engine.catalog import load_catalog
from engine.errors import UserError
from engine.libraries import libraries
from engine.money import Money, exchange_rates
from engine.query import TASKS, TOPICS, Query
from engine.specs import WORKLOADS

if TYPE_CHECKING:
    from bot.config import Settings

T = TypeVar("T")


MAX_DAYS = 36_500  # feedback-report --days: a century


class UsageError(Exception):
    """A value the user can fix; printed as one line, exit status 2."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse's refusals (unknown option, bad choice, not a number) as one line and status 2,
    like every other refusal here, instead of the usage block followed by the error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, one_line(f"{self.prog}: error: {message} (see {self.prog} --help)") + "\n")


def one_line(text: str) -> str:
    """``text`` on one line: line breaks and other control or invisible formatting characters shown
    escaped, so a hostile value cannot add lines or reorder the terminal's text."""
    out = []
    for ch in str(text):
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            out.append(ch.encode("unicode_escape").decode("ascii"))
        else:
            out.append(ch)
    return "".join(out)


def currency_arg(text: str) -> str:
    """An ISO code with an exchange rate, or a UsageError naming the known ones."""
    code = text.strip().upper()
    if not (len(code) == 3 and code.isascii() and code.isalpha()) or not exchange_rates().supports(code):
        known = ", ".join(["USD", *sorted(exchange_rates().per_usd)])
        raise UsageError(f"unknown currency {text[:20]!r}; known: {known}")
    return code


def gpu_arg(text: str) -> str:
    catalog = load_catalog()
    gpu_id = catalog.resolve(text)
    if gpu_id is None:
        hints = catalog.suggest(text)
        hint = f" Did you mean {', '.join(hints)}?" if hints else ""
        raise UsageError(f"unknown GPU {text!r}.{hint}")
    return gpu_id


def counted_gpu(text: str) -> tuple[int, str]:
    """'2x3090', '2x 3090' or '3090' → (count, id)."""
    head, sep, rest = text.lower().partition("x")
    if sep and head.strip().isdigit() and rest.strip():
        return positive_int(head.strip(), "GPU count"), gpu_arg(rest.strip())
    return 1, gpu_arg(text)


def positive_int(text: str, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{what} must be a whole number, not {text!r}") from None
    if value < 1:
        raise UsageError(f"{what} must be at least 1, not {value}")
    return value


def money_arg(text: str, currency: str) -> Money:
    try:
        amount = Decimal(text.replace(",", ""))
    except InvalidOperation:
        raise UsageError(f"budget must be a number, not {text!r}") from None
    if not amount.is_finite() or amount <= 0:
        raise UsageError(f"budget must be a positive amount, not {text}")
    if amount > 10_000_000:
        raise UsageError("budget must be at most 10,000,000")
    return Money(amount=amount, currency=currency_arg(currency))


def chart_path(text: str) -> Path:
    """Where ``--chart`` will write, checked before any work: a file name in a folder that exists
    and can be written, not a folder itself."""
    path = Path(text)
    if not text.strip() or path.is_dir():
        raise UsageError(f"--chart needs a file name, not the folder {text!r}")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"--chart: the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"--chart: {text!r} cannot be written (permission denied)")
    return path


def emit(answer: Answer, args: argparse.Namespace) -> None:
    """Print the answer; with ``--chart`` draw and write the chart first, so a chart that cannot
    be drawn or written leaves one line on stderr and nothing half-done on stdout."""
    if getattr(args, "chart", None):
        from bot import charts

        spec = charts.answer_spec(answer, "en")
        if spec is None:
            raise UsageError("there is no chart for this answer")
        path = chart_path(args.chart)
        try:
            path.write_bytes(charts.render_spec(spec))
        except OSError as exc:
            raise UsageError(f"--chart: cannot write {args.chart!r}: {exc.strerror or exc}") from None
        print(answer.model_dump_json(indent=2) if args.json else answer_text(answer))
        print(f"chart written to {args.chart}", file=sys.stderr)
        return
    print(answer.model_dump_json(indent=2) if args.json else answer_text(answer))


def _context(args: argparse.Namespace) -> AdviceContext:
    return AdviceContext(snapshot=args.prices, currency=currency_arg(getattr(args, "currency", "USD")))


def cmd_recommend(args: argparse.Namespace) -> None:
    fields: dict = {"kind": "recommend"}
    if args.task:
        fields["task"] = args.task
    if args.budget is not None:
        fields["budget"] = money_arg(args.budget, args.currency)
    if args.memory is not None:
        if args.memory <= 0:
            raise UsageError("memory must be a positive number of GB")
        fields["min_memory_gb"] = args.memory
    if args.count is not None:
        fields["num_gpus"] = positive_int(str(args.count), "count")
    if args.condition:
        fields["condition"] = args.condition
    if args.workload:
        fields["workload"] = args.workload
    if args.hours is not None:
        if not 0 < args.hours <= 24:
            raise UsageError("hours per day must be more than 0 and at most 24")
        fields["hours_per_day"] = args.hours
    emit(advise(Query(**fields), _context(args)), args)


def cmd_compare(args: argparse.Namespace) -> None:
    (count_a, a), (count_b, b) = counted_gpu(args.gpu_a), counted_gpu(args.gpu_b)
    fields: dict = {"kind": "compare", "gpus": (a, b), "gpu_counts": (count_a, count_b)}
    if args.workload:
        fields["workload"] = args.workload
    if args.condition:
        fields["condition"] = args.condition
    emit(advise(Query(**fields), _context(args)), args)


# The guide's worked case ("a $2,200 desktop against an AWS p3.2xlarge at $2.14/h"), used when no card is named.
GUIDE_DESKTOP_USD, GUIDE_CLOUD_USD_PER_HOUR = 2200, 2.14


def cmd_breakeven(args: argparse.Namespace) -> None:
    """Rent or buy through the same Query a chat question builds: ``breakeven --gpu 3090 --hours 3``
    and "rent or buy a 3090, 3 hours a day" are one question with one answer."""
    if args.utilization is not None and args.hours is not None:
        raise UsageError("give one of --hours (per day) or --utilization (percent), not both")
    if args.utilization is not None and not 0 < args.utilization <= 100:
        raise UsageError("utilization must be more than 0 and at most 100 percent")
    fields: dict = {"kind": "cloud_vs_buy"}
    if args.utilization is not None:
        fields["hours_per_day"] = args.utilization / 100 * 24
    elif args.hours is not None:
        fields["hours_per_day"] = args.hours
    if args.gpu:
        fields["gpus"] = (gpu_arg(args.gpu),)
    desktop, cloud = args.desktop_cost, args.cloud_hourly
    if not args.gpu:
        desktop = GUIDE_DESKTOP_USD if desktop is None else desktop
        cloud = GUIDE_CLOUD_USD_PER_HOUR if cloud is None else cloud
    for name, value in (
        ("desktop_usd", desktop),
        ("cloud_usd_per_hour", cloud),
        ("electricity_usd_per_kwh", args.electricity),
    ):
        if value is not None:
            fields[name] = _decimal(value)
    emit(advise(Query(**fields), _context(args)), args)


def _decimal(value: float) -> Decimal:
    return Decimal(str(value))


def cmd_cycles(args: argparse.Namespace) -> None:
    query = Query(kind="cycles", edition=args.edition, tensor_cores=not args.no_tensor_cores, tma=args.tma)
    emit(advise(query, _context(args)), args)


def cmd_power(args: argparse.Namespace) -> None:
    fields: dict = {"kind": "power", "gpus": (gpu_arg(args.gpu),), "num_gpus": positive_int(str(args.count), "count")}
    if args.power_limit is not None:
        fields["power_limit_w"] = args.power_limit
    emit(advise(Query(**fields), _context(args)), args)


def cmd_info(args: argparse.Namespace) -> None:
    answer = advise(Query(kind="info", gpus=(gpu_arg(" ".join(args.gpu)),)), _context(args))
    if args.json and answer.spec is not None:  # the spec card's facts, as stored in data/gpus.yaml
        print(answer.spec.model_dump_json(indent=2, by_alias=True))
        return
    emit(answer, args)


def cmd_canrun(args: argparse.Namespace) -> None:
    fields: dict = {"kind": "can_run", "model": " ".join(args.model)}
    count = positive_int(str(args.count), "count")
    if args.gpu:
        fields["gpus"], fields["gpu_counts"] = (gpu_arg(" ".join(args.gpu)),), (count,)
    elif count > 1:
        fields["num_gpus"] = count
    for name, value in (("mode", args.mode), ("precision", args.precision), ("context_tokens", args.context)):
        if value is not None:
            fields[name] = value
    emit(advise(Query(**fields), _context(args)), args)


def cmd_explain(args: argparse.Namespace) -> None:
    library = libraries().get(args.topic)  # "explain vllm": what the library needs of a GPU (no guide topic)
    query = Query(kind="explain", model=library.short) if library else Query(kind="explain", topic=args.topic)
    emit(advise(query, _context(args)), args)


def cmd_ask(args: argparse.Namespace) -> None:
    from bot.chat import respond, understand

    result = understand(" ".join(args.question), None, currency_arg(args.currency))
    answer = respond(result, _context(args))
    if args.json or getattr(args, "chart", None):
        emit(answer, args)
    else:
        from bot.terminal import reply_text

        print(reply_text(answer, result.language))


def _innermost(error: BaseException) -> str:
    """The root cause's type and first line: "ConnectionRefusedError: Connect call failed …"."""
    seen: list[BaseException] = []
    item: BaseException | None = error
    while item is not None and len(seen) < 10 and all(item is not s for s in seen):
        seen.append(item)
        item = getattr(item, "orig", None) or item.__cause__ or item.__context__
    inner = seen[-1]
    first = str(inner).splitlines()[0] if str(inner) else ""
    return f"{type(inner).__name__}: {first}"[:200] if first else type(inner).__name__


def _with_database(work: str, run: Callable[[Settings], Coroutine[Any, Any, T]]) -> T:
    """Run a database command (a coroutine factory); a database that cannot be opened or used is
    one line, status 2 — the cause without the URL or its password, and what to check."""
    import asyncio

    from bot.config import Settings

    try:
        settings = Settings()
    except Exception as exc:  # a malformed setting in the environment or .env
        raise UsageError(f"cannot read the settings: {_innermost(exc)}") from None
    try:
        return asyncio.run(run(settings))
    except (UsageError, UserError, KeyboardInterrupt):
        raise
    except Exception as exc:
        raise UsageError(
            f"cannot {work}: {_innermost(exc)}; check DATABASE_URL (or DATA_DIR for SQLite) and that the "
            "database is running"
        ) from None


def cmd_feedback_report(args: argparse.Namespace) -> None:
    """Which answers users disagree with: up/down votes per kind and task, the most down-voted answers."""
    import datetime as dt

    from bot.store import format_feedback_report, open_store

    if not 0 <= args.days <= MAX_DAYS:
        raise UsageError(f"--days must be between 0 (all) and {MAX_DAYS:,}, not {args.days}")

    async def report(settings: Settings) -> str:
        store = await open_store(settings.database_url, data_dir=settings.data_dir)
        try:
            since = dt.datetime.now(dt.UTC) - dt.timedelta(days=args.days) if args.days else None
            return format_feedback_report(await store.feedback.report(since=since))
        finally:
            await store.close()

    print(_with_database("read the feedback", report))


def cmd_migrate(args: argparse.Namespace) -> None:
    """Bring the database (DATABASE_URL, or the SQLite file) to the newest schema, then exit."""
    from bot.store import open_store

    async def migrate(settings: Settings) -> str:
        store = await open_store(settings.database_url, data_dir=settings.data_dir)
        backend = store.backend
        await store.close()
        return backend

    print(f"database migrated ({_with_database('migrate the database', migrate)})")


def cmd_chat(args: argparse.Namespace) -> None:
    from bot.terminal import run_chat

    run_chat(currency=currency_arg(args.currency), snapshot=args.prices)


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="gpu-advisor", description="Which GPU to buy for deep learning, and why.")
    common = ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help="print the engine's answer as JSON")
    common.add_argument("--prices", help="price snapshot id (e.g. 2023-01, 2020-09; default: newest)")
    common.add_argument("--currency", default="USD", help="currency for budgets and prices (ISO code)")
    charted = ArgumentParser(add_help=False)
    charted.add_argument("--chart", metavar="OUT.png", help="also draw the answer's chart as a PNG")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("recommend", parents=[common, charted], help="best GPUs for a task and budget")
    p.add_argument("--task", choices=TASKS)
    p.add_argument("--budget", help="most you will spend on GPUs")
    p.add_argument("--memory", type=float, help="minimum GPU memory in GB")
    p.add_argument("--count", type=int, help="number of GPUs")
    p.add_argument("--condition", choices=("new", "used"))
    p.add_argument("--workload", choices=WORKLOADS)
    p.add_argument("--hours", type=float, help="hours of use per day")
    p.set_defaults(func=cmd_recommend)

    p = sub.add_parser("compare", parents=[common, charted], help="two GPUs side by side, e.g. '4090' '2x3090'")
    p.add_argument("gpu_a")
    p.add_argument("gpu_b")
    p.add_argument("--workload", choices=WORKLOADS)
    p.add_argument("--condition", choices=("new", "used"))
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("breakeven", parents=[common], help="days until a desktop beats renting")
    p.add_argument("--gpu", help="the desktop's card: priced from the catalog, its TDP as the power draw")
    p.add_argument(
        "--desktop-cost", type=float, help="USD (default: the card's price; without --gpu the guide's $2,200)"
    )
    p.add_argument("--cloud-hourly", type=float, help="USD per GPU-hour (default: the cloud data; without --gpu $2.14)")
    p.add_argument("--hours", type=float, help="hours of use per day (default: the guide's 15 %%)")
    p.add_argument("--utilization", type=float, help="percent of the day")
    p.add_argument("--electricity", type=float, help="$ per kWh (default 0.12)")
    p.set_defaults(func=cmd_breakeven)

    p = sub.add_parser("cycles", parents=[common], help="the guide's worked matmul example")
    p.add_argument("--edition", choices=("2023", "2020"), default="2023")
    p.add_argument("--no-tensor-cores", action="store_true")
    p.add_argument("--tma", action="store_true")
    p.set_defaults(func=cmd_cycles)

    p = sub.add_parser("power", parents=[common, charted], help="PSU, power limit, slots and cooling")
    p.add_argument("gpu")
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--power-limit", type=int, help="watts per GPU")
    p.set_defaults(func=cmd_power)

    p = sub.add_parser("canrun", parents=[common, charted], help="can a model run on a GPU, how fast, what fits")
    p.add_argument("model", nargs="+", help="e.g. llama 3 8b, qwen2.5 14b, 70b (quotes optional)")
    p.add_argument("--gpu", nargs="+", help="e.g. 3060 12G")
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--mode", choices=("inference", "lora", "qlora", "full_finetune", "pretrain"))
    p.add_argument("--precision", help="bf16, fp8, int8, q4_k_m, nf4, ... (default: best that fits)")
    p.add_argument("--context", type=int, help="context length in tokens")
    p.set_defaults(func=cmd_canrun)

    p = sub.add_parser("info", parents=[common], help="a GPU's spec card with sources")
    p.add_argument("gpu", nargs="+")
    p.set_defaults(func=cmd_info)

    p = sub.add_parser("explain", parents=[common], help="the guide's answer on a topic")
    p.add_argument("topic", choices=(*TOPICS, *libraries()))
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("ask", parents=[common, charted], help="a question in plain English or Chinese")
    p.add_argument("question", nargs="+")
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser("feedback-report", help="votes on answers: what users disagree with")
    p.add_argument("--days", type=int, default=0, help="only the last N days (default: all)")
    p.set_defaults(func=cmd_feedback_report)

    p = sub.add_parser("migrate", help="upgrade the database schema (DATABASE_URL) and exit")
    p.set_defaults(func=cmd_migrate)

    p = sub.add_parser("chat", parents=[common], help="a conversation in the terminal (follow-ups refine)")
    p.set_defaults(func=cmd_chat)
    return parser


def _refuse(message: object) -> int:
    print(one_line(f"gpu-advisor: {message}"), file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help (0) or ArgumentParser.error's one line (2)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if getattr(args, "prices", None):
            load_catalog().snapshot(args.prices)
        if hasattr(args, "currency"):
            currency_arg(args.currency)  # before any work: every subcommand with --currency uses it
        if getattr(args, "chart", None):
            chart_path(args.chart)
        args.func(args)
    except UsageError as exc:
        return _refuse(exc)
    except UserError as exc:  # a value the question may not have: the same words chat and Discord use
        return _refuse(english(exc.message))
    except KeyError as exc:
        return _refuse(exc.args[0] if exc.args else exc)
    except BrokenPipeError:  # output piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The charts' worker process: ``python -m bot.charts.worker``, started by bot.charts.rendering.

Reads requests from stdin and writes answers to stdout, each a 4-byte big-endian length and a
pickle: a :class:`~bot.charts.specs.ChartSpec` to draw (answer ``("ok", png)``), or ``"warm"`` to
load matplotlib and the fonts (answer ``("ok", b"")``); a failure answers ``("error", text)``. It
imports only what drawing needs, so it starts quickly and holds matplotlib's memory instead of the
bot. It ends when stdin closes (the bot stopped), ignores SIGINT (the bot decides when it stops) and
runs at a lower priority (nice 10) than the bot, so that drawing never delays an answer.
Pickles only ever come from the bot process that started it, over its own pipes.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from typing import Any

NICE = 10


def _answer(request: Any) -> tuple[str, Any]:
    from bot.charts import drawing, rendering

    try:
        if request == "warm":
            rendering._warm_here()
            return "ok", b""
        return "ok", drawing.draw(request)
    except Exception as error:  # the bot raises it on its side, with this text
        return "error", f"{type(error).__name__}: {error}"


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Lower priority than the bot: on a busy host the scheduler runs the bot's event loop first.
    os.nice(NICE)
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    while True:
        header = source.read(4)
        if len(header) < 4:
            return
        request = pickle.loads(source.read(int.from_bytes(header, "big")))
        data = pickle.dumps(_answer(request), protocol=pickle.HIGHEST_PROTOCOL)
        sink.write(len(data).to_bytes(4, "big") + data)
        sink.flush()


if __name__ == "__main__":
    main()

"""How well the engine's speeds match published measurements (issue 22; docs/models.md "Calibration").

Prints, and appends to bench/results/calibration.jsonl:
- 16-bit training against Lambda Labs' measured relative throughput: median |log error| of the guide's
  model and of the calibrated model, and leave-one-architecture-out (each architecture predicted by a fit
  that never saw it);
- batch-1 decode tokens/s: the share of rows within ±25 %, over all rows, the fitted rows and the held-out
  rows, with the counts of measurements, GPUs and vendors.
With --plots, writes the residual plots to docs/img/ (matplotlib).
Run: .venv/bin/python bench/calibration_eval.py [--plots] [--rows]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import save  # noqa: E402
from engine import calibration as cal  # noqa: E402
from engine.catalog import load_catalog  # noqa: E402

IMG = ROOT / "docs" / "img"


def _median_abs(errors: list[float]) -> float:
    return float(np.median(np.abs(errors)))


def _within(errors: list[float], share: float = 0.25) -> float:
    return float(np.mean([abs(math.exp(e) - 1) <= share for e in errors])) if errors else float("nan")


def training_figures() -> dict[str, float]:
    rows = cal.training_rows()
    fit = cal.training_fit()
    return {
        "training_rows": len([r for r in rows if r.gpu != cal.REFERENCE]),
        "training_gpus": len({r.gpu for r in rows}),
        "training_guide_median_abs_log": _median_abs(cal.training_errors(rows, None)),
        "training_calibrated_median_abs_log": _median_abs(cal.training_errors(rows, fit)),
        "training_loao_median_abs_log": _median_abs(cal.leave_one_architecture_out(rows)),
        "training_compute_share": fit.compute_share,
    }


def decode_figures() -> dict[str, float]:
    rows = cal.decode_rows()
    fit = cal.decode_fit()
    fitted = tuple(r for r in rows if not r.held_out)
    held = tuple(r for r in rows if r.held_out)
    catalog = load_catalog()
    return {
        "decode_rows": len(rows),
        "decode_fitted_rows": len(fitted),
        "decode_held_out_rows": len(held),
        "decode_gpus": len({r.gpu for r in rows}),
        "decode_vendors": len({catalog.get(r.gpu).vendor for r in rows}),
        "decode_within_25_all": _within(cal.decode_errors(rows, fit)),
        "decode_within_25_fitted": _within(cal.decode_errors(fitted, fit)),
        "decode_within_25_held_out": _within(cal.decode_errors(held, fit)),
        "decode_overhead_ms": fit.overhead_s * 1e3,
        **{f"decode_overhead_ms[{g}]": t0 * 1e3 for g, t0 in sorted(fit.group_overhead_s.items())},
    }


def print_rows() -> None:
    fit = cal.training_fit()
    print("\n16-bit training, relative to an RTX 3090 (measured · guide · calibrated)")
    for r in cal.training_rows():
        if r.gpu == cal.REFERENCE:
            continue
        print(
            f"  {r.set_id:10s} {r.gpu:18s} {r.relative:6.2f} {cal.guide_ratio(r.gpu):6.2f}"
            f" {cal.calibrated_ratio(r.gpu, fit):6.2f}"
        )
    dfit = cal.decode_fit()
    print("\ndecode tokens/s (measured · predicted · error; H = held out)")
    for d in cal.decode_rows():
        err = cal.decode_errors((d,), dfit)
        if err:
            p = d.tg * math.exp(err[0])
            mark = "H" if d.held_out else " "
            print(
                f"  {mark} {d.gpu:22s} {d.backend:17s} {d.model:13s} {d.precision:9s}"
                f" {d.tg:7.1f} {p:7.1f} {p / d.tg - 1:+.0%}"
            )


def plots() -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    IMG.mkdir(parents=True, exist_ok=True)
    out = []
    catalog = load_catalog()
    rows = [r for r in cal.training_rows() if r.gpu != cal.REFERENCE]
    fit = cal.training_fit()
    measured = np.array([r.relative for r in rows])
    guide = np.array([cal.guide_ratio(r.gpu) for r in rows])
    calibrated = np.array([cal.calibrated_ratio(r.gpu, fit) for r in rows])
    fig, ax = plt.subplots(figsize=(7, 5))
    ax.scatter(measured, guide, marker="o", facecolors="none", edgecolors="#999999", label="guide's model")
    ax.scatter(measured, calibrated, marker="o", color="#0072B2", label="calibrated")
    for r, x, y in zip(rows, measured, calibrated, strict=True):
        if abs(math.log(y / x)) > 0.1:
            ax.annotate(catalog.get(r.gpu).short_name, (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
    lims = (0.2, 12.0)
    ax.plot(lims, lims, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lims)
    ax.set_ylim(lims)
    ax.set_xlabel("measured 16-bit training throughput vs RTX 3090 (Lambda Labs)")
    ax.set_ylabel("predicted")
    ax.set_title("16-bit training: guide's model and calibrated, against measurements")
    ax.legend()
    fig.tight_layout()
    path = IMG / "calibration_training.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    out.append(path)

    dfit = cal.decode_fit()
    drows = [r for r in cal.decode_rows() if cal.decode_errors((r,), dfit)]
    colours = {"nvidia": "#009E73", "amd": "#D55E00", "apple": "#999999", "intel": "#0072B2"}
    fig, ax = plt.subplots(figsize=(7, 5))
    for held in (False, True):
        pick = [r for r in drows if r.held_out == held]
        xs = [r.tg for r in pick]
        ys = [r.tg * math.exp(cal.decode_errors((r,), dfit)[0]) for r in pick]
        cs = [colours[catalog.get(r.gpu).vendor] for r in pick]
        ax.scatter(xs, ys, c=cs, marker="^" if held else "o", label="held out" if held else "fitted")
    lims = (5.0, 400.0)
    ax.plot(lims, lims, color="black", linewidth=0.8)
    ax.fill_between(lims, [v * 0.75 for v in lims], [v * 1.25 for v in lims], color="#cccccc", alpha=0.4, label="±25 %")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lims)
    ax.set_ylim(lims)
    ax.set_xlabel("measured decode tokens/s (batch 1; green NVIDIA, orange AMD, grey Apple)")
    ax.set_ylabel("predicted tokens/s")
    ax.set_title("Decode: calibrated model against published llama.cpp / MLX / ExLlama runs")
    ax.legend()
    fig.tight_layout()
    path = IMG / "calibration_decode.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    out.append(path)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plots", action="store_true", help="write docs/img/calibration_*.png")
    parser.add_argument("--rows", action="store_true", help="print every measurement against the model")
    args = parser.parse_args(argv)
    figures = training_figures() | decode_figures()
    t, d = figures, figures
    print("16-bit training vs Lambda Labs' measurements (median |log error|, ratio to an RTX 3090)")
    print(f"  rows {t['training_rows']} over {t['training_gpus']} GPUs (two benchmark sets)")
    print(f"  guide's model          {t['training_guide_median_abs_log']:.3f}")
    print(f"  calibrated (fit)       {t['training_calibrated_median_abs_log']:.3f}   target ≤ 0.10")
    print(f"  leave-one-arch-out     {t['training_loao_median_abs_log']:.3f}")
    print(f"  compute share k        {t['training_compute_share']:.2f}")
    print("decode tokens/s vs published runs (share within ±25 %)")
    print(
        f"  rows {d['decode_rows']} ({d['decode_fitted_rows']} fitted, {d['decode_held_out_rows']} held out), "
        f"{d['decode_gpus']} GPUs, {d['decode_vendors']} vendors; per-token cost {d['decode_overhead_ms']:.1f} ms"
        + "".join(f", {k[19:-1]} {v:.1f} ms" for k, v in d.items() if k.startswith("decode_overhead_ms["))
    )
    print(
        f"  all {d['decode_within_25_all']:.0%}   fitted {d['decode_within_25_fitted']:.0%}"
        f"   held out {d['decode_within_25_held_out']:.0%}   target ≥ 80 %"
    )
    if args.rows:
        print_rows()
    if args.plots:
        for path in plots():
            print(f"wrote {path.relative_to(ROOT)}")
    save("calibration", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The balance report of ``ferrovia simulate --report DIR``: one self-contained HTML page.

Plots are drawn by matplotlib (Agg, no display) and embedded as PNG data URIs, so the page
needs no network and no files beside it; the numbers are in ``simulation.json`` next to it.
A comparison (BASE VARIANT) draws both games in each plot and lists the differences.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable
from typing import Any

COLOURS = ("#1f77b4", "#d62728")


def _png(draw: Callable[[Any], None], *, width: float = 6.4, height: float = 3.4) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, height), dpi=90)
    try:
        draw(ax)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
    finally:
        plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _img(title: str, data: str) -> str:
    return (
        f'<figure><img class="plot" alt="{html.escape(title)}" '
        f'src="data:image/png;base64,{data}"><figcaption>{html.escape(title)}</figcaption>'
        "</figure>"
    )


def _label(s: dict[str, Any]) -> str:
    return str(s.get("title") or s.get("game"))


def plots(summaries: list[dict[str, Any]]) -> list[str]:
    """Every figure of the report, as <figure> HTML."""
    out: list[str] = []
    n = len(summaries)

    def ors(ax: Any) -> None:
        data = [[r["ors"] for r in s["records"] if "error" not in r] for s in summaries]
        lo = min((min(d) for d in data if d), default=0)
        hi = max((max(d) for d in data if d), default=1)
        bins = [x - 0.5 for x in range(lo, hi + 2)]
        for i, (s, d) in enumerate(zip(summaries, data, strict=True)):
            ax.hist(d, bins=bins, alpha=0.6, color=COLOURS[i], label=_label(s))
        for ref in summaries[0].get("reference", []):
            ax.axvline(ref["ors"], color="black", linestyle="--", linewidth=1)
        ax.set_xlabel("operating rounds per game (dashed: recorded games)")
        ax.set_ylabel("games")
        if n > 1:
            ax.legend()

    out.append(_img("Game length", _png(ors)))

    def seats(ax: Any) -> None:
        names = list(summaries[0]["winners"]["by_seat"])
        width = 0.8 / n
        for i, s in enumerate(summaries):
            rows = [s["winners"]["by_seat"].get(k, {"rate": 0, "ci95": [0, 0]}) for k in names]
            rates = [r["rate"] for r in rows]
            err = [
                [max(0.0, r["rate"] - r["ci95"][0]) for r in rows],
                [max(0.0, r["ci95"][1] - r["rate"]) for r in rows],
            ]
            xs = [j + i * width for j in range(len(names))]
            ax.bar(xs, rates, width=width, yerr=err, capsize=3, color=COLOURS[i], label=_label(s))
        ax.axhline(1 / max(1, len(names)), color="grey", linestyle=":", linewidth=1)
        ax.set_xticks([j + width * (n - 1) / 2 for j in range(len(names))])
        ax.set_xticklabels([f"seat {k}" for k in names])
        ax.set_ylabel("win rate (95% interval)")
        if n > 1:
            ax.legend()

    out.append(_img("Wins by seat", _png(seats)))

    def bank(ax: Any) -> None:
        for i, s in enumerate(summaries):
            b = s["bank_over_time"]
            xs = list(range(len(b["mean"])))
            ax.plot(xs, b["mean"], color=COLOURS[i], label=_label(s))
            ax.fill_between(xs, b["p10"], b["p90"], color=COLOURS[i], alpha=0.2)
        ax.set_xlabel("operating round (0: start)")
        ax.set_ylabel("money in the bank (mean, 10-90 %)")
        if n > 1:
            ax.legend()

    out.append(_img("Money in the bank over time", _png(bank)))

    def trains(ax: Any) -> None:
        kinds = list(summaries[0]["phase_timing"])
        for s in summaries[1:]:
            kinds += [k for k in s["phase_timing"] if k not in kinds]
        width = 0.8 / n
        for i, s in enumerate(summaries):
            pt = s["phase_timing"]
            means = [pt[k]["mean"] if k in pt else 0 for k in kinds]
            err = [
                [pt[k]["mean"] - pt[k]["min"] if k in pt else 0 for k in kinds],
                [pt[k]["max"] - pt[k]["mean"] if k in pt else 0 for k in kinds],
            ]
            xs = [j + i * width for j in range(len(kinds))]
            ax.bar(xs, means, width=width, yerr=err, capsize=3, color=COLOURS[i], label=_label(s))
        ax.set_xticks([j + width * (n - 1) / 2 for j in range(len(kinds))])
        ax.set_xticklabels(kinds)
        ax.set_ylabel("OR of the first purchase (mean, min-max)")
        if n > 1:
            ax.legend()

    out.append(_img("Phase timing: when each train type is first bought", _png(trains)))

    def grouped(
        ax: Any, rows_of: Callable[[dict[str, Any]], dict[str, float]], ylabel: str, **ticks: Any
    ) -> None:
        """One bar per name and summary, side by side (every summary's names, sorted)."""
        names = sorted({k for s in summaries for k in rows_of(s)})
        width = 0.8 / n
        for i, s in enumerate(summaries):
            rows = rows_of(s)
            ax.bar(
                [j + i * width for j in range(len(names))],
                [rows.get(k, 0) for k in names],
                width=width,
                color=COLOURS[i],
                label=_label(s),
            )
        ax.set_xticks([j + width * (n - 1) / 2 for j in range(len(names))])
        ax.set_xticklabels(names, ha="right", **ticks)
        ax.set_ylabel(ylabel)
        if n > 1:
            ax.legend()

    def revenue(ax: Any) -> None:
        grouped(ax, lambda s: s["revenue"]["by_company"], "route revenue per game", rotation=45)

    out.append(_img("Revenue by company", _png(revenue)))

    def homes(ax: Any) -> None:
        grouped(ax, lambda s: s["revenue"]["by_home_hex"], "route revenue per game", rotation=45)
        ax.set_xlabel("home station hex of the company")

    out.append(_img("Revenue by home hex", _png(homes)))

    def privates(ax: Any) -> None:
        grouped(
            ax,
            lambda s: {k: r["rate"] for k, r in s["winners"]["by_start_private"].items()},
            "its starting holder wins",
            rotation=60,
            fontsize=7,
        )

    out.append(_img("Wins by starting private", _png(privates, width=8)))

    def spread(ax: Any) -> None:
        for i, s in enumerate(summaries):
            ok = [r for r in s["records"] if "error" not in r]
            vals = [max(r["scores"].values()) - min(r["scores"].values()) for r in ok]
            ax.hist(vals, bins=15, alpha=0.6, color=COLOURS[i], label=_label(s))
        ax.set_xlabel("final score spread (best - worst player)")
        ax.set_ylabel("games")
        if n > 1:
            ax.legend()

    out.append(_img("Final score spread", _png(spread)))
    return out


def _table(rows: list[list[Any]], head: list[str]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in rows
    )
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _pct(r: dict[str, Any]) -> str:
    return f"{r['rate']:.0%} ({r['count']}/{r['of']}; 95% {r['ci95'][0]:.0%}-{r['ci95'][1]:.0%})"


def _summary_table(s: dict[str, Any]) -> str:
    o, a = s["length"]["ors"], s["length"]["actions"]
    rows: list[list[Any]] = [
        ["games", s["games"]],
        ["players / bots", f"{s.get('players')} / {', '.join(s.get('bots', []))}"],
        ["seeds", f"{s.get('seed')} to {int(s.get('seed', 1)) + s['games'] - 1}"],
        ["bank broken", _pct(s["bank_broken"])],
        ["end reasons", ", ".join(f"{k}: {v}" for k, v in s["end_reasons"].items())],
        [
            "ORs per game",
            f"mean {o.get('mean')}, median {o.get('median')}, {o.get('min')}-{o.get('max')}",
        ],
        ["actions per game", f"mean {a.get('mean')}, {a.get('min')}-{a.get('max')}"],
        ["score spread", f"mean {s['scores']['spread'].get('mean')}"],
        [
            "floats / closures per game",
            f"{s['companies']['floats_per_game']} / {s['companies']['closures_per_game']}",
        ],
        ["bankruptcies", s["companies"]["bankruptcies"]],
        ["failed games", len(s["errors"])],
    ]
    for ref in s.get("reference", []):
        rows.append(
            [
                f"recorded {ref['file']}",
                f"{ref['ors']} ORs, {ref['actions']} actions, ends {ref['end_reason']}",
            ]
        )
    for k, v in s["winners"]["by_bot"].items():
        rows.append([f"wins by {k} bots", _pct(v)])
    for k, v in s["winners"]["head_to_head"].items():
        a_, b_ = k.split(">")
        rows.append([f"best {a_} beats best {b_}", _pct(v)])
    return _table(rows, ["measure", _label(s)])


def _games_table(s: dict[str, Any]) -> str:
    rows = []
    for r in s["records"]:
        if "error" in r:
            rows.append([r["seed"], "error", "", "", "", r["error"][:80]])
            continue
        log = r.get("log_file")
        rows.append(
            [
                r["seed"],
                r["end_reason"],
                r["ors"],
                r["actions"],
                f"seat {r['winner']} ({r['bots'][int(r['winner']) - 1]})"
                if str(r["winner"]).isdigit() and int(r["winner"]) <= len(r["bots"])
                else r["winner"],
                f"ferrovia view {log} -o game-{r['seed']}.html" if log else "",
            ]
        )
    return _table(rows, ["seed", "end", "ORs", "actions", "winner", "open it"])


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1200px; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #f0f0f0; }
figure { display: inline-block; margin: 0.5em; vertical-align: top; }
figcaption { text-align: center; font-size: 0.9em; color: #555; }
img.plot { max-width: 100%; border: 1px solid #ddd; }
"""


def report_html(doc: dict[str, Any]) -> str:
    """The page for one summary, or for a comparison ``{"base", "variant", "differences"}``."""
    if "base" in doc:
        summaries = [doc["base"], doc["variant"]]
        title = f"{_label(summaries[0])} vs {_label(summaries[1])}"
    else:
        summaries = [doc]
        title = _label(doc)
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Ferrovia simulation: {html.escape(title)}</title><style>{STYLE}</style>",
        "</head><body>",
        f"<h1>Simulation: {html.escape(title)}</h1>",
        "<p>Numbers in <code>simulation.json</code> next to this page; the same seeds give the "
        "same numbers.</p>",
    ]
    if "differences" in doc:
        rows = [
            [
                d["measure"],
                d["base"],
                d["variant"],
                f"{d['difference']:+.3g}",
                f"[{d['ci95'][0]:+.3g}, {d['ci95'][1]:+.3g}]",
                d["verdict"],
            ]
            for d in doc["differences"]
        ]
        parts.append("<h2>Differences (variant - base, same seeds)</h2>")
        parts.append(_table(rows, ["measure", "base", "variant", "difference", "95%", "verdict"]))
    parts.append("<h2>Summary</h2>")
    parts.extend(_summary_table(s) for s in summaries)
    parts.append("<h2>Plots</h2>")
    parts.extend(plots(summaries))
    for s in summaries:
        parts.append(f"<h2>Games: {html.escape(_label(s))}</h2>")
        parts.append(_games_table(s))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"

"""Readable text reports: distributions with a histogram, simulation summaries."""

from __future__ import annotations

from collections.abc import Sequence

from pinsetter.simulate import SimulationSummary
from pinsetter.solvers.distribution import ScoreDistribution

BAR = "█"


def histogram(values: Sequence[float], labels: Sequence[str], width: int = 50) -> str:
    top = max(values) or 1.0
    lines = []
    for label, value in zip(labels, values, strict=True):
        bar = BAR * round(width * value / top)
        lines.append(f"{label:>9} {bar} {value:.2%}")
    return "\n".join(lines)


def binned(probabilities: Sequence[float], bin_width: int = 10) -> tuple[list[float], list[str]]:
    values, labels = [], []
    for start in range(0, len(probabilities), bin_width):
        chunk = probabilities[start : start + bin_width]
        values.append(float(sum(chunk)))
        labels.append(f"{start}-{start + len(chunk) - 1}")
    while values and values[-1] < 5e-5:
        values.pop()
        labels.pop()
    first = next((i for i, v in enumerate(values) if v >= 5e-5), 0)
    return values[first:], labels[first:]


def distribution_report(dist: ScoreDistribution, players: int = 1) -> str:
    data = dist.to_dict(players)
    pct = data["percentiles"]
    lines = [
        f"{dist.game}: exact final-score distribution of one player",
        f"  mean {data['mean']:.4f}   std {data['std']:.4f}   median {data['median']}",
        f"  10%: {pct['10']}  25%: {pct['25']}  75%: {pct['75']}  90%: {pct['90']}",
        f"  strike rate {data['strike_rate']:.4%}   spare rate {data['spare_rate']:.4%}   P(300) = {data['p300']:.3e}",
    ]
    if players > 1:
        lines.append(
            f"  {players} players: P(a given player wins outright) = {data['win_probability']:.6f}, "
            f"P(tie for first) = {data['tie_probability']:.6f}"
        )
    values, labels = binned(list(dist.probabilities))
    lines.append("")
    lines.append(histogram(values, labels))
    return "\n".join(lines)


def simulation_report(summary: SimulationSummary) -> str:
    data = summary.to_dict()
    lines = [f"{summary.game}: {data['games']} games"]
    for p, player in zip(data["players"], summary.players, strict=True):
        lo, hi = p["ci95"]
        lines.append(
            f"  {p['name']:<12} mean {p['mean']:.2f} (95% CI {lo:.2f}-{hi:.2f})  "
            f"strikes {p['strike_rate']:.1%}  spares {p['spare_rate']:.1%}  wins {p['win_share']:.1%}"
        )
        shares = [0.0] * 301
        for s in player.scores:
            shares[s] += 1 / len(player.scores)
        lines.append(histogram(*binned(shares), 40))
    return "\n".join(lines)

"""Readable text reports: distributions with a histogram, simulation summaries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len

from pinsetter.i18n import N_, _

if TYPE_CHECKING:  # what is reported: `analyze` needs no simulation runs (records, pydantic)
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


EXACT_LABELS = {
    "mean": N_("mean"),
    "variance": N_("variance"),
    "p300": "P(300)",
    "strike_rate": N_("strike rate"),
    "spare_rate": N_("spare rate"),
    "win_probability": N_("P(a given player wins outright)"),
    "tie_probability": N_("P(tie for first)"),
}
# An exact fraction longer than this is left to the JSON output (Bowling Dice's has hundreds of digits).
LONGEST_FRACTION = 100


def distribution_report(dist: ScoreDistribution, title: str, players: int = 1, exact: bool = False) -> str:
    """The exact distribution as text, headed by the game's `title` (its name and options, never its id)."""
    data = dist.to_dict(players, exact=exact)
    pct = data["percentiles"]
    lines = [
        _("{game}: exact final-score distribution of one player").format(game=title),
        _("  mean {mean}   std {std}   median {median}").format(
            mean=f"{data['mean']:.4f}", std=f"{data['std']:.4f}", median=data["median"]
        ),
        f"  10%: {pct['10']}  25%: {pct['25']}  75%: {pct['75']}  90%: {pct['90']}",
        _("  strike rate {strikes}   spare rate {spares}   P(300) = {perfect}").format(
            strikes=f"{data['strike_rate']:.4%}", spares=f"{data['spare_rate']:.4%}", perfect=f"{data['p300']:.3e}"
        ),
    ]
    if players > 1:
        odds = _("  {players} players: P(a given player wins outright) = {win}, P(tie for first) = {tie}")
        lines.append(
            odds.format(players=players, win=f"{data['win_probability']:.6f}", tie=f"{data['tie_probability']:.6f}")
        )
    if exact:
        lines.append(_("  exact:"))
        for key, value in data["exact"].items():
            if key == "distribution":
                continue
            if len(value) > LONGEST_FRACTION:
                numerator, _slash, denominator = value.partition("/")
                value = _("a fraction of {top} digits over {bottom} (whole in --json --exact)").format(
                    top=len(numerator), bottom=len(denominator)
                )
            lines.append(f"    {_(EXACT_LABELS[key])} = {value}")
    values, labels = binned(list(dist.probabilities))
    lines.append("")
    lines.append(histogram(values, labels))
    return "\n".join(lines)


def _rate(rate: float | None) -> str:
    """A share of frames, or words saying none was counted (a one-frame game has no frame before the last)."""
    return _("not counted") if rate is None else f"{rate:.1%}"


def simulation_report(summary: SimulationSummary, title: str) -> str:
    """The simulation as text, headed by the game's `title` (its name and options, never its id)."""
    data = summary.to_dict()
    lines = [_("{game}: {count} games").format(game=title, count=data["games"])]
    for p, player in zip(data["players"], summary.players, strict=True):
        lo, hi = p["ci95"]
        name = p["name"] + " " * max(0, 12 - cell_len(p["name"]))  # terminal cells: a kanji takes two
        row = _("{name} mean {mean} (95% CI {low}-{high})  strikes {strikes}  spares {spares}  wins {wins}")
        lines.append(
            "  "
            + row.format(
                name=name,
                mean=f"{p['mean']:.2f}",
                low=f"{lo:.2f}",
                high=f"{hi:.2f}",
                strikes=_rate(p["strike_rate"]),
                spares=_rate(p["spare_rate"]),
                wins=f"{p['win_share']:.1%}",
            )
        )
        shares = [0.0] * 301
        for s in player.scores:
            shares[s] += 1 / len(player.scores)
        lines.append(histogram(*binned(shares), 40))
    return "\n".join(lines)

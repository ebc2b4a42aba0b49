"""Plots with matplotlib (imported only when a plot is asked for)."""

from __future__ import annotations

from pathlib import Path

from pinsetter.solvers.distribution import ScoreDistribution


def plot_distribution(dist: ScoreDistribution, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5))
    scores = range(len(dist.probabilities))
    ax.bar(scores, dist.probabilities, width=1.0, color="#3b6ea8")
    ax.axvline(dist.mean, color="#c0392b", linestyle="--", label=f"mean {dist.mean:.2f}")
    ax.set_xlabel("final score")
    ax.set_ylabel("probability")
    ax.set_title(f"{dist.game}: exact final-score distribution")
    nonzero = [s for s, p in enumerate(dist.probabilities) if p > 1e-6]
    ax.set_xlim(min(nonzero) - 2, max(nonzero) + 2)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)

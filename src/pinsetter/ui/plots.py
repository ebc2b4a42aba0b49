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


def plot_stats(data: dict[str, object], path: Path) -> None:
    """Scores over time, and the histogram of scores against the exact distribution if known."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scores = list(data["scores"])  # type: ignore[call-overload]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.plot(range(1, len(scores) + 1), scores, marker="o", color="#3b6ea8")
    left.set_xlabel("game")
    left.set_ylabel("score")
    left.set_title("score over time")
    right.hist(scores, bins=range(0, 301, 10), density=True, color="#3b6ea8", alpha=0.7, label="your games")
    games = data.get("game")
    if isinstance(games, str):
        from pinsetter.games.pure_chance import PureChanceGame
        from pinsetter.games.registry import get_game
        from pinsetter.solvers.distribution import analyze

        instance = get_game(games)
        if isinstance(instance, PureChanceGame):
            dist = analyze(instance)
            right.plot(range(len(dist.probabilities)), dist.probabilities, color="#c0392b", label="exact odds")
    right.set_xlabel("score")
    right.set_title("your scores")
    right.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)

"""Plots with matplotlib (imported only when a plot is asked for), labelled in the current language.

Japanese labels need a font with kana and kanji: `_font_settings` picks one that
matplotlib can find (IPAexGothic, Noto Sans CJK JP, ...) so that they do not draw as boxes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pinsetter.i18n import _, current_language
from pinsetter.solvers.distribution import ScoreDistribution

# Fonts with Japanese glyphs, in order of preference (the first matplotlib finds is used).
JAPANESE_FONTS = (
    "IPAexGothic",
    "IPAGothic",
    "IPAPGothic",
    "Noto Sans CJK JP",
    "Noto Sans JP",
    "Hiragino Sans",
    "Yu Gothic",
    "Meiryo",
    "TakaoGothic",
    "VL Gothic",
)


JAPANESE_FONT_FILES = ("ipag", "ipaexg", "ipagp", "notosanscjk", "notosansjp", "vl-gothic", "takaogothic")


def _font_settings() -> dict[Any, Any]:
    """In Japanese, matplotlib settings to draw with a font that has kana and kanji (its default has none)."""
    if current_language() != "ja":
        return {}
    from matplotlib import font_manager

    installed = {font.name for font in font_manager.fontManager.ttflist}
    found = [name for name in JAPANESE_FONTS if name in installed]
    if not found:  # installed after matplotlib cached its font list: add the system's Japanese fonts
        for path in font_manager.findSystemFonts():
            if any(stem in Path(path).name.lower() for stem in JAPANESE_FONT_FILES):
                font_manager.fontManager.addfont(path)
        installed = {font.name for font in font_manager.fontManager.ttflist}
        found = [name for name in JAPANESE_FONTS if name in installed]
    return {"font.family": [*found, "sans-serif"]} if found else {}


def plot_distribution(dist: ScoreDistribution, path: Path, title: str) -> None:
    """Draw the distribution to `path`, headed by the game's `title` (its name and options)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(_font_settings()):
        _draw_distribution(plt, dist, path, title)


def _draw_distribution(plt: Any, dist: ScoreDistribution, path: Path, title: str) -> None:
    fig, ax = plt.subplots(figsize=(9, 4.5))
    scores = range(len(dist.probabilities))
    ax.bar(scores, dist.probabilities, width=1.0, color="#3b6ea8")
    ax.axvline(dist.mean, color="#c0392b", linestyle="--", label=_("mean {mean}").format(mean=f"{dist.mean:.2f}"))
    ax.set_xlabel(_("final score"))
    ax.set_ylabel(_("probability"))
    ax.set_title(_("{game}: exact final-score distribution").format(game=title))
    nonzero = [s for s, p in enumerate(dist.probabilities) if p > 1e-6]
    ax.set_xlim(min(nonzero) - 2, max(nonzero) + 2)
    ax.legend()
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def plot_stats(data: dict[str, Any], path: Path) -> None:
    """One series' scores over time, and their histogram against the exact distribution of its options if known."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(_font_settings()):
        _draw_stats(plt, data, path)


def _draw_stats(plt: Any, data: dict[str, Any], path: Path) -> None:
    from pinsetter.games.pure_chance import PureChanceGame
    from pinsetter.records import game_played
    from pinsetter.solvers.distribution import analyze

    scores = list(data["scores"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    fig.suptitle(data["title"])
    left.plot(range(1, len(scores) + 1), scores, marker="o", color="#3b6ea8")
    left.set_xlabel(_("game"))
    left.set_ylabel(_("score"))
    left.set_title(_("score over time"))
    top = int(data["max_score"])
    step = max(1, top // 30)
    bins = [*range(0, top, step), top]  # the last bin holds the best possible score
    right.hist(scores, bins=bins, density=True, color="#3b6ea8", alpha=0.7, label=_("your games"))
    instance = game_played(data["game"], data["options"])  # the odds of the series' own options
    if isinstance(instance, PureChanceGame):
        dist = analyze(instance)
        right.plot(range(len(dist.probabilities)), dist.probabilities, color="#c0392b", label=_("exact odds"))
    right.set_xlabel(_("score"))
    right.set_title(_("your scores"))
    right.legend()
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def _save(fig: Any, path: Path) -> None:
    """Draw into memory, then write by rename (`write_atomically`): a device or FIFO is never written."""
    import io

    from pinsetter.core.files import write_atomically

    buffer = io.BytesIO()
    fig.savefig(buffer, format=path.suffix.lstrip(".").lower())
    write_atomically(path, buffer.getvalue())

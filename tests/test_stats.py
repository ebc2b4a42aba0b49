"""Statistics: one series per game and options in play, intervals valid for a few games, bots only when asked."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from pinsetter.catalog import describe_variant
from pinsetter.cli.app import app, main
from pinsetter.core.estimates import mean_interval, t_quantile
from pinsetter.core.game import OptionError
from pinsetter.i18n import DEFAULT_LANGUAGE, set_language, using_language
from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.simulate import mean_ci95
from pinsetter.storage import Storage
from pinsetter.storage.stats import FEWEST_FOR_INTERVAL, player_stats

runner = CliRunner()


def store(
    storage: Storage,
    game: str,
    seed: int,
    options: dict[str, object] | None = None,
    names: tuple[str, ...] = ("ann",),
    bots: tuple[str, ...] = (),
) -> list[int]:
    """A finished game played by random bots, stored with every seat a human's except those named in `bots`."""
    match = Match.new(game, [PlayerSpec(n, "random") for n in names], seed=seed, options=options or {})
    match.run_bots()
    match.record.players = [PlayerSpec(n, "random" if n in bots else "human") for n in names]
    match.record.created = f"2026-01-01T00:{seed % 60:02d}:00+00:00"
    storage.save(match.record)
    return match.state.scores()


@pytest.fixture
def storage(tmp_path: Path) -> Storage:
    return Storage(f"sqlite:///{tmp_path / 'stats.sqlite'}")


def db_of(storage: Storage) -> str:
    return str(storage.engine.url)


# --- the interval ---------------------------------------------------------------------------------------


def test_t_quantiles_match_the_printed_tables() -> None:
    # Student's t, 97.5% quantiles from the tables (the normal 1.96 only for very many games).
    expected = {1: 12.7062047, 2: 4.30265273, 4: 2.77644511, 9: 2.26215716, 30: 2.04227246, 10**6: 1.95996635}
    for df, value in expected.items():
        assert t_quantile(0.975, df) == pytest.approx(value, abs=1e-7)
    assert t_quantile(0.995, 3) == pytest.approx(5.84090931, abs=1e-7)


def test_an_interval_needs_two_values_and_stays_in_its_bounds() -> None:
    assert mean_interval([150]) is None
    assert mean_interval([]) is None
    assert mean_interval([0, 300], low=0, high=300) == (0, 300)  # t would reach -1755 and 2055
    low, high = mean_interval([1, 2, 3])  # type: ignore[misc]
    assert (high - low) / 2 == pytest.approx(4.30265273 / math.sqrt(3))
    # Simulations and tournaments use the same rule.
    assert mean_ci95([1, 2, 3])[1:] == pytest.approx((low, high))


def test_fewer_than_five_scores_give_no_range_but_words_everywhere_they_show(
    storage: Storage, capsys: pytest.CaptureFixture[str]
) -> None:
    from pinsetter.web.app import create_app

    # One-frame Ten Pins: 0 and 16 (seeds 12 and 39). Student's t from two scores says -93.6 to 109.6,
    # clipped to "0.0 to 30.0": the whole of what a game can score, a range that says nothing.
    assert [store(storage, "tenpins", seed, {"frames": 1})[0] for seed in (12, 39)] == [0, 16]
    for seed in (1, 2):  # up to four scores: still none
        store(storage, "tenpins", seed, {"frames": 1})
        (series,) = player_stats(storage, "ann")["series"]
        assert series["results"] < FEWEST_FOR_INTERVAL == 5 and series["ci95"] is None
    out = runner.invoke(app, ["stats", "--db", db_of(storage)]).output
    assert "average 7.00 (too few games for a range: 5 needed), best 16, worst 0" in out and "CI" not in out
    assert re.search(r"last scores \d+, \d+, \d+, \d+\n", out) and "[" not in out  # in words, not Python's list
    with TestClient(create_app(db_of(storage))) as client:  # the web's statistics read the same function
        assert client.get("/api/stats?player=ann").json()["series"][0]["ci95"] is None
    try:
        assert main(["--lang", "ja", "stats", "--db", db_of(storage)]) == 0
    finally:
        set_language(DEFAULT_LANGUAGE)
    assert "平均 7.00（ゲームが少なく範囲は出せません: 5ゲーム必要）" in capsys.readouterr().out  # noqa: RUF001


def test_the_too_few_line_has_one_home(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """The `stats` command and the terminal's Statistics screen say the line `too_few_for_range` words,
    in each language: changed there, it changes in both."""
    from pinsetter.storage import stats
    from pinsetter.ui.tui_history import stats_text

    assert stats.too_few_for_range() == f"too few games for a range: {FEWEST_FOR_INTERVAL} needed"
    with using_language("ja"):
        assert stats.too_few_for_range() == f"ゲームが少なく範囲は出せません: {FEWEST_FOR_INTERVAL}ゲーム必要"
    store(storage, "tenpins", 1)
    monkeypatch.setattr(stats, "too_few_for_range", lambda: "one home")
    out = runner.invoke(app, ["stats", "--db", db_of(storage)]).output
    assert "(one home), best" in out and "too few" not in out
    shown = stats_text(storage, "tenpins", "ann").plain
    assert "(one home)\n" in shown and "too few" not in shown


def test_from_five_scores_a_range_within_the_possible_scores(storage: Storage) -> None:
    # 0, 0, 0, 0 and 19 (seeds 12, 20, 30, 40, 51): Student's t says -6.7 to 14.3, clipped at 0.
    assert [store(storage, "tenpins", seed, {"frames": 1})[0] for seed in (12, 20, 30, 40, 51)] == [0, 0, 0, 0, 19]
    (series,) = player_stats(storage, "ann")["series"]
    low, high = series["ci95"]
    assert series["max_score"] == 30 and low == 0 and high == pytest.approx(3.8 + 2.77644511 * math.sqrt(72.2 / 5))
    assert "(95% CI 0.00-14.35)" in runner.invoke(app, ["stats", "--db", db_of(storage)]).output


def test_one_game_has_no_interval(storage: Storage) -> None:
    store(storage, "tenpins", 1)
    (series,) = player_stats(storage, "ann")["series"]
    assert series["results"] == 1 and series["ci95"] is None
    out = runner.invoke(app, ["stats", "--db", db_of(storage)]).output
    assert "too few games for a range: 5 needed" in out


def test_the_interval_of_a_few_games_is_student_s_t(storage: Storage) -> None:
    scores = [store(storage, "tenpins", seed)[0] for seed in range(5)]
    (series,) = player_stats(storage, "ann")["series"]
    mean = sum(scores) / 5
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / 4)
    low, high = series["ci95"]
    assert low > 0 and high < 300  # not clipped here
    assert (high - low) / 2 == pytest.approx(2.77644511 * sd / math.sqrt(5))  # not 1.96


# --- series ------------------------------------------------------------------------------------------------


def test_lengths_modes_dice_sets_and_group_rules_are_separate_series(
    storage: Storage, capsys: pytest.CaptureFixture[str]
) -> None:
    store(storage, "tenpins", 1)
    store(storage, "tenpins", 2, {"frames": 10})  # every default named: the same game as {}
    store(storage, "tenpins", 3, {"frames": 5})
    store(storage, "rolling-pins", 4, {"frames": 2})
    store(storage, "rolling-pins", 5, {"frames": 2, "auto_strike": "held"})  # an advanced rule: same basic game
    store(storage, "rolling-pins", 6, {"frames": 2, "advanced": True})
    store(storage, "rolling-pins", 7, {"frames": 2, "shared_dice": True}, names=("ann", "bob"))
    store(storage, "rolling-pins", 8, {"frames": 2, "tokens": False})
    store(storage, "bowling-dice", 9, {"frames": 3})
    store(storage, "bowling-dice", 10, {"frames": 3, "dice": "X--PPP," * 9 + "X--PPP"})
    store(storage, "bowling-solitaire", 11, {"frames": 3})
    store(storage, "bowling-solitaire", 12, {"frames": 3, "groups": "mutual"})
    data = player_stats(storage, "ann")
    titles = {s["title"]: s["games"] for s in data["series"]}
    assert titles == {
        "Ten Pins (dice)": 2,
        "Ten Pins (dice), 5 frames": 1,
        "Rolling Pins, 2 frames": 2,
        "Rolling Pins, advanced, 2 frames": 1,
        "Rolling Pins, shared dice, 2 frames": 1,
        "Rolling Pins, no tokens, 2 frames": 1,
        "Bowling Dice, 3 frames": 1,
        "Bowling Dice, Dice set: 10 strike faces, 20 blanks, 30 pins, 3 frames": 1,  # the faces counted, not X--PPP
        "Bowling Solitaire, 3 frames": 1,
        "Bowling Solitaire, mutual pin groups, 3 frames": 1,
    }
    assert data["games"] == 12 == sum(titles.values())
    for series in data["series"]:
        assert series["games"] == series["results"] == len(series["scores"])
        assert 0 <= series["worst"] <= series["best"] <= series["max_score"]
    # The command line heads each block with the same words: names and options, never ids or key=value.
    out = runner.invoke(app, ["stats", "--db", db_of(storage), "--player", "ann"]).output
    assert "ann at Rolling Pins, advanced, 2 frames: 1 game" in out
    assert "rolling-pins" not in out and "=" not in out
    try:
        assert main(["--lang", "ja", "stats", "--db", db_of(storage), "--player", "ann"]) == 0
    finally:
        set_language(DEFAULT_LANGUAGE)
    assert "ローリングピンズ、上級ルール、2 フレーム" in capsys.readouterr().out


def test_every_figure_of_a_series_is_of_the_same_scores(storage: Storage) -> None:
    mixed = store(storage, "tenpins", 1, names=("ann", "robot"), bots=("robot",))
    three = store(storage, "tenpins", 2, names=("ann", "bob", "cy"))
    data = player_stats(storage, None, "tenpins")
    (series,) = data["series"]
    humans = [mixed[0], *three]
    assert (series["games"], series["results"], series["scores"]) == (2, 4, humans)
    assert (series["best"], series["worst"]) == (max(humans), min(humans))
    assert series["average"] == pytest.approx(sum(humans) / 4)
    assert [g["score"] for g in series["best_games"]] == sorted(humans, reverse=True)
    out = runner.invoke(app, ["stats", "--db", db_of(storage)]).output
    assert "everyone at Ten Pins (dice): 4 scores in 2 games" in out


def test_the_bots_scores_count_only_when_asked(storage: Storage) -> None:
    store(storage, "tenpins", 1, names=("ann", "robot"), bots=("robot",))
    store(storage, "tenpins", 2, names=("robot",), bots=("robot",))
    plain = player_stats(storage)
    assert (plain["games"], plain["results"], plain["bots_left_out"]) == (1, 1, 2)
    assert plain["series"][0]["best_games"][0]["name"] == "ann"
    every = player_stats(storage, include_bots=True)
    assert (every["games"], every["results"], every["bots_left_out"]) == (2, 3, 0)
    db = db_of(storage)
    assert json.loads(runner.invoke(app, ["stats", "--db", db, "--json"]).output)["results"] == 1
    assert json.loads(runner.invoke(app, ["stats", "--db", db, "--json", "--bots"]).output)["results"] == 3
    out = runner.invoke(app, ["stats", "--db", db, "--player", "robot"]).output
    assert out.splitlines() == ["no finished games for robot", "(2 bots' scores left out: --bots counts them)"]
    assert (
        "robot at Ten Pins (dice): 2 games"
        in runner.invoke(app, ["stats", "--db", db, "--player", "robot", "--bots"]).output
    )

    from pinsetter.web.app import create_app

    with TestClient(create_app(db)) as client:
        assert client.get("/api/stats").json()["results"] == 1
        assert client.get("/api/stats?bots=true").json()["results"] == 3


def test_a_plot_for_each_series(storage: Storage, tmp_path: Path) -> None:
    store(storage, "tenpins", 1)
    store(storage, "tenpins", 2, {"frames": 2})
    result = runner.invoke(app, ["stats", "--db", db_of(storage), "--plot", str(tmp_path / "s.png")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "s-tenpins.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "s-tenpins-2.png").read_bytes()[:4] == b"\x89PNG"
    assert "plot of Ten Pins (dice), 2 frames written to" in result.output


def test_a_short_rack_is_scored_on_its_own_pins(storage: Storage) -> None:
    # Three pins down in a 3-pin rack is a strike: the stored score is the game's own total.
    scores = store(storage, "rolling-pins", 1, {"pins": 3, "frames": 3})
    (series,) = player_stats(storage)["series"]
    assert series["scores"] == scores == [8] and series["max_score"] == 27


# --- a game and its options in words -------------------------------------------------------------------


def test_describe_variant_says_the_options_that_differ_in_words() -> None:
    assert describe_variant("tenpins", {}) == describe_variant("tenpins", {"frames": 10}) == "Ten Pins (dice)"
    assert describe_variant("rolling-pins", {"advanced": True, "shared_dice": True, "frames": 5}) == (
        "Rolling Pins, advanced, shared dice, 5 frames"
    )
    # A basic game does not depend on the advanced sheet or Auto Strike's rule: not said.
    assert describe_variant("rolling-pins", {"auto_strike": "held", "tokens": False, "pins": 4, "frames": 1}) == (
        "Rolling Pins, no tokens, 1 frame, 4 pins"
    )
    assert describe_variant("rolling-pins", {"advanced": True, "auto_strike": "held"}) == (
        "Rolling Pins, advanced, Auto Strike held"
    )
    assert describe_variant("bowling-solitaire", {"groups": "mutual"}) == "Bowling Solitaire, mutual pin groups"
    with using_language("ja"):
        assert describe_variant("rolling-pins", {"advanced": True, "auto_strike": "held", "frames": 5}) == (
            "ローリングピンズ、上級ルール、オートストライクを保持、5 フレーム"
        )
    with pytest.raises(OptionError):
        describe_variant("tenpins", {"frames": 11})

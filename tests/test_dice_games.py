"""Ten Pins and Bowling Dice: hand-worked games, exact odds against brute force and simulation."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

from pinsetter.core.datafile import resolve_option_files
from pinsetter.core.game import IllegalActionError, OptionError, State
from pinsetter.games.bowling_dice import DEFAULT_DICE, DiceSet, Roll
from pinsetter.games.pure_chance import PureChanceGame
from pinsetter.games.registry import get_game
from pinsetter.records import PlayerSpec
from pinsetter.simulate import simulate
from pinsetter.solvers.distribution import analyze


def play(game_id: str, outcomes: list[str], options: dict[str, object] | None = None) -> State:
    state = get_game(game_id, options).new_state(1)
    for text in outcomes:
        state.apply_text(text)
    return state


# --- Ten Pins -----------------------------------------------------------------


def test_tenpins_balls() -> None:
    state = play("tenpins", ["5+5", "3+4", "3", "6+1", "4", "2+2", "6"])
    assert state.pinfalls[0] == [10, 7, 3, 0, 4, 4, 0]
    assert [f.marks for f in state.scoresheet(0).frames] == [("X",), ("7", "/"), ("-", "4"), ("4", "-")]
    assert [f.total for f in state.scoresheet(0).frames] == [20, 30, 34, 38]


def test_tenpins_spare_records_only_the_standing_pins() -> None:
    state = play("tenpins", ["4+5", "5", "1+1"])
    assert state.pinfalls[0] == [9, 1, 2]  # 9 + 5 >= 10: a spare worth 10 + next ball
    assert state.scoresheet(0).frames[0].score == 12


NINE_OPEN = ["1+1", "1"] * 9  # nine frames of 2+1 = 27


@pytest.mark.parametrize(
    ("tenth", "pinfalls", "marks"),
    [
        (["5+5", "5+5", "5+5"], [10, 10, 10], ("X", "X", "X")),
        (["5+5", "5+5", "3+4"], [10, 10, 7], ("X", "X", "7")),
        (["5+5", "4+5", "3"], [10, 9, 1], ("X", "9", "/")),
        (["5+5", "4+5", "6"], [10, 9, 0], ("X", "9", "-")),
        (["5+5", "2+2", "5"], [10, 4, 5], ("X", "4", "5")),
        (["4+4", "2", "5+5"], [8, 2, 10], ("8", "/", "X")),
        (["4+4", "5", "1+2"], [8, 2, 3], ("8", "/", "3")),
        (["4+4", "1"], [8, 1], ("8", "1")),
        (["6+6", "6"], [0, 0], ("-", "-")),
    ],
)
def test_tenpins_tenth_frame_shapes(tenth: list[str], pinfalls: list[int], marks: tuple[str, ...]) -> None:
    state = play("tenpins", NINE_OPEN + tenth)
    assert state.is_terminal()
    assert state.pinfalls[0][18:] == pinfalls
    assert state.scoresheet(0).frames[-1].marks == marks
    assert state.scores() == [27 + sum(pinfalls)]


def test_tenpins_dice_count_follows_the_rack() -> None:
    state = play("tenpins", ["3+4"])
    with pytest.raises(IllegalActionError):
        state.apply_text("3+4")  # a second ball rolls one die
    state = play("tenpins", [*NINE_OPEN, "5+5"])
    with pytest.raises(IllegalActionError):
        state.apply_text("3")  # after a 10th-frame strike the rack is fresh: two dice


def test_tenpins_multiplayer_turns_frame_by_frame() -> None:
    state = get_game("tenpins").new_state(2)
    assert state.turn() == 0
    state.apply_text("5+5")  # strike ends player 1's frame
    assert state.turn() == 1
    state.apply_text("1+2")
    assert state.turn() == 1
    state.apply_text("3")
    assert state.turn() == 0


# --- Bowling Dice --------------------------------------------------------------


def test_default_dice_strike_probability_by_hand() -> None:
    # A fresh rack is a strike if any of the three strike dice shows X (1 face in 6),
    # or, with no X, if all ten dice show blank or / (never: every die has pin faces).
    p_no_x = Fraction(5, 6) ** 3
    p_all_down_no_x = (Fraction(2, 6) ** 3) * (Fraction(3, 6) ** 3) * (Fraction(3, 6) ** 4)
    expected = 1 - p_no_x + p_all_down_no_x
    state = get_game("bowling-dice").new_state(1)
    strike = sum((p for o, p in state.chance_outcomes() if _pins_of(state, o) == 10), Fraction(0))
    assert strike == expected
    assert analyze(get_game("bowling-dice")).strike_rate == pytest.approx(float(expected), abs=1e-15)  # type: ignore[arg-type]


def _pins_of(state: State, outcome: object) -> int:
    child = state.clone()
    child.apply(outcome)  # type: ignore[arg-type]
    return child.pinfalls[0][-1]


def test_bowling_dice_balls() -> None:
    # Ball 1: no X; blanks and slashes are down (3 + 1 = 4 ... counted per face).
    state = play("bowling-dice", ["--P|/-P|--PP"])
    assert state.pinfalls[0] == [6]
    # Ball 2 rolls the four pin dice: one strike die, one spare die, two plain dice.
    outcomes = {str(o) for o, _ in state.chance_outcomes()}
    assert "X|/|--" in outcomes and "X|P|PP" in outcomes
    state.apply_text("X|P|-P")  # X on a standing rack is a pin down
    assert state.pinfalls[0] == [6, 2]
    state.apply_text("X--|/PP|-PPP")  # strike
    assert state.pinfalls[0] == [6, 2, 10]
    state.apply_text("---|-PP|----")
    state.apply_text("|/P|")  # a / on ball 2 is a spare
    assert state.pinfalls[0] == [6, 2, 10, 8, 2]


def test_bowling_dice_tenth_frame_rerolls() -> None:
    nine = ["---|---|PPPP", "||PPPP"] * 9  # 6 down, then 0 of the 4 left
    state = play("bowling-dice", nine)
    assert state.scoresheet(0).frames[8].total == 54
    state.apply_text("X--|/PP|-PPP")  # strike: all ten dice again
    assert next(str(o).count("|") for o, _ in state.chance_outcomes()) == 2
    state.apply_text("---|-PP|----")  # 8 down, two pin dice (spare kind)
    state.apply_text("|/P|")  # ball 3 rolls the two spare dice that showed a pin
    assert state.pinfalls[0][18:] == [10, 8, 2]


def dice_option(path: Path) -> dict[str, object]:
    """What the command line hands the game for `--option dice=FILE`."""
    return resolve_option_files("bowling-dice", {"dice": str(path)})


def test_dice_sets(tmp_path: Path) -> None:
    assert DiceSet.parse(str(DEFAULT_DICE)) == DEFAULT_DICE
    assert DiceSet.parse("default") == DEFAULT_DICE
    good = tmp_path / "dice.json"
    good.write_text(json.dumps({"dice": DEFAULT_DICE.to_names()}))
    assert get_game("bowling-dice", dice_option(good)).options["dice"] == DEFAULT_DICE
    toml = tmp_path / "dice.toml"
    toml.write_text("dice = [" + ",".join(json.dumps(d) for d in DEFAULT_DICE.to_names()) + "]\n")
    assert get_game("bowling-dice", dice_option(toml)).options["dice"] == DEFAULT_DICE


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"dice": []}', "has 10 dice, this one has 0"),
        ('{"nodice": 1}', "needs a list 'dice'"),
        ("{not json", "not valid json"),
        (json.dumps({"dice": [["X", "pin", "pin", "pin", "pin"]] * 10}), "die 1: needs a list of 6 faces"),
        (
            json.dumps({"dice": [["X"] * 6] * 9 + [["X", "pin", "pin", "pins", "pin", "pin"]]}),
            "die 10, face 4",
        ),
        (json.dumps({"dice": [["X", "pin", "pin", "pin", "pin", 1]] * 10}), "die 1, face 6: 1 is not one of"),
    ],
)
def test_bad_dice_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(OptionError, match=f"^{path}: .*{message}"):
        dice_option(path)


def test_missing_dice_file_and_bad_inline_set(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="cannot read dice file"):
        dice_option(tmp_path / "none.json")
    with pytest.raises(OptionError, match="die 2, face 3"):
        get_game("bowling-dice", {"dice": "XXXXXX,XXQXXX" + ",------" * 8})
    with pytest.raises(OptionError, match="--option dice=FILE"):
        get_game("bowling-dice", {"dice": str(tmp_path / "dice.json")})  # the engine never opens a file


def test_player_counts() -> None:
    assert "1 to 12 players" in get_game("tenpins").rules()
    assert "1 to 8 players" in get_game("bowling-dice").rules()
    get_game("tenpins").new_state(12)
    with pytest.raises(OptionError, match=r"^Ten Pins \(dice\) takes 1 to 12 players: remove a player first$"):
        get_game("tenpins").new_state(13)


def test_a_player_count_is_refused_in_words_with_what_to_do() -> None:
    """One sentence says why a number of players cannot play, for the engine and the launcher alike."""
    game = get_game("bowling-solitaire")
    assert game.players_refusal(1) is None
    assert game.players_refusal(2) == "Bowling Solitaire takes 1 player: remove a player first"
    assert game.players_refusal(0) == "Bowling Solitaire takes 1 player: add a player first"
    with pytest.raises(OptionError, match=r"^Bowling Solitaire takes 1 player: add a player first$"):
        game.new_state(0)


def test_roll_text_round_trips() -> None:
    roll = Roll(("X-P", "", "--PP"))
    assert Roll.parse(str(roll)) == roll


# --- exact odds -----------------------------------------------------------------


def brute_force(game: PureChanceGame) -> dict[int, Fraction]:
    """The score distribution by walking the whole game tree through the generic API."""
    memo: dict[object, dict[int, Fraction]] = {}

    def walk(state: State) -> dict[int, Fraction]:
        if state.is_terminal():
            return {state.scores()[0]: Fraction(1)}
        key = state.key()
        if key in memo:
            return memo[key]
        dist: dict[int, Fraction] = {}
        for outcome, p in state.chance_outcomes():
            for s, q in walk(state.child(outcome)).items():
                dist[s] = dist.get(s, Fraction(0)) + p * q
        memo[key] = dist
        return dist

    return walk(game.new_state(1))


@pytest.mark.parametrize("game_id", ["tenpins", "bowling-dice"])
def test_exact_distribution_equals_brute_force_on_short_games(game_id: str) -> None:
    frames = 2 if game_id == "tenpins" else 1
    game = get_game(game_id, {"frames": frames})
    assert isinstance(game, PureChanceGame)
    exact = brute_force(game)
    dist = analyze(game)
    assert sum(exact.values()) == 1
    assert dist.exact == tuple(exact.get(s, Fraction(0)) for s in range(len(dist.exact)))  # to the last digit
    assert [float(exact.get(s, 0)) for s in range(len(dist.exact))] == dist.probabilities.tolist()  # rounded once


@pytest.mark.parametrize("game_id", ["tenpins", "bowling-dice"])
def test_exact_distribution_agrees_with_simulation(game_id: str) -> None:
    game = get_game(game_id)
    assert isinstance(game, PureChanceGame)
    dist = analyze(game)
    assert dist.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    games = 4000
    summary = simulate(game_id, {}, [PlayerSpec("bot", "random")], games, seed=2024)
    scores = summary.players[0].scores
    # Mean within 4 standard errors.
    assert abs(sum(scores) / games - dist.mean) < 4 * dist.std / math.sqrt(games)
    # Chi-square over deciles of the exact distribution (9 degrees of freedom).
    edges = [dist.quantile(q / 10) for q in range(1, 10)]
    observed = [0] * 10
    for s in scores:
        observed[sum(1 for e in edges if s > e)] += 1
    bounds = [-1, *edges, 10_000]
    chi2 = 0.0
    for i in range(10):
        p = dist.cdf(bounds[i + 1]) - dist.cdf(bounds[i])
        chi2 += (observed[i] - games * p) ** 2 / (games * p)
    assert chi2 < 27.9  # 99.9th percentile of chi-square with 9 degrees of freedom


def test_win_and_tie_probabilities_by_hand() -> None:
    game = get_game("tenpins", {"frames": 1})
    assert isinstance(game, PureChanceGame)
    dist = analyze(game)
    p = dist.probabilities
    win, tie = dist.win_tie(2)
    assert win == pytest.approx(sum(p[s] * p[:s].sum() for s in range(len(p))), abs=1e-15)
    assert tie == pytest.approx(float((p**2).sum()), abs=1e-15)  # two players tie iff equal
    assert dist.win_tie(1) == pytest.approx((1.0, 0.0))


@pytest.mark.parametrize("game_id", ["tenpins", "bowling-dice"])
def test_exact_win_and_tie_identities(game_id: str) -> None:
    """Exact, so the identities hold with `==`: ties counted directly, not as 1 - N x win."""
    dist = analyze(get_game(game_id))  # type: ignore[arg-type]
    p = dist.exact
    below = [sum(p[:s], Fraction(0)) for s in range(len(p))]
    for players in (2, 3, 5):
        win, tie = dist.exact_win_tie(players)
        assert win == sum((q * b ** (players - 1) for q, b in zip(p, below, strict=True)), Fraction(0))
        assert players * win + tie == 1
    assert dist.exact_win_tie(2)[1] == sum((q * q for q in p), Fraction(0))  # two tie iff equal
    assert dist.exact_win_tie(1) == (1, 0)


def test_exact_figures_of_ten_pins_by_hand() -> None:
    """RULES.md section 1 by hand: a strike is a double five; a spare, a first ball of 2..9 (no six)
    and a second die of 1..5 (a six scores 0) that make 10 or more; 300 is twelve strikes."""
    dice = range(1, 7)
    spare = sum(
        (
            Fraction(1, 216)
            for a in dice
            for b in dice
            for c in dice
            if 6 not in (a, b) and (a, b) != (5, 5) and c != 6 and a + b + c >= 10
        ),
        Fraction(0),
    )
    dist = analyze(get_game("tenpins"))  # type: ignore[arg-type]
    assert dist.strike == Fraction(1, 36) and dist.spare == spare == Fraction(2, 9)
    assert dist.exact[-1] == Fraction(1, 36) ** 12
    assert sum(dist.exact) == 1 and dist.denominator % 36 == 0
    assert dist.exact_mean == sum((s * q for s, q in enumerate(dist.exact)), Fraction(0))
    # The median and percentiles exactly: the smallest s with P(score <= s) >= q.
    cumulative = [sum(dist.exact[: s + 1], Fraction(0)) for s in range(len(dist.exact))]
    for q in ("0.1", "0.25", "0.5", "0.75", "0.9"):
        assert dist.quantile(float(q)) == next(s for s, c in enumerate(cumulative) if c >= Fraction(q))

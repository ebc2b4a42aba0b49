"""Rolling Pins: hand-worked frames, abilities, sheets, and the solver against brute force."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pinsetter.bots.base import make_bot
from pinsetter.core.game import IllegalActionError, OptionError, State
from pinsetter.core.pins import mask_of
from pinsetter.games.registry import get_game
from pinsetter.games.rolling_pins import Action, RollingPins, RollingPinsState, Sheet
from pinsetter.records import PlayerSpec
from pinsetter.simulate import simulate
from pinsetter.solvers import rolling_pins as solver

MISS_FRAME = ["dice 2", "3+4", "miss", "dice 2", "3+4", "miss"]  # an open frame of 0


def play(steps: list[str], options: dict[str, object] | None = None, players: int = 1) -> RollingPinsState:
    state = get_game("rolling-pins", options).new_state(players)
    assert isinstance(state, RollingPinsState)
    for text in steps:
        state.apply_text(text)
    return state


def test_tokens_turn_a_seven_into_a_ten() -> None:
    state = play(MISS_FRAME * 2)
    assert state.players[0].tokens == 3  # one per frame, carried over
    state.apply_text("dice 2")
    state.apply_text("3+4")
    assert Action("cross", (10,), 3) in state.legal_actions()
    state.apply_text("cross 10 tokens +3")
    assert state.players[0].tokens == 0
    assert state.players[0].standing == mask_of(list(range(1, 10)))


def test_tokens_never_take_a_die_below_one() -> None:
    state = play(["dice 1", "2"])
    # one token: 2 can become 1 or 3, never 0
    totals = {sum(a.args) for a in state.legal_actions() if isinstance(a, Action) and a.kind == "cross"}
    assert totals == {1, 2, 3}
    state = play(["dice 2", "1+1"])
    totals = {sum(a.args) for a in state.legal_actions() if isinstance(a, Action) and a.kind == "cross"}
    assert totals == {2, 3}  # two dice total at least 2: pin 1 alone needs one die


def test_a_ball_goes_on_until_a_miss_and_ball_two_plays_what_is_left() -> None:
    state = play(["dice 2", "3+4", "cross 7", "dice 2", "5+5", "cross 10", "dice 1", "6"])
    # 6 could be crossed (6, 2+4, 1+5, ...) but the player keeps pins for ball 2
    assert Action("cross", (6,), 0) in state.legal_actions()
    state.apply_text("miss")
    assert state.pinfalls[0] == [2]
    ctx = state.ball_context(0)
    assert ctx is not None and (ctx.frame, ctx.ball) == (1, 2)
    assert state.players[0].standing == mask_of([1, 2, 3, 4, 5, 6, 8, 9])
    state.apply_text("dice 2")
    state.apply_text("4+5")
    with pytest.raises(IllegalActionError, match="pin 7 is already crossed"):
        state.apply_text("cross 2+7")
    with pytest.raises(IllegalActionError, match="sum to 3"):
        state.apply_text("cross 1+2")
    state.apply_text("cross 9")
    state.apply_text("dice 2")
    state.apply_text("6+6")
    state.apply_text("miss")
    assert state.pinfalls[0] == [2, 1]
    assert state.players[0].tokens == 2


def strike_frame() -> list[str]:
    """Ten pins in one ball: 10, 9, 8+7? - sums 10, 9, 8, 7, 6+... crossed one roll at a time."""
    return [
        "dice 2", "5+5", "cross 10",
        "dice 2", "4+5", "cross 9",
        "dice 2", "4+4", "cross 8",
        "dice 2", "3+4", "cross 7",
        "dice 2", "3+3", "cross 6",
        "dice 2", "2+3", "cross 5",
        "dice 2", "2+2", "cross 4",
        "dice 2", "1+2", "cross 3",
        "dice 1", "2", "cross 2",
        "dice 1", "1", "cross 1",
    ]  # fmt: skip


def test_tenth_frame_strike_is_completed_on_bonus_frames() -> None:
    state = play(MISS_FRAME * 9 + strike_frame())
    assert state.pinfalls[0][-1] == 10
    ctx = state.ball_context(0)
    assert ctx is not None and (ctx.frame, ctx.ball, ctx.fresh_rack) == (10, 2, True)
    tokens = state.players[0].tokens
    # Bonus ball 1 (fresh rack): 7 pins, then a miss; bonus ball 2 plays what is left.
    state.apply_text("dice 2")
    state.apply_text("3+4")
    state.apply_text("cross 1+2+4")
    state.apply_text("dice 2")
    state.apply_text("6+6")
    state.apply_text("miss")
    assert state.players[0].tokens == tokens, "bonus frames grant no token"
    ctx = state.ball_context(0)
    assert ctx is not None and (ctx.ball, ctx.standing, ctx.fresh_rack) == (3, 7, False)
    state.apply_text("dice 1")
    state.apply_text("3")
    state.apply_text("cross 3")
    state.apply_text("dice 1")
    state.apply_text("6")
    state.apply_text("miss")
    assert state.is_terminal()
    assert state.pinfalls[0][-3:] == [10, 3, 1]
    assert state.scores() == [14]


def test_solo_ranking() -> None:
    assert [RollingPins.ranking(s) for s in (99, 100, 134, 135, 169, 170, 199, 200)] == [
        "Pinhead", "Beginner", "Beginner", "Intermediate", "Intermediate", "Advanced", "Advanced", "Master"
    ]  # fmt: skip


def test_action_text_round_trips_and_errors() -> None:
    for text in ("dice 2", "cross 2+5 tokens +1", "cross 10 tokens -2", "miss", "keep 1+3", "mark 4", "ten-pin"):
        assert str(Action.parse(text)) == text
    assert Action.parse("cross 5+2") == Action("cross", (2, 5))
    for bad in ("cross", "cross 2+2", "cross 11", "dice two", "jump", "dice \u0662", "cross 1_0", "mark \uff13"):
        with pytest.raises(ValueError):
            Action.parse(bad)


# --- the advanced game -------------------------------------------------------------


def advanced(steps: list[str], options: dict[str, object] | None = None, **held: int) -> RollingPinsState:
    state = play([], {"advanced": "true", **(options or {})})
    player = state.players[0]
    for ability, count in held.items():
        if ability == "ten_pin":
            player.ten_pin = True
        else:
            player.held[ability.replace("_", "-")] = count
    for text in steps:
        state.apply_text(text)
    return state


def test_grey_pins_mark_only_after_ball_one() -> None:
    # Frame 1 grey pins are 7 and 10: crossing 7 in ball 1 gives nothing.
    state = advanced(["dice 2", "3+4", "cross 7", "dice 2", "6+6", "miss"])
    assert state.players[0].pending_marks == 0
    state.apply_text("dice 2")
    state.apply_text("4+6")
    state.apply_text("cross 10")  # grey, in ball 2: one box to mark
    assert state.players[0].pending_marks == 1
    assert {str(a) for a in state.legal_actions()} == {f"mark {i}" for i in range(1, 6)}  # lower areas closed
    state.apply_text("mark 1")  # Reroll: a one-box area, granted at once
    assert state.players[0].held == {"reroll": 1}


def test_strike_marks_a_box_before_the_turn_passes() -> None:
    state = play(strike_frame(), {"advanced": "true"}, players=2)
    assert state.turn() == 0 and state.players[0].pending_marks == 1
    state.apply_text("mark 5")
    assert state.turn() == 1
    assert state.players[0].marks[4] == 1


def test_lower_areas_open_when_the_upper_track_is_full() -> None:
    state = advanced([])
    player = state.players[0]
    player.marks = [1, 2, 2, 2, 2, 0, 0, 0, 0, 0]
    player.pending_marks = 1
    assert {str(a) for a in state.legal_actions()} == {"mark 5"}
    state.apply_text("mark 5")
    assert player.ten_pin
    player.pending_marks = 1
    assert {str(a) for a in state.legal_actions()} == {f"mark {i}" for i in range(6, 11)}


def test_ten_pin_is_an_immediate_strike() -> None:
    state = advanced(["dice 2", "5+5"], ten_pin=1)
    assert [str(a) for a in state.legal_actions()] == ["ten-pin"]
    state.apply_text("ten-pin")
    assert state.pinfalls[0] == [10]
    assert state.players[0].pending_marks == 1


def test_ten_pin_with_tokens_and_only_on_the_first_roll() -> None:
    state = advanced(["dice 2", "4+5"], ten_pin=1)  # one token moves the 4 to a 5
    assert Action("ten-pin") in state.legal_actions()
    state.apply_text("cross 9")
    state.apply_text("dice 2")
    state.apply_text("5+5")
    assert Action("ten-pin") not in state.legal_actions()  # not the first roll of the frame


def test_reroll_with_ten_pin() -> None:
    state = advanced(["dice 2", "1+2"], ten_pin=1, reroll=1)
    assert Action("ten-pin") not in state.legal_actions()
    state.apply_text("reroll")
    assert state.is_chance_node()
    state.apply_text("5+5")
    assert "reroll" not in state.players[0].held
    assert [str(a) for a in state.legal_actions()] == ["ten-pin"]  # the reroll is still the first roll


def test_flip_two_to_five_with_ten_pin() -> None:
    state = advanced(["dice 2", "2+5"], ten_pin=1, flip=1)
    state.apply_text("flip 1")
    assert state.players[0].dice == (5, 5)
    assert [str(a) for a in state.legal_actions()] == ["ten-pin"]
    with pytest.raises(IllegalActionError):
        state.apply_text("reroll")  # reroll comes before flip (and none is held)


def test_extra_dice_with_ten_pin() -> None:
    state = advanced(["extra-dice", "dice 2"], ten_pin=1, extra_dice=1)
    assert len(state.chance_outcomes()[0][0].faces) == 3  # type: ignore[attr-defined]
    state.apply_text("5+1+5")
    assert {str(a) for a in state.legal_actions()} == {"keep 1+2", "keep 1+3", "keep 2+3"}
    state.apply_text("keep 1+3")
    assert [str(a) for a in state.legal_actions()] == ["ten-pin"]


def test_extra_dice_lasts_for_the_ball() -> None:
    state = advanced(["extra-dice", "dice 1", "3+4", "keep 2", "cross 4", "dice 1"], extra_dice=1)
    assert len(state.chance_outcomes()[0][0].faces) == 2  # type: ignore[attr-defined]
    state.apply_text("6+6")
    state.apply_text("keep 1")
    state.apply_text("miss")
    state.apply_text("dice 1")
    assert len(state.chance_outcomes()[0][0].faces) == 1  # type: ignore[attr-defined]


def test_extra_pin_after_a_miss_completes_a_strike() -> None:
    steps = strike_frame()[:-3]  # everything but pin 1
    state = advanced([*steps, "dice 2", "6+6", "miss"], extra_pin=1)
    assert {str(a) for a in state.legal_actions()} == {"pass", "extra-pin 1"}
    state.apply_text("extra-pin 1")
    assert state.pinfalls[0] == [10]  # it counts for the ball that just ended
    assert state.players[0].pending_marks == 1


def test_extra_pin_on_a_grey_pin_after_ball_one_marks() -> None:
    state = advanced(["dice 2", "6+6", "miss"], extra_pin=1)
    state.apply_text("extra-pin 7")  # grey in frame 1, crossed after ball 1 ended
    assert state.pinfalls[0] == [1]
    assert state.players[0].pending_marks == 1


UPPER_FULL_AUTO_STRIKE_TWO = [1, 2, 2, 2, 3, 0, 0, 0, 0, 2]  # one more box completes Auto Strike


def test_auto_strike_earned_mid_frame_strikes_the_next_frame() -> None:
    state = advanced(["dice 2", "6+6", "miss"])  # frame 1, ball 2
    player = state.players[0]
    player.marks = list(UPPER_FULL_AUTO_STRIKE_TWO)
    player.pending_marks = 1
    state.apply_text("mark 10")
    assert player.held == {"auto-strike": 1}
    # The frame it was earned in plays on as usual.
    assert "auto-strike" not in {str(a) for a in state.legal_actions()}
    for text in ("dice 2", "6+6", "miss"):
        state.apply_text(text)
    # The next frame is a strike at once: no roll, no choice.
    assert [str(a) for a in state.legal_actions()] == ["auto-strike"]
    with pytest.raises(IllegalActionError):
        state.apply_text("dice 2")
    assert player.tokens == 2  # frame 2 still gave its token
    state.apply_text("auto-strike")
    assert state.pinfalls[0] == [0, 0, 10]
    assert player.held == {} and player.pending_marks == 1  # the strike marks a box
    assert player.tokens == 3  # unused tokens carry into frame 3


def test_auto_strike_earned_by_a_strike_applies_to_the_frame_that_follows() -> None:
    state = advanced([])
    state.players[0].marks = list(UPPER_FULL_AUTO_STRIKE_TWO)
    for text in strike_frame():
        state.apply_text(text)
    state.apply_text("mark 10")  # the strike's box completes Auto Strike
    assert [str(a) for a in state.legal_actions()] == ["auto-strike"]
    state.apply_text("auto-strike")
    assert state.pinfalls[0] == [10, 10]


def test_auto_strike_earned_in_the_tenth_frame_strikes_the_bonus_frame() -> None:
    state = advanced(MISS_FRAME * 9)
    state.players[0].marks = list(UPPER_FULL_AUTO_STRIKE_TWO)
    for text in strike_frame():
        state.apply_text(text)
    state.apply_text("mark 10")
    assert [str(a) for a in state.legal_actions()] == ["auto-strike"]  # bonus frame 1, a fresh rack
    state.apply_text("auto-strike")
    state.apply_text("mark 6")
    assert state.pinfalls[0][-2:] == [10, 10]
    assert {"dice 1", "dice 2"} <= {str(a) for a in state.legal_actions()}  # bonus frame 2 is rolled


def test_auto_strike_held_variant_waits_for_the_players_choice() -> None:
    state = advanced(MISS_FRAME, {"auto_strike": "held"}, auto_strike=1)
    assert {"dice 1", "dice 2", "auto-strike"} <= {str(a) for a in state.legal_actions()}
    state.apply_text("dice 2")
    state.apply_text("6+6")
    state.apply_text("miss")
    assert Action("auto-strike") not in state.legal_actions()  # only before the first roll of a rack
    for text in ("dice 2", "6+6", "miss"):
        state.apply_text(text)
    state.apply_text("auto-strike")
    assert state.pinfalls[0] == [0, 0, 0, 0, 10]
    assert state.players[0].tokens == 4  # frame 3 still gave its token; frame 4 has begun
    assert state.players[0].pending_marks == 1
    with pytest.raises(OptionError, match="auto_strike: 'later' is not one of next, held"):
        get_game("rolling-pins", {"auto_strike": "later"})


def test_sheets() -> None:
    data = Sheet.parse("default").to_json()
    data["grey"][0] = [1, 2]
    game = get_game("rolling-pins", {"advanced": "true", "sheet": json.dumps(data)})
    assert isinstance(game, RollingPins) and game.sheet.grey[0] == (1, 2)
    # The record stores the sheet itself, so replays need no file.
    assert json.loads(str(game.options_text()["sheet"])) == data
    assert Sheet.parse(str(game.sheet)) == game.sheet


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(grey=d["grey"][:9]), "'grey' needs 10 frames"),
        (lambda d: d["grey"].__setitem__(2, [4, 4]), "frame 3: grey pins must be two different"),
        (lambda d: d["grey"].__setitem__(0, [0, 11]), "frame 1"),
        (lambda d: d["grey"].__setitem__(1, [True, 3]), "frame 2"),
        (lambda d: d["grey"].__setitem__(1, [2.0, 3]), "frame 2"),
        (lambda d: d["areas"][1].update(ability="teleport"), "area 2: ability 'teleport'"),
        (lambda d: d["areas"][1].update(ability=["flip"]), r"area 2: ability \['flip'\]"),
        (lambda d: d["areas"][0].update(boxes=4), "area 1: boxes must be 1, 2 or 3"),
        (lambda d: d["areas"][0].update(boxes=2.0), "area 1: boxes must be 1, 2 or 3, got 2.0"),
        (lambda d: d["areas"][0].update(boxes=True), "area 1: boxes must be 1, 2 or 3, got True"),
        (lambda d: d["areas"][9].update(row="middle"), "area 10: row"),
        (lambda d: d["areas"][9].update(row={}), "area 10: row"),
        (lambda d: d["areas"][7].update(row="upper"), "the track needs five upper and five lower"),
        (lambda d: d.update(areas=[[]] * 10), "area 1: needs ability"),
    ],
)
def test_bad_sheets(change: object, message: str) -> None:
    data = Sheet.parse("default").to_json()
    change(data)  # type: ignore[operator]
    with pytest.raises(OptionError, match="^option sheet: " + message):
        get_game("rolling-pins", {"advanced": "true", "sheet": json.dumps(data)})


def test_sheet_is_never_read_from_a_file_by_the_engine(tmp_path: Path) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(Sheet.parse("default").to_json()))
    with pytest.raises(OptionError, match=r"inline JSON, got .*--option sheet=FILE"):
        get_game("rolling-pins", {"sheet": str(path)})
    with pytest.raises(OptionError, match="option sheet: not valid JSON"):
        get_game("rolling-pins", {"sheet": "{grey"})


def test_player_counts() -> None:
    game = get_game("rolling-pins")
    assert (RollingPins.min_players, RollingPins.max_players) == (1, 12)
    assert len(game.new_state(12).players) == 12
    with pytest.raises(OptionError, match=r"^Rolling Pins takes 1 to 12 players: remove a player first$"):
        game.new_state(13)
    assert "1 to 12 players" in game.rules()


# --- the solver ---------------------------------------------------------------------


def brute_force(state: State) -> float:
    """Expectimax through the engine itself: the optimal expected final score."""
    memo: dict[object, float] = {}

    def value(s: State) -> float:
        if s.is_terminal():
            return float(s.scores()[0])
        key = s.key()
        if key not in memo:
            if s.is_chance_node():
                memo[key] = sum(float(p) * value(s.child(o)) for o, p in s.chance_outcomes())
            else:
                memo[key] = max(value(s.child(a)) for a in s.legal_actions())
        return memo[key]

    return value(state)


@pytest.mark.parametrize(
    ("pins", "frames", "tokens"),
    [(3, 1, True), (2, 2, True), (2, 3, False), (3, 2, False), (1, 3, True)],
)
def test_solver_equals_brute_force_on_small_games(pins: int, frames: int, tokens: bool) -> None:
    game = get_game("rolling-pins", {"pins": pins, "frames": frames, "tokens": tokens})
    exact = brute_force(game.new_state(1))
    policy = solver.solve(pins, frames, 1 if tokens else 0)
    assert policy.expected_score == pytest.approx(exact, abs=1e-12)


def test_token_axis_is_exact_not_a_cap() -> None:
    # A player can never hold more tokens than frames played: the solver's token axis
    # covers every reachable count, so no cap can change the value.
    state = play(MISS_FRAME * 9)
    assert state.players[0].tokens == 10
    policy = solver.solve()
    assert policy.tables[("B1L", 0, 0)].u.shape[1] == 11


def test_known_values() -> None:
    # Derived by this solver and confirmed by the brute-force checks above on small games.
    policy = solver.solve()
    assert policy.expected_score == pytest.approx(145.14355201492685, abs=1e-9)
    assert solver.solve(token_gain=0).expected_score == pytest.approx(89.01846055915482, abs=1e-9)


@pytest.fixture
def cache_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache folder and an empty in-memory cache."""
    monkeypatch.setenv("PINSETTER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(solver, "_MEMORY", {})
    return tmp_path / "cache"


SMALL = (3, 2, 1)  # pins, frames, token gain: a game that solves in milliseconds


def test_cache_goes_where_the_environment_says(cache_in: Path) -> None:
    policy = solver.policy_for(*SMALL)
    path = solver.cache_path(*SMALL)
    assert path.parent == cache_in and path.is_file()
    assert [p.name for p in cache_in.iterdir()] == [path.name]  # no temporary file is left behind
    loaded = solver.load(path, *SMALL)
    assert loaded is not None and loaded.expected_score == policy.expected_score


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[: len(raw) // 2],  # truncated
        lambda raw: b"",  # empty
        lambda raw: raw[:100] + bytes(b ^ 0xFF for b in raw[100:300]) + raw[300:],  # corrupt
        lambda raw: b"not a zip file at all",
    ],
)
def test_a_bad_cache_file_is_rebuilt(cache_in: Path, damage: object) -> None:
    expected = solver.policy_for(*SMALL).expected_score
    path = solver.cache_path(*SMALL)
    path.write_bytes(damage(path.read_bytes()))  # type: ignore[operator]
    solver._MEMORY.clear()
    assert solver.load(path, *SMALL) is None
    assert solver.policy_for(*SMALL).expected_score == expected
    rebuilt = solver.load(path, *SMALL)
    assert rebuilt is not None and rebuilt.expected_score == expected


def test_a_cache_file_of_another_game_is_rebuilt(cache_in: Path) -> None:
    expected = solver.policy_for(*SMALL).expected_score
    path = solver.cache_path(*SMALL)
    solver.save(solver.solve(2, 2, 1), path)  # well formed, wrong shapes
    assert solver.load(path, *SMALL) is None
    solver._MEMORY.clear()
    assert solver.policy_for(*SMALL).expected_score == expected


def test_optimal_bot_reproduces_the_solver_value() -> None:
    games = 1500
    summary = simulate("rolling-pins", {}, [PlayerSpec("optimal", "optimal")], games, seed=99, workers=2)
    lo, hi = summary.players[0].ci95
    # 99.9% interval: a correct bot fails this once in a thousand seeds.
    half = (hi - lo) / 2 * 3.29 / 1.96
    assert abs(summary.players[0].mean - solver.policy_for().expected_score) < half


def test_optimal_bot_values_every_option() -> None:
    state = play(["dice 2", "1+5"])
    bot = make_bot("optimal", state.game)
    values = bot.evaluate(state)
    assert values is not None
    assert {a for a, _ in values} == set(state.legal_actions())
    assert [v for _, v in values] == sorted((v for _, v in values), reverse=True)
    # The value of the position equals the best option, and the roll value before it.
    before = play(["dice 2"])
    assert before.is_chance_node()
    start = play([])
    start_values = dict(bot.evaluate(start) or [])
    expected = solver.policy_for().expected_score
    assert max(start_values.values()) == pytest.approx(expected, abs=1e-9)


def test_greedy_bot_takes_most_pins_high_first() -> None:
    state = play(["dice 2", "4+5"])
    bot = make_bot("greedy", state.game)
    import random

    assert str(bot.choose(state, random.Random(0))) == "cross 1+2+6"
    state = play(["dice 1", "1", "cross 1", "dice 2", "6+6"])
    assert str(bot.choose(state, random.Random(0))) == "cross 2+3+7"  # (7,3,2) > (6,4,2) > (5,4,3)


# --- multiplayer ---------------------------------------------------------------------


def test_turns_without_shared_dice_are_frame_by_frame() -> None:
    state = play(MISS_FRAME, players=2)
    assert state.turn() == 1
    assert state.pinfalls == [[0, 0], []]


def test_shared_dice_one_roll_serves_everyone() -> None:
    state = play(["dice 1", "dice 2"], {"shared_dice": "true"}, players=2)
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 216  # coloured, white and the third die
    state.apply_text("3+4+6")
    assert state.players[0].dice == (3,)  # one die: the coloured one
    assert state.players[1].dice == (3, 4)
    assert state.turn() == 0
    state.apply_text("cross 3")
    assert state.turn() == 1  # each decides on the same roll
    state.apply_text("miss")  # player 2's first ball ends; they choose for ball 2
    assert state.pinfalls == [[], [0]]
    state.apply_text("dice 2")  # player 1 again
    state.apply_text("dice 1")  # player 2, ball 2
    state.apply_text("5+5+1")
    assert state.players[0].dice == (5, 5) and state.players[1].dice == (5,)


def test_shared_dice_frames_stay_together() -> None:
    state = play(["dice 2", "dice 2", "6+6+1", "miss", "miss", "dice 2", "dice 2", "6+6+1", "miss"],
                 {"shared_dice": "true"}, players=2)  # fmt: skip
    # Player 1 has finished frame 1, player 2 is still in it: the next roll is player 2's alone.
    assert state.pinfalls == [[0, 0], [0]]
    assert state.turn() == 1
    state.apply_text("miss")
    assert state.turn() == 0 and state.ball_context(0).frame == 2  # type: ignore[union-attr]


def test_shared_dice_reroll_is_private() -> None:
    state = play([], {"shared_dice": "true", "advanced": "true"}, players=2)
    state.players[1].held["reroll"] = 1
    for text in ("dice 2", "dice 2", "1+1+1", "miss"):
        state.apply_text(text)
    assert state.turn() == 1
    state.apply_text("reroll")
    assert state.is_chance_node() and len(state.chance_outcomes()) == 36  # player 2's own two dice
    state.apply_text("4+5")
    assert state.players[1].dice == (4, 5) and state.players[0].phase == "choose"


def test_optimal_bot_in_the_advanced_game_uses_abilities_and_beats_greedy() -> None:
    from pinsetter.session import Match

    optimal, greedy, used = [], [], set()
    for seed in range(12):
        match = Match.new("rolling-pins", [PlayerSpec("o", "optimal")], seed=seed, options={"advanced": "true"})
        match.run_bots()
        optimal.append(match.state.scores()[0])
        used |= {s.text.split()[0] for s in match.record.steps if s.actor is not None}
        match = Match.new("rolling-pins", [PlayerSpec("g", "greedy")], seed=seed, options={"advanced": "true"})
        match.run_bots()
        greedy.append(match.state.scores()[0])
    assert sum(optimal) > sum(greedy) + 12 * 40  # about 160 against 68 on average
    assert "mark" in used and used & {"ten-pin", "reroll", "flip", "extra-dice", "extra-pin", "auto-strike", "keep"}


def test_boxes_to_mark_before_a_frames_first_roll_are_said_to_be_the_frame_befores() -> None:
    """A strike ending frame 6 leaves its box to mark before frame 7's first roll: "after frame 6", not
    "frame 7, ball 1"; and no hint for choosing the box says why in words (only the exact solution values it)."""
    from pinsetter.bots.hints import no_hint_words
    from pinsetter.core.seeds import step_rng
    from pinsetter.session import Match

    match = Match.new("rolling-pins", [PlayerSpec("you")], seed=1, options={"advanced": True})
    bot = make_bot("greedy", match.game)
    while not match.state.is_terminal():
        ctx = match.state.ball_context(0)
        marking = not match.state.is_chance_node() and str(match.state.legal_actions()[0]).startswith("mark")
        if marking and ctx is not None and ctx.ball == 1 and ctx.fresh_rack:
            status = match.game.table(match.state, ["you"]).status
            assert status == f"you, after frame {ctx.frame - 1}: mark a box on the ability track"
            assert "exact solution" in no_hint_words(match.state)
            return
        if match.state.is_chance_node():
            match.advance()
        else:
            match.apply(bot.choose(match.state, step_rng(1, match.steps_done, 1)))
    raise AssertionError("no box to mark before a frame's first roll in this game")


def test_refusals_name_the_pin_the_box_or_the_tokens_that_are_wrong() -> None:
    """A typed move that cannot be played says why in the game's words, not only what the moment is for."""
    for text, words in (
        ("cross 5+5", "pin 5 is named twice"),
        ("cross 11", "there is no pin 11; the pins are 1 to 10"),
        ("cross 0", "there is no pin 0"),
        ("extra-pin 12", "there is no pin 12"),
    ):
        with pytest.raises(ValueError, match=words):
            Action.parse(text)
    state = play(["dice 2", "2+6"])

    def reason(text: str) -> str:
        with pytest.raises(IllegalActionError) as refused:
            state.apply_text(text)
        return refused.value.reason

    assert reason("cross 2+6 tokens +5") == "the pins sum to the roll, 8: no token is needed (cross 2+6)"
    assert reason("cross 4+5") == "crossing 9 on a roll of 8 takes 1 token (cross 4+5 tokens +1)"
    state = advanced([])
    player = state.players[0]
    player.marks = [1, 2, 2, 0, 2, 0, 0, 0, 0, 0]
    player.pending_marks = 1
    assert reason("mark 6") == "the lower row opens once every box of the upper row is marked"
    assert reason("mark 2") == "every box of that area is marked already"
    assert reason("mark 11") == "the ability track has areas 1 to 10"
    state = advanced([*strike_frame()[:-3], "dice 2", "6+6", "miss"], extra_pin=1)  # only pin 1 stands
    assert reason("extra-pin 4") == "pin 4 is already crossed out"

"""Game review (issue 28, part 2): each decision against the best, the losses and the path agreeing.

Games are played through `Match` by the bots: the optimal bot (basic Rolling Pins) and the Expert
bot (Bowling Solitaire's expectimax) lose nothing at any decision; the greedy bot loses points; the
path drops by the loss at every decision and ends at the final score. A hand-built record checks one
decision against values worked out by hand. Games are short (few pins and frames) except one whole
Rolling Pins game (the solver's cache is shared by the session: tests/conftest.py).
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

import pytest

from pinsetter.records import PlayerSpec, Record, RecordError, RecordStep
from pinsetter.review import (
    COSTLIEST,
    FRAME_VALUE,
    NEAR_BEST,
    PlayerReview,
    Review,
    ReviewError,
    review,
    reviewable,
    seat_named,
)
from pinsetter.session import Match

SMALL = {"pins": 4, "frames": 3}  # a Rolling Pins game of a few dozen decisions
SHORT_SOLITAIRE = {"frames": 2}
SHORT_ADVANCED = {"advanced": True, "frames": 2}  # solved exactly on first need, in seconds
NOTATION = re.compile(r"\b(cross \d|dice \d|tokens [+-]|\d+:\d)|\d[+=]|standing \d")


def played(game: str, options: dict[str, object], kinds: list[str], seed: int) -> Record:
    """A whole game played by bots, as its record."""
    players = [PlayerSpec(f"Seat {i + 1}", kind) for i, kind in enumerate(kinds)]
    match = Match.new(game, players, seed, options)
    match.run_bots()
    assert match.state.is_terminal()
    return match.record


def as_humans(record: Record, seats: list[int]) -> Record:
    """The same game with these seats said to be played by people (the review looks at humans only)."""
    players = [PlayerSpec(p.name) if i in seats else p for i, p in enumerate(record.players)]
    return replace(record, players=players)


def check_path(seat: PlayerReview, complete: bool) -> None:
    """The path drops by exactly the loss at each decision, chance moves it by luck, and it ends at the score."""
    by_step = {d.step: d for d in seat.decisions}
    assert [p.step for p in seat.path] == sorted({p.step for p in seat.path})
    assert seat.path[0].kind == "start" and seat.path[0].step == 0
    decisions = [p for p in seat.path if p.kind == "decision"]
    assert [p.step for p in decisions] == [d.step for d in seat.decisions]
    for before, after in zip(seat.path, seat.path[1:], strict=False):
        if after.kind == "decision":
            assert before.value - after.value == pytest.approx(by_step[after.step].loss, abs=1e-9)
            assert after.value == by_step[after.step].value
    luck = sum(b.value - a.value for a, b in zip(seat.path, seat.path[1:], strict=False) if b.kind == "chance")
    assert seat.end - seat.start == pytest.approx(luck - sum(d.loss for d in seat.decisions), abs=1e-9)
    assert seat.luck == pytest.approx(luck, abs=1e-9)
    if complete:
        assert seat.end == pytest.approx(seat.score, abs=1e-9)


def check_words(result: Review) -> None:
    """Players read words: the moves, the situations and the meaning carry no notation."""
    for seat in result.players:
        for d in seat.decisions:
            for text in (d.words, d.best_words, d.situation):
                assert text and NOTATION.search(text) is None, text
    assert NOTATION.search(result.meaning) is None


# --- the best bots lose nothing ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_optimal_bot_loses_nothing_at_any_decision(seed: int) -> None:
    result = review(played("rolling-pins", SMALL, ["optimal"], seed))
    (seat,) = result.players
    assert result.exact and result.complete and seat.decisions
    assert all(d.loss <= 1e-9 and d.best for d in seat.decisions)
    assert seat.total_loss <= 1e-9 and seat.costliest == []
    assert seat.accuracy in (100.0, None)
    check_path(seat, complete=True)
    check_words(result)


def test_a_whole_game_of_the_optimal_bot_reviews_clean_and_starts_at_the_optimum() -> None:
    from pinsetter.solvers.rolling_pins import policy_for

    result = review(played("rolling-pins", {}, ["optimal"], 11))
    (seat,) = result.players
    assert len(seat.decisions) > 30
    assert max(d.loss for d in seat.decisions) <= 1e-9
    assert seat.accuracy == 100.0
    assert seat.start == pytest.approx(policy_for().expected_score, abs=1e-9)  # 145.14...
    check_path(seat, complete=True)


def test_the_expert_bot_loses_nothing_at_bowling_solitaire() -> None:
    result = review(played("bowling-solitaire", SHORT_SOLITAIRE, ["expectimax"], 5))
    (seat,) = result.players
    assert not result.exact and seat.decisions
    assert all(d.loss <= 1e-9 for d in seat.decisions)
    assert seat.start == pytest.approx(2 * FRAME_VALUE["connected"])
    check_path(seat, complete=True)
    check_words(result)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_optimal_bot_loses_nothing_at_advanced_rolling_pins(seed: int) -> None:
    """Marks and abilities included: every decision at the exact solver's best, the path starting at its optimum."""
    from pinsetter.games.rolling_pins import RollingPins
    from pinsetter.records import game_played
    from pinsetter.solvers import rolling_pins_advanced as advanced

    record = played("rolling-pins", SHORT_ADVANCED, ["optimal"], seed)
    result = review(record)
    (seat,) = result.players
    assert result.exact and result.complete and seat.decisions
    assert {"mark", "dice", "cross"} <= {d.action.split()[0] for d in seat.decisions}
    assert all(d.loss <= 1e-9 and d.best for d in seat.decisions)
    assert seat.total_loss <= 1e-9 and seat.costliest == []
    game = game_played(record.game, record.options)
    assert isinstance(game, RollingPins)
    solution = advanced.cached(advanced.Variant.of_game(game))  # solved by the bot on first need
    assert solution is not None and seat.start == pytest.approx(solution.expected_score, abs=1e-9)
    check_path(seat, complete=True)
    check_words(result)


@pytest.mark.parametrize("shared_dice", [False, True])
def test_the_greedy_bot_loses_points_at_advanced_rolling_pins_beside_the_optimal_one(shared_dice: bool) -> None:
    """Two seats: a waiting seat's value (the best choice to come) and dice in the air keep each path exact."""
    result = review(played("rolling-pins", {**SHORT_ADVANCED, "shared_dice": shared_dice}, ["optimal", "greedy"], 2))
    optimal, greedy = result.players
    assert all(d.loss <= 1e-9 for d in optimal.decisions)
    assert all(d.loss >= 0 for d in greedy.decisions) and greedy.total_loss > 0.1
    assert greedy.accuracy is not None and greedy.accuracy < 100
    for seat in result.players:
        check_path(seat, complete=True)
    check_words(result)


# --- the greedy bot loses points ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_greedy_bot_loses_points_and_the_path_agrees(seed: int) -> None:
    result = review(played("rolling-pins", SMALL, ["greedy"], seed))
    (seat,) = result.players
    assert seat.total_loss > 0.1
    assert all(d.loss >= 0 for d in seat.decisions)
    assert seat.accuracy is not None and seat.accuracy < 100
    costliest = seat.costliest
    assert 1 <= len(costliest) <= COSTLIEST
    assert [d.loss for d in costliest] == sorted((d.loss for d in costliest), reverse=True)
    worst = max(d.loss for d in seat.decisions)
    assert costliest[0].loss == worst and worst >= NEAR_BEST
    for d in costliest:
        assert d.best_words != d.words and d.best_value - d.value == pytest.approx(d.loss, abs=1e-12)
    check_path(seat, complete=True)
    check_words(result)


def test_the_greedy_bot_loses_points_at_bowling_solitaire() -> None:
    result = review(played("bowling-solitaire", SHORT_SOLITAIRE, ["greedy"], 2))
    (seat,) = result.players
    assert seat.total_loss > 0.1 and all(d.loss >= 0 for d in seat.decisions)
    check_path(seat, complete=True)
    check_words(result)


@pytest.mark.parametrize("seed", [7, 8])
def test_several_players_each_have_their_own_path(seed: int) -> None:
    record = played("rolling-pins", {"pins": 3, "frames": 2}, ["optimal", "greedy", "random"], seed)
    result = review(record)  # bots only: every seat is reviewed
    assert [p.seat for p in result.players] == [0, 1, 2]
    optimal, greedy, rookie = result.players
    assert optimal.total_loss <= 1e-9
    for seat in result.players:
        check_path(seat, complete=True)
        assert {d.step for d in seat.decisions} == {i + 1 for i, s in enumerate(record.steps) if s.actor == seat.seat}
    assert greedy.total_loss > 0 or rookie.total_loss > 0


def test_shared_dice_are_reviewed_seat_by_seat() -> None:
    record = played("rolling-pins", {"pins": 3, "frames": 2, "shared_dice": True}, ["optimal", "greedy"], 3)
    result = review(record)
    optimal, greedy = result.players
    assert optimal.total_loss <= 1e-9
    # Both answer the same rolls: each decision of either is reviewed from that seat's own sheet.
    assert {d.step for d in greedy.decisions}.isdisjoint(d.step for d in optimal.decisions)
    for seat in result.players:
        check_path(seat, complete=True)


# --- whose decisions --------------------------------------------------------------------------------


def test_humans_only_when_a_game_has_them_and_a_named_player_on_request() -> None:
    record = as_humans(played("rolling-pins", SMALL, ["greedy", "optimal"], 4), [0])
    assert [p.seat for p in review(record).players] == [0]
    assert [p.seat for p in review(record, [seat_named(record, "seat 2")]).players] == [1]  # names compare as names
    with pytest.raises(ReviewError, match="no player 'Nobody'"):
        seat_named(record, "Nobody")


def test_a_decision_a_bot_made_for_a_human_is_shown_but_not_counted() -> None:
    record = as_humans(played("rolling-pins", SMALL, ["greedy"], 1), [0])
    seat = review(record).players[0]
    worst = seat.costliest[0]
    steps = list(record.steps)
    steps[worst.step - 1] = RecordStep(0, steps[worst.step - 1].text, by="greedy")
    timed_out = review(replace(record, steps=steps)).players[0]
    row = next(d for d in timed_out.decisions if d.step == worst.step)
    assert not row.own and row.by == "greedy" and row.loss == worst.loss
    assert timed_out.total_loss == pytest.approx(seat.total_loss - worst.loss, abs=1e-9)
    assert worst.step not in {d.step for d in timed_out.costliest}
    check_path(timed_out, complete=True)  # the path still drops at it


def test_a_seat_handed_to_a_bot_is_reviewed_up_to_the_hand_over() -> None:
    record = played("rolling-pins", SMALL, ["greedy"], 1)
    half = len(record.steps) // 2
    handed = replace(record, players=[PlayerSpec("Ann", replaced_by="greedy", from_step=half)])
    seat = review(handed).players[0]  # still a human's seat: reviewed by default
    assert all(d.own == (d.step <= half) for d in seat.decisions)
    assert {d.by for d in seat.decisions if not d.own} == {"greedy"}
    assert seat.total_loss == pytest.approx(sum(d.loss for d in seat.decisions if d.step <= half), abs=1e-9)
    check_path(seat, complete=True)


def test_an_unfinished_game_is_reviewed_so_far() -> None:
    record = played("rolling-pins", SMALL, ["greedy"], 2)
    partial = replace(record, steps=record.steps[: len(record.steps) // 2], result=None)
    result = review(partial)
    (seat,) = result.players
    assert not result.complete and not seat.finished
    check_path(seat, complete=False)
    assert seat.end != seat.score  # an expectation, not the score so far
    empty = review(replace(record, steps=[], result=None)).players[0]
    assert empty.decisions == () and len(empty.path) == 1 and empty.accuracy is None


# --- a record worked out by hand ------------------------------------------------------------------------


def test_a_hand_built_record_against_values_worked_out_by_hand() -> None:
    # One pin, one frame, no tokens. One die makes a 1 (pin 1) one time in six; two dice never do.
    # A bonus ball is worth 1/6 of a pin. Ball 2 with one die: a spare (1 + a bonus ball) one time in
    # six: 1/6 * 7/6 = 7/36. Ball 1 with one die: a strike (1 + two bonus balls) one time in six, else
    # ball 2: 1/6 * 4/3 + 5/6 * 7/36 = 83/216. Two dice in ball 1: straight to ball 2, 7/36 = 42/216.
    steps = [
        RecordStep(0, "dice 2"),  # the mistake: 41/216 of a point
        RecordStep(None, "3+4"),
        RecordStep(0, "miss"),  # forced: nothing sums to 7
        RecordStep(0, "dice 1"),
        RecordStep(None, "1"),
        RecordStep(0, "cross 1"),  # the spare
        RecordStep(0, "dice 1"),  # the bonus ball
        RecordStep(None, "5"),
        RecordStep(0, "miss"),
    ]
    options = {"pins": 1, "frames": 1, "tokens": False}
    record = Record("rolling-pins", options, [PlayerSpec("Ann")], 0, steps, chance="entered")
    result = review(record)
    (seat,) = result.players
    first = seat.decisions[0]
    assert (first.action, first.best_action) == ("dice 2", "dice 1")
    assert (first.words, first.best_words) == ("Roll two dice", "Roll one die")
    assert first.best_value == pytest.approx(float(Fraction(83, 216)), abs=1e-12)
    assert first.value == pytest.approx(float(Fraction(42, 216)), abs=1e-12)
    assert first.loss == pytest.approx(float(Fraction(41, 216)), abs=1e-12)
    assert [d.loss > 1e-12 for d in seat.decisions] == [True, False, False, False, False, False]
    assert [d.mattered for d in seat.decisions] == [True, False, True, True, True, False]  # the misses were forced
    assert seat.accuracy == 75.0 and seat.best_choices == 3 and len(seat.counted) == 4
    assert seat.costliest == [first] and seat.score == 1 and seat.end == pytest.approx(1.0)
    assert [p.value for p in seat.path] == pytest.approx(
        [83 / 216, 42 / 216, 42 / 216, 42 / 216, 42 / 216, 7 / 6, 7 / 6, 7 / 6, 1.0, 1.0], abs=1e-12
    )
    assert seat.luck == pytest.approx(1 - 42 / 216, abs=1e-12)
    check_path(seat, complete=True)


def test_to_json_has_stable_keys_and_floats() -> None:
    data = review(played("rolling-pins", SMALL, ["greedy"], 3)).to_json()
    assert set(data) == {"game", "title", "complete", "exact", "meaning", "near_best", "steps", "players"}
    (seat,) = data["players"]
    assert set(seat) == {
        "seat", "name", "kind", "score", "finished", "start", "end", "total_loss", "luck", "accuracy",
        "counted", "best_choices", "decisions", "costliest", "path",
    }  # fmt: skip
    for key in ("score", "start", "end", "total_loss", "luck", "accuracy"):
        assert isinstance(seat[key], float)
    row = seat["decisions"][0]
    assert all(isinstance(row[key], float) for key in ("value", "best_value", "loss"))
    assert set(seat["path"][0]) == {"step", "kind", "frame", "value"}


def test_words_follow_the_language() -> None:
    from pinsetter.i18n import using_language

    record = played("rolling-pins", SMALL, ["greedy"], 3)
    with using_language("ja"):
        data = review(record).to_json()
    with using_language("en"):
        assert data["meaning"] != review(record).meaning
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", data["players"][0]["costliest"][0]["words"])


# --- refusals -------------------------------------------------------------------------------------------


def test_advanced_rolling_pins_is_refused_in_one_line_until_it_is_solved() -> None:
    """A whole advanced game, its solution not on disk (the session's fresh cache): what to do, in one line."""
    from pinsetter.records import game_played

    record = played("rolling-pins", {"advanced": True}, ["random"], 1)
    with pytest.raises(ReviewError, match="reviewed once it is solved") as refused:
        review(record)
    assert "\n" not in str(refused.value) and "minutes" in str(refused.value)
    assert reviewable(game_played("rolling-pins", {"advanced": True})) == str(refused.value)
    assert reviewable(game_played("rolling-pins", SHORT_ADVANCED)) is None  # solved at once when needed


@pytest.mark.parametrize("game", ["tenpins", "bowling-dice"])
def test_games_without_decisions_are_refused_in_one_line(game: str) -> None:
    record = played(game, {}, ["random"], 1)
    with pytest.raises(ReviewError, match="no decisions") as refused:
        review(record)
    assert "\n" not in str(refused.value)


def test_a_record_that_does_not_replay_is_refused_naming_the_step() -> None:
    record = played("rolling-pins", SMALL, ["greedy"], 3)
    steps = list(record.steps)
    steps[1] = RecordStep(None, "6+6" if steps[1].text != "6+6" else "1+1")
    with pytest.raises(RecordError, match="step 2"):
        review(replace(record, steps=steps))

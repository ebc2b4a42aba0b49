"""The scoring engine: hand-worked games, notation, errors and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pinsetter.core.scoring import Lane, ScoringError, format_line, next_ball, parse_line, score


def totals(line: str) -> list[int | None]:
    return [f.total for f in score(parse_line(line)).frames]


def test_seed_002_example_game() -> None:
    # seeds/002: X, 3/, 61, X X X, 2/, 9-, 8/, X72 -> 20 36 43 73 95 115 134 143 163 182
    line = "X 3/ 61 X X X 2/ 9- 8/ X72"
    assert totals(line) == [20, 36, 43, 73, 95, 115, 134, 143, 163, 182]
    assert score(parse_line(line)).complete


def test_perfect_game_and_all_spares() -> None:
    assert score([10] * 12).total == 300
    assert score([9, 1] * 10 + [9]).total == 190
    assert score([0] * 20).total == 0


def test_classic_sheet() -> None:
    assert totals("X 7/ 9- X -8 8/ -6 X X X81") == [20, 39, 48, 66, 74, 84, 90, 120, 148, 167]


def test_running_totals_wait_for_bonus_balls() -> None:
    sheet = score([10, 10])
    assert [f.score for f in sheet.frames] == [None, None]
    assert sheet.total == 0 and not sheet.complete
    sheet = score([10, 10, 3])
    assert [f.total for f in sheet.frames] == [23, None, None]
    assert sheet.total == 23
    sheet = score([7, 3])
    assert sheet.frames[0].score is None


def test_tenth_frame_shapes() -> None:
    nine_open = [0, 0] * 9
    cases = {
        (10, 10, 10): ("X", "X", "X"),
        (10, 10, 4): ("X", "X", "4"),
        (10, 3, 7): ("X", "3", "/"),
        (10, 3, 2): ("X", "3", "2"),
        (7, 3, 10): ("7", "/", "X"),
        (7, 3, 0): ("7", "/", "-"),
        (7, 2): ("7", "2"),
        (0, 10, 5): ("-", "/", "5"),
    }
    for tenth, marks in cases.items():
        sheet = score(nine_open + list(tenth))
        assert sheet.frames[-1].marks == marks
        assert sheet.total == sum(tenth)
        assert sheet.complete


def test_marks_of_middle_frames() -> None:
    frames = score(parse_line("X 0/ 9- -- 54")).frames
    assert [f.marks for f in frames] == [("X",), ("-", "/"), ("9", "-"), ("-", "-"), ("5", "4")]


@pytest.mark.parametrize(
    ("pinfalls", "ball", "reason"),
    [
        ([7, 4], 2, "only 3 standing"),
        ([-1], 1, "negative"),
        ([11], 1, "only 10 standing"),
        ([0] * 20 + [5], 21, "over"),
        ([10] * 12 + [1], 13, "over"),
        ([0] * 18 + [10, 5, 6], 21, "only 5 standing"),
    ],
)
def test_impossible_sequences_name_the_ball(pinfalls: list[int], ball: int, reason: str) -> None:
    with pytest.raises(ScoringError) as info:
        score(pinfalls)
    assert info.value.ball == ball
    assert reason in str(info.value)


def test_parse_notations_agree() -> None:
    assert parse_line("X 7/ 9- X") == [10, 7, 3, 9, 0, 10]
    assert parse_line("10 7 3 9 0 10") == [10, 7, 3, 9, 0, 10]
    assert parse_line("X X X X X X X X X XXX") == [10] * 12
    assert parse_line("x 7/ 9-") == [10, 7, 3, 9, 0]  # x is X
    assert parse_line("X 7") == [10, 7]  # the last token may be a frame not yet finished
    assert parse_line("X X X X X X X X X 7/X") == [10] * 9 + [7, 3, 10]  # the last frame's three balls
    assert parse_line("X X X X X X X X X X9/") == [10] * 10 + [9, 1]


@pytest.mark.parametrize(
    ("line", "ball", "words"),
    [
        ("XXXX", 2, "token 1 'XXXX' goes on past frame 1 ('X')"),
        ("7/X", 3, "token 1 '7/X' goes on past frame 1 ('7/')"),
        ("X 81X", 4, "token 2 '81X' goes on past frame 2 ('81')"),
        ("X 7 / 9 -", 2, "token 2 '7' leaves frame 2 unfinished"),
        ("X X X X X X X X X X X X", 10, "token 10 'X' leaves frame 10 unfinished"),
        ("XXXXXXXXXXXX", 2, "token 1"),
    ],
)
def test_a_token_among_marks_is_exactly_one_frame(line: str, ball: int, words: str) -> None:
    """docs/cli.md: several frames in one token, or one frame over several, is a typing mistake, never read."""
    with pytest.raises(ScoringError) as info:
        parse_line(line)
    assert info.value.ball == ball and words in str(info.value)


@pytest.mark.parametrize(("line", "ball"), [("/", 1), ("7X", 2), ("7 ?", 2), ("X 7?", 3), ("X " * 9 + "XXXX", 13)])
def test_parse_errors_name_the_ball(line: str, ball: int) -> None:
    with pytest.raises(ScoringError) as info:
        parse_line(line)
    assert info.value.ball == ball


def test_next_ball_contexts() -> None:
    assert next_ball([]) is not None
    ctx = next_ball([7])
    assert ctx is not None and (ctx.frame, ctx.ball, ctx.standing, ctx.fresh_rack) == (1, 2, 3, False)
    ctx = next_ball([0] * 18 + [10, 4])
    assert ctx is not None and (ctx.frame, ctx.ball, ctx.standing, ctx.fresh_rack) == (10, 3, 6, False)
    assert next_ball([10] * 12) is None


def test_small_lane() -> None:
    lane = Lane(pins=3, frames=2)
    assert score([3, 3, 3, 3], lane).total == 18
    assert next_ball([3, 3, 3, 3], lane) is None
    assert lane.max_score == 18


@st.composite
def valid_games(draw: st.DrawFn, complete: bool = False) -> list[int]:
    pinfalls: list[int] = []
    while True:
        ctx = next_ball(pinfalls)
        if ctx is None:
            return pinfalls
        if not complete and draw(st.integers(0, 25)) == 0:
            return pinfalls
        pinfalls.append(draw(st.integers(0, ctx.standing)))


@given(valid_games())
def test_valid_sequences_score_and_totals_add_up(pinfalls: list[int]) -> None:
    sheet = score(pinfalls)
    known = [f.score for f in sheet.frames if f.score is not None]
    assert sheet.total == sum(known)
    assert 0 <= sheet.total <= 300
    running = 0
    for frame in sheet.frames:
        if frame.score is None:
            break
        running += frame.score
        assert frame.total == running


@given(valid_games(complete=True))
def test_complete_games_round_trip_through_notation(pinfalls: list[int]) -> None:
    sheet = score(pinfalls)
    assert sheet.complete
    assert all(f.score is not None for f in sheet.frames)
    assert parse_line(format_line(pinfalls)) == pinfalls


@given(valid_games(complete=True), st.data())
def test_invalid_mutations_always_raise(pinfalls: list[int], data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(["negative", "too_many", "extra"]))
    mutated = list(pinfalls)
    if kind == "extra":
        mutated.append(data.draw(st.integers(0, 10)))
        bad = len(mutated)
    else:
        bad = data.draw(st.integers(1, len(mutated)))
        ctx = next_ball(mutated[: bad - 1])
        assert ctx is not None
        mutated[bad - 1] = -1 if kind == "negative" else ctx.standing + 1
    with pytest.raises(ScoringError) as info:
        score(mutated)
    assert info.value.ball == bad


@given(valid_games(complete=True))
def test_bonus_weights_account_for_every_point(pinfalls: list[int]) -> None:
    """Pins times their weights (own frame plus owed bonuses) add up to the final score."""
    from pinsetter.core.scoring import bonus_weights

    earned, _, _, _ = bonus_weights(pinfalls)
    assert earned == score(pinfalls).total
    # At every frame boundary the pending weights say what the next two balls will pay.
    for cut in range(len(pinfalls)):
        ctx = next_ball(pinfalls[:cut])
        if ctx is None or ctx.ball != 1:
            continue
        so_far, w1, w2, _ = bonus_weights(pinfalls[:cut])
        rest = pinfalls[cut:]
        sheet = score(pinfalls)
        owed = w1 * rest[0] + (w2 * rest[1] if len(rest) > 1 else 0)
        done = sum(f.score or 0 for f in sheet.frames[: ctx.frame - 1])
        assert so_far + owed == done  # the earlier frames are fully paid by these two balls


@pytest.mark.parametrize(
    ("line", "ball", "reason"),
    [
        ("10 7 3 9 0 11", 6, "11 pins in one ball"),
        ("100", 1, "write 1 0 0 for 3 balls"),
        ("81", 1, "write 8 1 for 2 balls"),
        ("X 10 X", 2, "ambiguous"),
        ("X 181", 2, "at most two balls"),
        ("\N{SUPERSCRIPT TWO}", 1, "unknown mark"),
        ("\N{FULLWIDTH DIGIT ONE}\N{FULLWIDTH DIGIT ZERO}", 1, "unknown mark"),
        ("\N{ARABIC-INDIC DIGIT THREE}", 1, "unknown mark"),
        ("X \N{ARABIC-INDIC DIGIT THREE}/", 2, "unknown mark"),
    ],
)
def test_scoring_input_is_never_reinterpreted(line: str, ball: int, reason: str) -> None:
    """A bare number is one ball: `11` is an error, never 1 and 1 (exercism's bowling suite agrees)."""
    with pytest.raises(ScoringError) as info:
        parse_line(line)
    assert info.value.ball == ball
    assert reason in str(info.value)


def test_compact_frames_with_marks_still_read_one_character_per_ball() -> None:
    assert parse_line("X 3/ 61 X X X 2/ 9- 8/ X72") == [10, 3, 7, 6, 1, 10, 10, 10, 2, 8, 9, 0, 8, 2, 10, 7, 2]
    assert parse_line("-1") == [0, 1]
    assert parse_line("10 10 10") == [10, 10, 10]
    assert format_line([8, 1, 7, 2]) == "8 1 7 2"
    assert format_line([8, 1, 10]) == "81 X"


@given(valid_games(complete=True), st.integers(-1, 11), st.sampled_from([Lane(), Lane(pins=5, frames=3)]))
def test_a_game_scored_ball_by_ball_matches_scoring_it_whole(pinfalls: list[int], extra: int, lane: Lane) -> None:
    """Sheets reuse the frames settled one ball before (a server scores every step): same sheets, same errors."""
    from pinsetter.core.scoring import _score

    if lane.pins != 10:
        pinfalls = [min(p, 5) for p in pinfalls]  # some valid, some not, on the smaller lane
    for n in range(len(pinfalls) + 2):
        balls = (*pinfalls, extra)[:n]
        try:
            whole = _score(balls, lane)
        except ScoringError as exc:
            with pytest.raises(ScoringError) as info:
                score(balls, lane)
            assert (info.value.ball, str(info.value)) == (exc.ball, str(exc))
            break
        assert score(balls, lane) == whole

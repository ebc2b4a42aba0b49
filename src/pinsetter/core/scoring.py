"""Ten-pin scoring: the one place that turns a pinfall sequence into a scoresheet.

Every game in pinsetter only decides how many pins each ball knocks down; this
module alone knows about frames, strikes, spares, bonus balls and totals.
`Lane` generalises the rack size and frame count so that solvers can be checked
by brute force on small games; the games themselves use the standard lane.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from pinsetter.core.frozen import unchecked
from pinsetter.i18n import _

__all__ = [
    "STANDARD",
    "BallContext",
    "Frame",
    "Lane",
    "Scoresheet",
    "ScoringError",
    "bonus_weights",
    "following_ball",
    "format_line",
    "next_ball",
    "parse_line",
    "score",
]


class ScoringError(ValueError):
    """An impossible pinfall sequence; `ball` is the 1-based index of the bad ball."""

    def __init__(self, ball: int, reason: str) -> None:
        super().__init__(_("ball {ball}: {reason}").format(ball=ball, reason=reason))
        self.ball = ball
        self.reason = reason


@dataclass(frozen=True)
class Lane:
    """Size of the game: pins in a rack and frames in a game (10 and 10 in bowling)."""

    pins: int = 10
    frames: int = 10

    def __post_init__(self) -> None:
        if not 1 <= self.pins <= 10:
            raise ValueError(_("{name} must be 1..10, got {value}").format(name="pins", value=self.pins))
        if not 1 <= self.frames <= 10:
            raise ValueError(_("{name} must be 1..10, got {value}").format(name="frames", value=self.frames))

    @property
    def max_score(self) -> int:
        return 3 * self.pins * self.frames


STANDARD = Lane()


@dataclass(frozen=True)
class BallContext:
    """What the next ball faces: its frame, its ball number in the frame, the rack."""

    frame: int
    ball: int
    standing: int
    fresh_rack: bool


@dataclass(frozen=True)
class Frame:
    number: int
    pinfalls: tuple[int, ...]
    marks: tuple[str, ...]
    score: int | None
    total: int | None

    @functools.cached_property
    def data(self) -> dict[str, object]:
        """`to_dict`, made once (shared: read only)."""
        return self.to_dict()

    def to_dict(self) -> dict[str, object]:
        return {
            "frame": self.number,
            "pinfalls": list(self.pinfalls),
            "marks": list(self.marks),
            "score": self.score,
            "total": self.total,
        }


@dataclass(frozen=True)
class Scoresheet:
    frames: tuple[Frame, ...]
    total: int
    complete: bool

    @functools.cached_property
    def frames_data(self) -> list[dict[str, object]]:
        """The frames as JSON-ready dicts, each made once per frame, the list once per sheet (shared: read only).

        An online table shows every player's sheet after every step, though only one of them
        changed (sheets are kept per pinfalls: the others' are the same objects), and a sheet
        shares its settled frames with the one before it.
        """
        return [f.data for f in self.frames]

    @functools.cached_property
    def marks_data(self) -> list[list[str]]:
        """Each frame's marks as JSON-ready lists, made once per sheet (shared: read only).

        A stated result (`records.result_of`) lists them for every player, and a live table's
        game states its result with every step written.
        """
        return [list(f.marks) for f in self.frames]

    def to_dict(self) -> dict[str, object]:
        return {
            "frames": [f.to_dict() for f in self.frames],
            "total": self.total,
            "complete": self.complete,
        }


def frame_next(balls: Sequence[int], last: bool, lane: Lane = STANDARD) -> tuple[int, bool] | None:
    """Standing pins and fresh-rack flag for the next ball of a frame, or None if it is over.

    `balls` are the pinfalls already bowled in this frame (assumed valid).
    """
    pins = lane.pins
    n = len(balls)
    if n == 0:
        return pins, True
    if not last:
        if n == 1 and balls[0] < pins:
            return pins - balls[0], False
        return None
    # Last frame: up to three balls when the first two earn them.
    if n == 1:
        return (pins, True) if balls[0] == pins else (pins - balls[0], False)
    if n == 2:
        if balls[0] == pins:
            return (pins, True) if balls[1] == pins else (pins - balls[1], False)
        if balls[0] + balls[1] == pins:
            return pins, True
        return None
    return None


def _split(pinfalls: Sequence[int], lane: Lane, done: int = 0, offset: int = 0) -> list[list[int]]:
    """Group pinfalls into frames, validating every ball.

    `done`: complete frames before these balls (they were the first `offset` balls of the game).
    """
    current: list[int] = []
    frames = [current]
    number, last_frame = done + 1, lane.frames  # `current` is frame `number`
    nxt = frame_next(current, number == last_frame, lane) if number <= last_frame else None
    for index, pins in enumerate(pinfalls, start=offset + 1):
        if type(pins) is not int and (isinstance(pins, bool) or not isinstance(pins, int)):
            raise ScoringError(index, _("pinfall must be an integer, got {value}").format(value=repr(pins)))
        while nxt is None:  # the frame is over: the ball opens the next one
            if number >= last_frame:
                raise ScoringError(index, _("the game is already over"))
            current = []
            frames.append(current)
            number += 1
            nxt = frame_next(current, number == last_frame, lane)
        if pins < 0:
            raise ScoringError(index, _("negative pinfall {pins}").format(pins=pins))
        if pins > nxt[0]:
            raise ScoringError(
                index,
                _("{pins} pins in frame {frame} but only {standing} standing").format(
                    pins=pins, frame=number, standing=nxt[0]
                ),
            )
        current.append(pins)
        nxt = frame_next(current, number == last_frame, lane)
    return frames


def next_ball(pinfalls: Sequence[int], lane: Lane = STANDARD) -> BallContext | None:
    """The context of the next ball, or None when the game is complete."""
    return _next_in(_split(pinfalls, lane), lane)


def _next_in(frames: list[list[int]], lane: Lane) -> BallContext | None:
    """`next_ball` of pinfalls already split into frames (frames may be added to the list)."""
    while True:
        last = len(frames) == lane.frames
        nxt = frame_next(frames[-1], last, lane)
        if nxt is not None:
            standing, fresh = nxt
            return BallContext(len(frames), len(frames[-1]) + 1, standing, fresh)
        if last:
            return None
        frames.append([])


def following_ball(ctx: BallContext, frame_balls: Sequence[int], lane: Lane = STANDARD) -> BallContext | None:
    """The ball after the one `ctx` described, now bowled: what `next_ball` says, from its frame alone.

    `frame_balls` are the balls of ctx's frame, that one included (assumed valid).
    """
    last = ctx.frame == lane.frames
    nxt = frame_next(frame_balls, last, lane)
    if nxt is not None:
        return _ball_context(ctx.frame, ctx.ball + 1, nxt[0], nxt[1])
    if last:
        return None
    opening = frame_next((), ctx.frame + 1 == lane.frames, lane)
    assert opening is not None  # a frame with no ball bowled has one to come
    return _ball_context(ctx.frame + 1, 1, opening[0], opening[1])


@cache
def _ball_context(frame: int, ball: int, standing: int, fresh: bool) -> BallContext:
    """Contexts are values: one shared instance of each (building a frozen dataclass is not free)."""
    return BallContext(frame, ball, standing, fresh)


def bonus_weights(pinfalls: Sequence[int], lane: Lane = STANDARD) -> tuple[int, int, int, bool]:
    """(points certain so far, w1, w2, the last frame's first ball was a strike).

    Every ball counts once for its own frame plus once for each earlier strike or
    spare whose bonus it pays. (w1, w2) are the bonuses owed to the next two balls
    of the frame being played (its first and second ball): what a solver needs to
    weigh the pins of the balls to come. `pinfalls` must be valid.
    """
    pins, frames = lane.pins, lane.frames
    earned, w1, w2 = 0, 0, 0
    index, frame = 0, 1
    while index < len(pinfalls) and frame < frames:
        first = pinfalls[index]
        earned += first * (1 + w1)
        if first == pins:
            w1, w2 = w2 + 1, 1
            index += 1
        elif index + 1 < len(pinfalls):
            second = pinfalls[index + 1]
            earned += second * (1 + w2)
            w1, w2 = (1, 0) if first + second == pins else (0, 0)
            index += 2
        else:
            return earned, w1, w2, False  # in the middle of this frame
        frame += 1
    rest = pinfalls[index:]
    weights = (1 + w1, 1 + w2, 1)
    earned += sum(p * m for p, m in zip(rest, weights, strict=False))
    return earned, w1, w2, bool(rest) and rest[0] == pins


@functools.lru_cache(maxsize=4096)
def _marks(balls: tuple[int, ...], last: bool, pins: int) -> tuple[str, ...]:
    marks: list[str] = []
    standing = pins
    fresh = True
    for ball in balls:
        if fresh and ball == pins:
            marks.append("X")
        elif not fresh and ball == standing:
            marks.append("/")
        elif ball == 0:
            marks.append("-")
        else:
            marks.append(str(ball))
        standing -= ball
        fresh = False
        if standing == 0 and last:
            standing, fresh = pins, True
    return tuple(marks)


def score(pinfalls: Sequence[int], lane: Lane = STANDARD) -> Scoresheet:
    """Score a (possibly unfinished) pinfall sequence.

    Sheets are immutable, so those of plain integer pinfalls are remembered: a server
    shows every player's sheet after every step, and only one of them has changed.
    """
    key = tuple(pinfalls)
    if set(map(type, key)) <= _INT:  # every ball a plain int (a bool or a float is not), checked in C
        return _score_ints(key, lane)
    return _score(key, lane)


_INT = {int}


@functools.lru_cache(maxsize=2048)
def _score_ints(pinfalls: tuple[int, ...], lane: Lane) -> Scoresheet:
    # A game is scored ball by ball: the frames settled one ball ago are taken as they were.
    before = _RECENT.get((pinfalls[:-1], lane)) if pinfalls else None
    sheet = _score(pinfalls, lane, _settled(before) if before is not None else ())
    if len(_RECENT) >= RECENT_SHEETS:
        _RECENT.clear()
    _RECENT[(pinfalls, lane)] = sheet
    return sheet


RECENT_SHEETS = 1024
_RECENT: dict[tuple[tuple[int, ...], Lane], Scoresheet] = {}  # sheets just made, by their balls


def _settled(sheet: Scoresheet) -> tuple[Frame, ...]:
    """The sheet's leading frames whose totals are known: no later ball can change them."""
    frames = sheet.frames
    count = 0
    while count < len(frames) and frames[count].total is not None:
        count += 1
    return frames[:count]


def _score(pinfalls: Sequence[int], lane: Lane, settled: tuple[Frame, ...] = ()) -> Scoresheet:
    """The sheet of `pinfalls`, whose first frames are `settled` (the same balls scored before).

    Every game's result is scored so once, and a learning environment's running total once a
    ball: the frame loop keeps to locals and reads a frame's bonus balls in place.
    """
    start = sum(len(f.pinfalls) for f in settled) if settled else 0
    frames = _split(pinfalls[start:], lane, len(settled), start)
    pins, last_number = lane.pins, lane.frames
    result: list[Frame] = list(settled)
    running: int | None = settled[-1].total if settled else 0
    known = running  # the last frame total known (a settled frame's is)
    number = len(settled)
    for balls in frames:
        number += 1
        if not balls:
            continue
        count = len(balls)
        last = number == last_number
        frame_score: int | None
        if last:
            frame_score = sum(balls) if frame_next(balls, True, lane) is None else None
        else:
            first = balls[0]
            end = start + count
            if first == pins:  # a strike: its frame's ball and the next two
                frame_score = first + pinfalls[end] + pinfalls[end + 1] if end + 1 < len(pinfalls) else None
            elif count == 2:  # an open frame is its own score; a spare takes the next ball
                if first + balls[1] != pins:
                    frame_score = first + balls[1]
                else:
                    frame_score = pins + pinfalls[end] if end < len(pinfalls) else None
            else:  # one ball into the frame
                frame_score = None
        if running is not None and frame_score is not None:
            running += frame_score
            known = running
        else:
            running = None
        played = tuple(balls)
        marks = _marks(played, last, pins)
        result.append(unchecked(Frame, number=number, pinfalls=played, marks=marks, score=frame_score, total=running))
        start += count
    # Complete when every frame is played and the last one is over.
    complete = number == last_number and frame_next(frames[-1], True, lane) is None
    return Scoresheet(tuple(result), known if known is not None else 0, complete)


_DIGITS = "0123456789"
_MARKS = "Xx/-"


def _read_token(token: str, ball: int, notation: bool) -> list[str | int]:
    """One whitespace-separated token as balls.

    Whole numbers (no token of the line has a mark): a token is one ball's
    pinfall, `0`..`10`; `11` or `81` is an error, never two balls read silently.
    Mark notation (some token has `X`, `/` or `-`): a token is a compact frame,
    one character per ball (`7/`, `9-`, `X72`, the seed's `61`); `10` is refused
    there as ambiguous (a strike is `X`, one then a gutter `1-`).
    """
    bad = next((c for c in token if c not in _DIGITS and c not in _MARKS), None)
    if bad is not None:
        where = ball + token.index(bad) if notation else ball
        raise ScoringError(where, _("unknown mark {mark} (use X, /, -, or the digits 0-9)").format(mark=repr(bad)))
    if not notation:
        if token == "10" or len(token) == 1:
            return [int(token)]
        shown = token if len(token) <= 6 else token[:6] + "..."
        message = _("{pins} pins in one ball; a ball knocks down 0 to 10").format(pins=shown)
        if len(token) <= 3:
            message += _(" (write {balls} for {count} balls)").format(balls=" ".join(token), count=len(token))
        raise ScoringError(ball, message)
    if all(c in _DIGITS for c in token):
        if token == "10":
            raise ScoringError(ball, _("'10' is ambiguous among marks: write X for a strike, or 1- for 1 then 0"))
        if len(token) > 2:
            raise ScoringError(
                ball, _("{token}: a frame without a mark has at most two balls").format(token=repr(token[:6]))
            )
    return [int(c) if c in _DIGITS else c for c in token]


def parse_line(text: str, lane: Lane = STANDARD) -> list[int]:
    """Parse `X 7/ 9- X ...` notation, or whole numbers `10 7 3 ...`, into pinfalls.

    Tokens are separated by whitespace. In a line of whole numbers each token
    is one ball (`10` is ten pins; `11` is an error, never 1 and 1); in a line
    with marks each token is exactly one frame, one character per ball (`7/`,
    `9-`, `61`, `X`; the last frame's up to three balls: `XXX`, `7/X`, `X9/`),
    and only the line's last token may be a frame not yet finished (`X 7`). So
    `XXXX`, `81X` (two frames in a token) and `X 7 2` (one frame in two) are
    refused, naming the token: a token that is not one frame was mistyped. `x`
    is read as `X`. Only ASCII digits count. Errors name the 1-based ball.
    """
    pinfalls: list[int] = []
    tokens = text.split()
    notation = any(c in _MARKS for token in tokens for c in token)
    for position, token in enumerate(tokens, start=1):
        frame = 0  # the frame this token writes (mark notation)
        for offset, item in enumerate(_read_token(token, len(pinfalls) + 1, notation)):
            index = len(pinfalls) + 1
            ctx = next_ball(pinfalls, lane)
            if ctx is None:
                raise ScoringError(index, _("{item} comes after the game is over").format(item=repr(item)))
            if notation and offset == 0:
                frame = ctx.frame
            elif notation and ctx.frame != frame:
                message = _("token {position} {token} goes on past frame {frame} ({done}): one token is one frame")
                raise ScoringError(
                    index,
                    message.format(position=position, token=repr(token), frame=frame, done=repr(token[:offset])),
                )
            if isinstance(item, int):
                pins = item
            elif item in "Xx":
                if not ctx.fresh_rack:
                    raise ScoringError(index, _("'X' (strike) needs a fresh rack; use '/' for a spare"))
                pins = ctx.standing
            elif item == "/":
                if ctx.fresh_rack:
                    raise ScoringError(index, _("'/' (spare) cannot be the first ball on a rack"))
                pins = ctx.standing
            else:
                pins = 0
            pinfalls.append(pins)
            _split(pinfalls, lane)
        after = next_ball(pinfalls, lane) if notation and position < len(tokens) else None
        if after is not None and after.frame == frame:
            message = _(
                "token {position} {token} leaves frame {frame} unfinished: one token is one frame "
                "(the last frame too: XXX, 7/X, X9/)"
            )
            raise ScoringError(len(pinfalls), message.format(position=position, token=repr(token), frame=frame))
    return pinfalls


def format_line(pinfalls: Sequence[int], lane: Lane = STANDARD) -> str:
    """The line notation of a pinfall sequence, frames separated by spaces.

    Frames are written compactly (`7/`, `9-`, `81`, `X`); a line without any
    mark is written as whole numbers instead (`8 1 7 2`), since `81` alone
    would read as one ball of 81 pins.
    """
    sheet = score(pinfalls, lane)
    frames = ["".join(f.marks) for f in sheet.frames]
    if any(c in _MARKS for frame in frames for c in frame):
        return " ".join(frames)
    return " ".join(str(p) for p in pinfalls)

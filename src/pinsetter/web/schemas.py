"""The web API's request and response bodies: one schema, used by the server and documented at /docs."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from pinsetter.core.seeds import SEED_MAX
from pinsetter.core.table import TableView
from pinsetter.i18n import _
from pinsetter.usertext import MAX_NAME

__all__ = [
    "AccountView",
    "ActionRequest",
    "AdvanceRequest",
    "Credentials",
    "ErrorBody",
    "GameView",
    "HintView",
    "LessonView",
    "NewGame",
    "Number",
    "ReviewView",
    "RulesBlockView",
    "RulesView",
    "SeatRequest",
    "Seed",
    "SessionView",
    "TableSeat",
]

Kind = Field(pattern=r"^(human|bot:[a-z0-9-]{1,30})$", description='"human" or "bot:NAME"')


def _digits(value: object) -> object:
    """A number in a path is written as one: digits only, no sign, no leading zero (`+1`, `00001` are refused).

    Pydantic's lax parsing of text would take both, and ` 1` or `1_0` too: one game with many addresses.
    """
    if isinstance(value, str) and not (value.isascii() and value.isdigit() and (value == "0" or value[0] != "0")):
        raise ValueError(
            _("a whole number in digits, without a sign or leading zeros, not {given}").format(given=repr(value[:30]))
        )
    return value


Number = Annotated[int, BeforeValidator(_digits)]  # an id, a seat or a step in a path


def _seed(value: object) -> object:
    """A seed in a request: a whole number, or its decimal digits as text (what JavaScript can send exactly).

    A JavaScript number rounds above 2^53 (4339359763893902901 becomes ...903000), so the pages send
    seeds as text; anything else (a fraction, true, a sign, spaces, leading zeros) is refused.
    """
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(_("a seed is a whole number or its digits as text, not {given}").format(given=repr(value)))
    if isinstance(value, str):
        if not (value.isascii() and value.isdigit() and (value == "0" or value[0] != "0") and len(value) <= 19):
            raise ValueError(
                _("a seed is a whole number from 0 to {most} in digits, not {given}").format(
                    most=SEED_MAX, given=repr(value[:30])
                )
            )
        return int(value)
    return value


# A seed in a request: an int or its digits as text; within 0..SEED_MAX either way.
Seed = Annotated[
    int,
    BeforeValidator(_seed),
    Field(ge=0, le=SEED_MAX),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer", "minimum": 0},
                {"type": "string", "pattern": r"^(0|[1-9][0-9]{0,18})$"},
            ],
            "description": "a whole number from 0 to 2^63-1, or its digits as a string (exact in JavaScript)",
        }
    ),
]
SeedOut = Annotated[
    str,
    Field(
        pattern=r"^(0|[1-9][0-9]*)$",
        description="the seed's decimal digits: a string, so JavaScript (exact only to 2^53) never rounds it",
    ),
]


class _Request(BaseModel):
    """Every request body: unknown keys are refused, and types are strict (`"seed": "7"` or `true` is no number)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class SeatRequest(_Request):
    name: str = Field(min_length=1, max_length=MAX_NAME, description="a player name (no control characters)")
    kind: str = Kind


class NewGame(_Request):
    game: str = Field(max_length=40, description="a game id from GET /api/catalog")
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=20)
    players: list[SeatRequest] = Field(min_length=1, max_length=12)
    seed: Seed | None = Field(default=None, description="omit for a random seed")
    learn: bool = Field(
        default=False, description="learn mode: the game view carries a lesson at each new situation (`lesson`)"
    )


class ActionRequest(_Request):
    """One of: an action in its text form, or a selection of pins (and a pile) that the game turns into one."""

    action: str | None = Field(default=None, max_length=200)
    pins: list[int] | None = Field(default=None, max_length=10)
    pile: int | None = Field(default=None, ge=1, le=10)


class AdvanceRequest(_Request):
    until: Literal["step", "human", "rolls"] = Field(
        default="step",
        description="'step': one chance outcome or bot move; 'human': on until a human acts (decides or rolls); "
        "'rolls': every chance step of a human's turn in a row (a whole deal of cards in one request)",
    )


class ErrorBody(BaseModel):
    error: str = Field(description="one line naming what was wrong and why")


class SheetView(BaseModel):
    name: str
    kind: str
    frames: list[dict[str, Any]]
    total: int
    current_frame: int | None


class LogEntry(BaseModel):
    step: int
    actor: str
    text: str = Field(description="the step in notation, as the record has it: 'cross 2+5', '3+4'")
    words: str = Field(default="", description="the step as players read it: 'Ann crosses out 2 and 5'")
    note: str = Field(default="", description="who really decided, when not the seat: 'ann ran out of time: ...'")


class LessonView(BaseModel):
    """One lesson of learn mode (pinsetter.lessons): a situation the learner meets for the first time."""

    topic: str = Field(description="what it is about, stable across languages: 'strike', 'tokens', 'ability:reroll'")
    title: str
    text: str
    control: str = Field(
        description="what to do now, for the page to say with its controls: roll, pick, pile, choose, mark or ''"
    )


class GameView(BaseModel):
    """A game as every client sees it (GET /api/games/{id})."""

    id: int
    game: str
    title: str
    variant: str = Field(default="", description="the game and its options in words: 'Rolling Pins, advanced'")
    options: dict[str, Any]
    players: list[dict[str, str]]
    seed: SeedOut | None = Field(
        description="decimal digits as a string (JavaScript rounds numbers over 2^53); "
        "null while a game at an online table is played: it tells the dice to come"
    )
    chance: str
    turn: int | None = Field(description="the player whose frame is being played, null when over")
    deciders: list[int] = Field(
        default_factory=list,
        description="the players who must still decide before the game moves on (several at once with shared dice)",
    )
    simultaneous: bool = Field(default=False, description="several players may decide at once in this game")
    terminal: bool
    next: Literal["decision", "roll", "bot", "over"] = Field(
        description="who acts next: a human decides, a human rolls (a chance step), a bot or chance plays, or over"
    )
    has_decisions: bool
    legal_actions: list[str]
    view: TableView = Field(
        description="the table drawn large: the player up's (with shared dice at a table, a deciding seat's own)"
    )
    boards: list[TableView] = Field(
        description="every player's own board, in seat order, read only and as everybody may see it: pins, dice, "
        "tokens and ability track where each player keeps a sheet (Rolling Pins), else the table of the player up "
        "and a status line for the others; no choices, nothing selectable and no help texts",
    )
    sheets: list[SheetView]
    log: list[LogEntry]
    undo: str | None = Field(description="null when undo is possible now, else why not")
    result: dict[str, Any] | None
    ending: list[str] = Field(description="the end screen's lines: ranking and standing against the odds")
    ending_notes: list[str] = Field(
        default_factory=list,
        description="at the end: what a score means in this game and length (the sheet's ranks, the odds)",
    )
    learn: bool = Field(default=False, description="the game was started in learn mode")
    reviewable: bool = Field(
        default=False,
        description="its decisions can be reviewed against the best ones (GET /api/games/{id}/review): "
        "basic Rolling Pins and Bowling Solitaire",
    )
    lesson: list[LessonView] = Field(
        default_factory=list,
        description="learn mode: the lessons of the situations first met since the learner's previous turn",
    )
    sealed: bool = Field(
        default=False,
        description="a daily challenge whose day lasts (docs/daily.md): its record, review and hints come when "
        "the day ends (midnight UTC), so a page offers the day's board instead",
    )


class HintView(BaseModel):
    bot: str | None
    meaning: str
    options: list[dict[str, Any]]
    words: list[str] = Field(description="each option's value in plain words, best first")
    chances_offered: bool = Field(
        default=False, description="each option's chance to finish ahead can be asked for (`?chances=true`)"
    )
    chance_meaning: str | None = Field(
        default=None, description="with `?chances=true`: what the options' `chance` means, in words"
    )


class ReviewedDecision(BaseModel):
    """One decision of a reviewed seat (pinsetter.review.Decision)."""

    step: int = Field(description="the decision's place in the record, from 1")
    frame: int
    ball: int
    situation: str = Field(description="the position in words: frame, ball, what was standing or showing")
    action: str = Field(description="the move chosen, in notation (for programs; players read `words`)")
    words: str = Field(description="the move chosen, as players read it: 'Cross out 4 and 6'")
    best_action: str = Field(description="the best move, in notation (the chosen one where it was as good)")
    best_words: str = Field(description="the best move, as players read it")
    value: float = Field(description="the chosen move's value (expected final score)")
    best_value: float
    loss: float = Field(description="best_value - value, never below 0")
    options: int = Field(description="legal moves at the decision")
    mattered: bool = Field(description="a real choice: some move was at least `near_best` below the best")
    best: bool = Field(description="the move chosen was the best, or within `near_best` of it")
    own: bool = Field(description="false for a decision a bot made for the seat: not counted in its figures")
    by: str | None = Field(description="the bot that decided, where one did")


class ReviewPoint(BaseModel):
    step: int = Field(description="steps of the record played (0: the start)")
    kind: Literal["start", "decision", "chance"]
    frame: int
    value: float = Field(description="the seat's expected final score after this step")


class ReviewedPlayer(BaseModel):
    seat: int
    name: str
    kind: str
    score: float = Field(description="the seat's total so far (its final score once its game is over)")
    finished: bool
    start: float = Field(description="expected final score before the first step")
    end: float = Field(description="expected final score after the last step (the final score when finished)")
    total_loss: float = Field(description="expected points the seat's own decisions gave away")
    luck: float = Field(description="what chance gave or took: end - start + the losses of every decision")
    accuracy: float | None = Field(description="per cent of the seat's real choices where it chose the best move")
    counted: int = Field(description="the seat's own real choices (what accuracy is a share of)")
    best_choices: int
    decisions: list[ReviewedDecision]
    costliest: list[ReviewedDecision] = Field(description="the (at most three) decisions that lost the most")
    path: list[ReviewPoint] = Field(description="expected final score over the game, for a chart")


class ReviewView(BaseModel):
    """A game's review (GET /api/games/{id}/review; docs/review.md)."""

    game: str
    title: str = Field(description="the game and its options in words")
    complete: bool
    exact: bool = Field(description="exact values (basic Rolling Pins), or the Expert bot's estimates (Solitaire)")
    meaning: str = Field(description="what a value is, in words")
    near_best: float = Field(description="a move within this many points of the best counts as the best")
    steps: int
    players: list[ReviewedPlayer]


class TableSeat(_Request):
    kind: str = Kind


class RulesBlockView(BaseModel):
    kind: Literal["heading", "paragraph", "list"]
    text: str = Field(description="a heading's or a paragraph's text; empty for a list")
    items: list[str] = Field(description="a list's items; empty otherwise")


class RulesView(BaseModel):
    game: str
    name: str = Field(description="the game's name in the request's language")
    rules: str = Field(description="the rules as plain text: a line per heading, paragraph and list item")
    blocks: list[RulesBlockView] = Field(description="the same rules as headings, paragraphs and lists, to draw")


class NewTable(_Request):
    game: str = Field(max_length=40)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=20)
    seats: list[TableSeat] = Field(
        min_length=1, max_length=12, description='[{"kind": "human"} | {"kind": "bot:NAME"}], in playing order'
    )
    seed: Seed | None = Field(default=None, description="omit for a random seed")
    turn_seconds: int | None = Field(
        default=None,
        description="optional turn timer: seconds for each decision, 1 to 3600; then a bot decides",
    )
    fallback_bot: str | None = Field(
        default=None, max_length=30, description="the bot that decides when a seat's time runs out (greedy or random)"
    )
    rated: bool = Field(
        default=False, description="the game's end rates its players (docs/accounts.md); only signed-in players sit"
    )
    turn_hours: int | None = Field(
        default=None,
        description="an asynchronous table: hours for each decision, 1 to 72, stored (instead of turn_seconds)",
    )
    listed: bool = Field(
        default=False, description="shown in the open tables (GET /api/tables?open=true) until it starts"
    )


class SitRequest(_Request):
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_NAME,
        description="a guest's name; signed in: the account's (or left out)",
    )


class Credentials(_Request):
    name: str = Field(min_length=1, max_length=MAX_NAME, description="the account's name (the player name rules)")
    password: str = Field(
        min_length=8, max_length=256, description="8 to 256 characters; stored only as an argon2 hash"
    )


class SessionView(BaseModel):
    name: str | None = Field(description="the signed-in account's name; null for a guest")
    csrf_token: str | None = Field(
        description="send it as the X-CSRF-Token header with every change (docs/accounts.md)"
    )


class AccountView(BaseModel):
    status: Literal["signed out", "deleted"]
    games_renamed: int | None = Field(default=None, description='stored games where the name became "deleted player"')


class HostRequest(_Request):
    host_token: str = Field(min_length=1, max_length=100)
    bot: str | None = Field(default=None, max_length=30, description="for a seat handed to a bot")

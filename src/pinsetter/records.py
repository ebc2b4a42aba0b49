"""Game records: a JSON document of a whole game that replays and verifies.

A record holds the game id and options, the players, the seed, every step in
order (each chance outcome and each decision, in text form, with who acted)
and the stated result. The format is one pydantic model (`RecordDocument`)
that every reader uses: loading, replay, import, resume and the web API. Its
errors name the path of the bad field. `replay` re-applies every step through
the rules, checks that each chance step is the one the seed draws (unless the
record says its chance was entered by hand) and checks the stated result; the
first bad step is named in the error.
"""

from __future__ import annotations

import codecs
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, model_validator

from pinsetter.core.draws import ChanceDraws
from pinsetter.core.files import open_to_read, write_atomically
from pinsetter.core.game import Game, GameError, OptionSpec, State
from pinsetter.core.seeds import CHANCE_STREAM, SEED_MAX, DrawScheme, step_rng
from pinsetter.games.registry import GAMES, get_game
from pinsetter.i18n import DEFAULT_LANGUAGE, N_, _, current_language, ngettext
from pinsetter.usertext import check_name, check_new_name, repeated_name, visible

__all__ = [
    "FORMAT",
    "MAX_RECORD_BYTES",
    "TABLE_MARK",
    "VERSION",
    "ChanceSource",
    "PlayerSpec",
    "Record",
    "RecordDocument",
    "RecordError",
    "RecordStep",
    "apply_step",
    "document_problem",
    "parse_document",
    "read_json",
    "replay",
    "replay_from",
    "replay_with_draws",
]

FORMAT = "pinsetter-record"
VERSION = 1
CHANCE_ACTOR = "chance"
# Limits that keep a hostile record from costing memory or time (a real game is a few kB).
MAX_RECORD_BYTES = 2_000_000
MAX_STEPS = 20_000
MAX_PLAYERS = 64
MAX_TEXT = 10_000
# "seeded": every chance step is the seed's draw (checked on replay); "entered": chance came
# from outside (a fixed deal, dice rolled at a real table), allowed but marked and kept out
# of the statistics against the odds.
ChanceSource = Literal["seeded", "entered"]


class RecordError(GameError):
    """A record that is malformed, illegal at some step, or whose results do not match."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(
            _("step {step}: {message}").format(step=step, message=message) if step is not None else message
        )
        self.step = step


# --- the format: one schema for every reader and writer ---------------------------------

Name = Annotated[str, Field(max_length=200), AfterValidator(check_name)]
ShortText = Annotated[str, Field(max_length=200)]
OptionValue = bool | int | float | Annotated[str, Field(max_length=MAX_TEXT)]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class PlayerDocument(_Strict):
    name: Name
    kind: ShortText = "human"
    # A human seat handed to a bot mid-game (online tables): the bot plays it from step `from_step` (0-based) on.
    replaced_by: ShortText | None = None
    from_step: Annotated[int, Field(ge=0, le=MAX_STEPS)] | None = None

    @model_validator(mode="after")
    def _replacement_whole(self) -> PlayerDocument:
        if (self.replaced_by is None) != (self.from_step is None):
            raise ValueError(_("replaced_by and from_step go together"))
        if self.replaced_by is not None and self.kind != "human":
            raise ValueError(_("only a human seat is handed to a bot (replaced_by)"))
        return self


class StepDocument(_Strict):
    actor: Literal["chance"] | Annotated[int, Field(ge=0, lt=MAX_PLAYERS)]
    step: ShortText
    # The bot that played this decision for its human seat because the seat's time ran out.
    by: ShortText | None = None


class StatedPlayer(_Strict):
    name: Name
    pinfalls: Annotated[list[Annotated[int, Field(ge=0, le=1000)]], Field(max_length=1000)]
    marks: Annotated[list[Annotated[list[ShortText], Field(max_length=10)]], Field(max_length=1000)]
    total: Annotated[int, Field(ge=0, le=1_000_000)]


class StatedResult(_Strict):
    complete: bool
    players: Annotated[list[StatedPlayer], Field(max_length=MAX_PLAYERS)]


class RecordDocument(_Strict):
    """The JSON record format, version 1 (docs/records.md)."""

    format: Literal["pinsetter-record"]
    version: Literal[1]
    game: ShortText
    options: Annotated[dict[ShortText, OptionValue], Field(max_length=100)]
    players: Annotated[list[PlayerDocument], Field(min_length=1, max_length=MAX_PLAYERS)]
    seed: Annotated[int, Field(ge=0, le=SEED_MAX)]
    created: ShortText = ""
    chance: ChanceSource = "seeded"
    draws: DrawScheme = "step"
    undo_used: bool = False
    steps: Annotated[list[StepDocument], Field(max_length=MAX_STEPS)]
    extra: Annotated[dict[ShortText, bool | int | Annotated[str, Field(max_length=MAX_TEXT)]], Field(max_length=20)] = (
        Field(default_factory=dict)
    )
    result: StatedResult | None = None

    @model_validator(mode="after")
    def _replacements_in_the_game(self) -> RecordDocument:
        for index, player in enumerate(self.players):
            if player.from_step is not None and player.from_step > len(self.steps):
                message = _("players[{index}].from_step {step} is past the last step ({last})")
                raise ValueError(message.format(index=index, step=player.from_step, last=len(self.steps)))
        for index, step in enumerate(self.steps):
            if step.by is not None and step.actor == CHANCE_ACTOR:
                raise ValueError(_("steps[{index}]: a chance step is played by no bot ('by')").format(index=index))
        return self

    @model_validator(mode="after")
    def _what_pinsetter_writes(self, info: ValidationInfo) -> RecordDocument:
        """A record from outside (a file, an upload, an import) holds only what pinsetter itself writes:
        a known game, its options with their own types, seats played by humans or by its bots, no
        claim to an online table. A game kept in the history is read back as it was stored
        (`Record.loads_stored`): it was checked when it came in, or the tables wrote it."""
        if (info.context or {}).get("stored"):
            return self
        problem = document_problem(self)
        if problem is not None:
            raise ValueError(problem)
        return self


# `extra` key only the online tables write, straight into the history: the table a game is played at.
TABLE_MARK = "table"


def _bot_problem(value: str, game: str, bots: list[str]) -> str | None:
    if value in bots:
        return None
    message = _("{name} names no bot of {game} (bots: {known})")
    return message.format(name=f"'{visible(value)}'", game=game, known=", ".join(bots))


def _option_problem(spec: OptionSpec, value: object) -> str | None:
    """A record's option has the JSON type pinsetter writes for it (`Game.options_text`): true or false for
    a yes/no option, a whole number for a count, text for the rest. Text such as `"2"` for a count is the
    command line's form, not a record's: refused rather than read, so a record means one thing."""
    default = spec.default
    if isinstance(default, bool):
        fits, expected = isinstance(value, bool), _("true or false")
    elif isinstance(default, int):
        fits, expected = isinstance(value, int) and not isinstance(value, bool), _("a whole number")
    elif isinstance(default, float):
        fits, expected = isinstance(value, int | float) and not isinstance(value, bool), _("a number")
    else:
        fits, expected = isinstance(value, str), _("text")
    if fits:
        return None
    shown = f"'{visible(value)}'" if isinstance(value, str) else json.dumps(value)
    return _("expected {expected}, got {value}").format(expected=expected, value=shown)


def document_problem(doc: RecordDocument) -> str | None:
    """What a record from outside may not hold (see `RecordDocument`), with its place; None if nothing."""
    from pinsetter.bots.base import bot_names

    if doc.game not in GAMES:  # the ids alone: only the record's own game is imported
        message = _("unknown game {game} (games: {known})")
        return "game: " + message.format(game=f"'{visible(doc.game)}'", known=", ".join(GAMES))
    specs = {spec.name: spec for spec in GAMES[doc.game].option_specs}
    for name, value in doc.options.items():
        problem = _option_problem(specs[name], value) if name in specs else None
        if problem is not None:
            return f"options.{name}: {problem}"
    bots = bot_names(doc.game)
    for index, player in enumerate(doc.players):
        problem = None if player.kind == "human" else _bot_problem(player.kind, doc.game, bots)
        if problem is not None:
            return f"players[{index}].kind: {problem}"
        problem = None if player.replaced_by is None else _bot_problem(player.replaced_by, doc.game, bots)
        if problem is not None:
            return f"players[{index}].replaced_by: {problem}"
    for index, step in enumerate(doc.steps):
        problem = None if step.by is None else _bot_problem(step.by, doc.game, bots)
        if problem is not None:
            return f"steps[{index}].by: {problem}"
    if TABLE_MARK in doc.extra:
        return f"extra.{TABLE_MARK}: " + _(
            "only the online tables say a game was played at one; a record from a file or an upload cannot"
        )
    return None


def _path(loc: tuple[int | str, ...]) -> str:
    """`('steps', 3, 'actor')` -> `steps[3].actor` (list positions as the JSON has them, 0-based)."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part in ("function-after[check_name(), str]",) or "[" in part or part in ("int", "str", "bool", "float"):
            continue  # pydantic's names of union branches and validators, not a place in the record
        else:
            text += f".{part}" if text else part
    return text


# pydantic's commonest problems, as pydantic words them in English; in another language, the catalog's words.
VALIDATION_MESSAGES = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "string_type": N_("Input should be a valid string"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "list_type": N_("Input should be a valid list"),
    "dict_type": N_("Input should be a valid dictionary"),
    "literal_error": N_("Input should be {expected}"),
    "string_too_long": N_("String should have at most {max_length} characters"),
    "too_long": N_("List should have at most {max_length} items after validation, not {actual_length}"),
    "string_too_short": N_("String should have at least {min_length} characters"),
    "too_short": N_("List should have at least {min_length} items after validation, not {actual_length}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
}


def validation_message(error: Mapping[str, Any]) -> str:
    """One pydantic problem in words, without its place (our validators' own texts are translated already)."""
    message = str(error.get("msg", "")).removeprefix("Value error, ") or _("invalid")
    kind = str(error.get("type", ""))
    if current_language() == DEFAULT_LANGUAGE or kind not in VALIDATION_MESSAGES:
        return message
    try:
        return _(VALIDATION_MESSAGES[kind]).format(**{k: str(v) for k, v in (error.get("ctx") or {}).items()})
    except (KeyError, IndexError):
        return message  # a context pydantic did not give: its own words


def describe_validation_error(exc: ValidationError) -> str:
    """One line: the first problem, where it is, and how many more there are."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    where = _path(tuple(first["loc"]))
    message = validation_message(first)
    more = ""
    if len(errors) > 1:
        count = len(errors) - 1
        more = ngettext(" (and {count} more problem)", " (and {count} more problems)", count).format(count=count)
    return f"{where}: {message}{more}" if where else f"{message}{more}"


def _too_big(size: int) -> RecordError:
    return RecordError(
        _("a record is at most {most} bytes, this one is {size}").format(most=MAX_RECORD_BYTES, size=size)
    )


def parse_document(text: str | bytes, *, stored: bool = False) -> RecordDocument:
    """Validate a record's JSON text against the format; RecordError naming the bad field.

    A leading byte-order mark (which some editors write) is read past, as `import` does.
    `stored`: a game read back from the history, which pinsetter wrote itself (`Record.loads_stored`);
    everything else is a record from outside, held to what pinsetter writes (`document_problem`) and
    with no key given twice (`read_json`).
    """
    if len(text) > MAX_RECORD_BYTES:
        raise _too_big(len(text))
    text = text.removeprefix(codecs.BOM_UTF8) if isinstance(text, bytes) else text.removeprefix("\ufeff")
    try:
        document = RecordDocument.model_validate_json(text, context={"stored": stored})
    except ValidationError as exc:
        if exc.errors()[0]["type"] == "json_invalid":
            raise RecordError(
                _("not JSON: {error}").format(error=exc.errors()[0]["ctx"].get("error", "invalid"))
            ) from None
        if exc.errors()[0]["type"] == "model_type":
            raise RecordError(_("a record is a JSON object")) from None
        raise RecordError(describe_validation_error(exc)) from None
    if not stored:
        read_json(text)  # valid, but a key given twice would have been read as its last value only
    return document


class _RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(_("{value} is not a JSON number").format(value=name))


def read_json(text: str | bytes) -> Any:
    """JSON as every reader of records parses it; RecordError, one line, if it is not.

    A key given twice in one object is refused: JSON parsers disagree on which one counts, so
    two readers could see two different records in one text. NaN and Infinity are not JSON.
    """
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except _RepeatedKey as exc:
        raise RecordError(_("the key {key} is given twice in one object").format(key=f"'{visible(exc.key)}'")) from None
    except UnicodeDecodeError:
        raise RecordError(_("not JSON: the text is not UTF-8")) from None
    except json.JSONDecodeError as exc:
        where = _("line {line} column {column}").format(line=exc.lineno, column=exc.colno)
        raise RecordError(_("not JSON: {error}").format(error=f"{exc.msg} ({where})")) from None
    except RecursionError:
        raise RecordError(_("not JSON: nested too deeply")) from None
    except ValueError as exc:  # a number too long to read, NaN
        raise RecordError(_("not JSON: {error}").format(error=visible(str(exc)))) from None


# --- the record in memory ------------------------------------------------------------------


def player_name(number: int) -> str:
    """The name of a person's seat nobody named: "Player 1".

    Never "you": the log tells every player's moves in the third person ("Player 1 rolls 3 and 4",
    "Player 1's deal"), as the web page's lobby names seats too. Not translated: a name is kept in
    the history and keys the statistics (docs/i18n.md).
    """
    return f"Player {number}"


@dataclass(frozen=True)
class PlayerSpec:
    """A seat: its name and `human` or the name of the bot playing it.

    A human seat handed to a bot mid-game (an online table's host does it for an
    idle player) keeps its name and kind and says which bot plays it from which
    step (`replaced_by`, `from_step`): the record's players stay fixed.
    """

    name: str
    kind: str = "human"
    replaced_by: str | None = None
    from_step: int | None = None

    def __post_init__(self) -> None:
        check_name(self.name)

    @property
    def is_human(self) -> bool:
        """Played by a person now (a seat handed to a bot is not)."""
        return self.kind == "human" and self.replaced_by is None

    @property
    def bot(self) -> str | None:
        """The bot that plays this seat now, if any."""
        return self.replaced_by if self.replaced_by is not None else None if self.kind == "human" else self.kind

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.replaced_by is not None:
            data |= {"replaced_by": self.replaced_by, "from_step": self.from_step}
        return data

    @classmethod
    def parse_list(cls, text: str) -> list[PlayerSpec]:
        """`ann,bob,bot:random` -> two humans and a random bot (bot names made unique)."""
        specs: list[PlayerSpec] = []
        for raw in text.split(","):
            item = raw.strip()
            if not item:
                raise ValueError(_("empty player name in {text}").format(text=repr(visible(text))))
            if item.startswith("bot:"):
                kind = item[4:]
                if not kind:
                    raise ValueError(_("{item} names no bot (e.g. bot:random)").format(item=repr(visible(item))))
                from pinsetter.bots.base import bot_seat_name

                specs.append(cls(bot_seat_name(kind, {s.name for s in specs}), kind))
            else:
                specs.append(cls(check_new_name(item)))
                problem = repeated_name(s.name for s in specs)
                if problem is not None:
                    raise ValueError(problem)
        return specs


@dataclass(frozen=True)
class RecordStep:
    actor: int | None  # player index, or None for chance
    text: str
    by: str | None = None  # the bot that decided for this human seat when its time ran out

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"actor": CHANCE_ACTOR if self.actor is None else self.actor, "step": self.text}
        if self.by is not None:
            data["by"] = self.by
        return data

    @cached_property
    def json_text(self) -> str:
        """`json.dumps(self.to_json())`, made once: a live game's whole record is written after every step."""
        return json.dumps(self.to_json())

    @staticmethod
    @lru_cache(maxsize=1 << 14)
    def of(actor: int | None, text: str) -> RecordStep:
        """`RecordStep(actor, text)`, one shared instance of each: steps are values, and a
        simulation records thousands a second (each step's JSON text is then made once too)."""
        return RecordStep(actor, text)


@dataclass
class Record:
    game: str
    options: dict[str, Any]
    players: list[PlayerSpec]
    seed: int
    steps: list[RecordStep] = field(default_factory=list)
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    undo_used: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    chance: ChanceSource = "seeded"
    # How the seed's chance is drawn (pinsetter.core.seeds): "step" for records written before
    # the field existed (it is left out for them), "position" for new games.
    draws: DrawScheme = "step"

    def to_json(self) -> dict[str, Any]:
        """A fresh JSON-ready dict (changing it never changes the record)."""
        head, tail = self._document_parts()
        tail = {key: json.loads(json.dumps(value)) for key, value in tail.items()}  # copies
        return {**head, "steps": [s.to_json() for s in self.steps], **tail}

    def outside_json(self) -> dict[str, Any]:
        """The record as it leaves the history (a download, an export): one that every reader takes.

        Only the online tables say a game was played at one (`TABLE_MARK`, kept in the history);
        a record from outside never does, so the copy handed out leaves it out.
        """
        data = self.to_json()
        extra = data.get("extra", {})
        extra.pop(TABLE_MARK, None)
        if not extra:
            data.pop("extra", None)
        return data

    def to_text(self) -> str:
        """Exactly `json.dumps(self.to_json())`, each step's text made once (`RecordStep.json_text`).

        A live game's record is written after every step: encoding it whole each time made
        writing a game quadratic in its length.
        """
        head, tail = self._document_parts()
        steps = self._steps_text()
        return f'{json.dumps(head)[:-1]}, "steps": [{steps}]' + (", " + json.dumps(tail)[1:] if tail else "}")

    def _steps_text(self) -> str:
        """The steps' JSON texts joined, the text made for the steps before kept and only the new ones added.

        The steps a text was made for are kept with it and compared with the record's first ones
        (a C-speed comparison, by identity first): any other change (an undo) makes it anew.
        """
        kept = self.__dict__.get("_steps_kept")
        steps = self.steps
        if kept is not None:
            before, text = kept
            count = len(before)
            if 0 < count <= len(steps) and steps[:count] == before:
                if count < len(steps):
                    text = ", ".join([text, *[s.json_text for s in steps[count:]]])
                    self.__dict__["_steps_kept"] = (list(steps), text)
                return str(text)
        text = ", ".join([s.json_text for s in steps])
        self.__dict__["_steps_kept"] = (list(steps), text)
        return text

    def _document_parts(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The document's keys before its steps, and after them, in their order (`extra`, `result` not copied)."""
        head: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": dict(self.options),
            "players": [p.to_json() for p in self.players],
            "seed": self.seed,
            "created": self.created,
            "undo_used": self.undo_used,
        }
        if self.chance != "seeded":  # the default is left out: records stay as older versions wrote them
            head["chance"] = self.chance
        if self.draws != "step":
            head["draws"] = self.draws
        tail: dict[str, Any] = {}
        if self.extra:
            tail["extra"] = self.extra
        if self.result is not None:
            tail["result"] = self.result
        return head, tail

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def save(self, path: Path) -> None:
        """Write atomically (temporary file, fsync, rename): a crash never leaves half a record.

        Temporary files left by an earlier save that was killed are removed first.
        """
        write_atomically(Path(path), self.dumps().encode("utf-8"), clean_stale=True)

    @classmethod
    def load(cls, path: Path) -> Record:
        try:
            with open_to_read(path) as handle:  # a regular file only: a FIFO or device is refused, not waited on
                text = handle.read(MAX_RECORD_BYTES + 1)
                if len(text) > MAX_RECORD_BYTES:  # read no further: its size is the file's
                    raise _too_big(max(len(text), os.fstat(handle.fileno()).st_size))
        except OSError as exc:
            # The file is named once, by the caller's "FILE: " (the command line's one line).
            raise RecordError(_("cannot read the record: {error}").format(error=exc.strerror)) from None
        return cls.loads(text)

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """A record from outside (a file, an upload, an import line): held to what pinsetter writes."""
        return cls.from_document(parse_document(text))

    @classmethod
    def loads_stored(cls, text: str | bytes) -> Record:
        """A game read back from the history: pinsetter wrote it (it may say which table it was played at)."""
        return cls.from_document(parse_document(text, stored=True))

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """From already-parsed JSON (validated through the same schema)."""
        try:
            text = json.dumps(data)
        except (TypeError, ValueError, RecursionError) as exc:
            raise RecordError(_("not a JSON record: {error}").format(error=exc)) from None
        return cls.loads(text)

    @classmethod
    def from_document(cls, doc: RecordDocument) -> Record:
        players = [PlayerSpec(p.name, p.kind, p.replaced_by, p.from_step) for p in doc.players]
        steps = []
        for index, s in enumerate(doc.steps, start=1):
            if s.actor == CHANCE_ACTOR:
                steps.append(RecordStep(None, s.step))
            elif isinstance(s.actor, int) and s.actor < len(players):
                steps.append(RecordStep(s.actor, s.step, s.by))
            else:
                raise RecordError(
                    _("actor {actor} is neither 'chance' nor a player index").format(actor=repr(s.actor)), index
                )
        return cls(
            game=doc.game,
            options=dict(doc.options),
            players=players,
            seed=doc.seed,
            steps=steps,
            created=doc.created,
            undo_used=doc.undo_used,
            extra=dict(doc.extra),
            result=doc.result.model_dump() if doc.result is not None else None,
            chance=doc.chance,
            draws=doc.draws,
        )


def result_of(state: State, players: list[PlayerSpec]) -> dict[str, Any]:
    """The stated result of a game: each player's pinfalls, marks and total."""
    entries = []
    for index, spec in enumerate(players):
        sheet = state.scoresheet(index)
        entries.append(
            {
                "name": spec.name,
                "pinfalls": list(state.pinfalls[index]),
                "marks": sheet.marks_data,  # shared with the sheet's other results: read only
                "total": sheet.total,
            }
        )
    return {"complete": state.is_terminal(), "players": entries}


# Options added after records were first written, with the value that reproduces the older rules
# for a record that predates them (a current record always names every option).
OPTIONS_BEFORE = {"rolling-pins": {"auto_strike": "held"}}


def game_played(game_id: str, options: Mapping[str, object]) -> Game:
    """The game a record's options describe: the older rules where the record predates an option."""
    return get_game(game_id, {**OPTIONS_BEFORE.get(game_id, {}), **options})


def settled_options(game_id: str, options: Mapping[str, object]) -> dict[str, object]:
    """Every option of a game as played with `options` (defaults filled in): `{}` and
    `{"frames": 10}` are the same game."""
    return game_played(game_id, options).options_text()


def new_state_for(record: Record) -> State:
    try:
        return game_played(record.game, record.options).new_state(len(record.players))
    except GameError as exc:
        raise RecordError(str(exc)) from None


def apply_step(state: State, step: RecordStep) -> None:
    """Apply a recorded step as its actor made it: chance, or a decision of one of the deciders."""
    state.apply_by(step.actor, step.text)


def replay(record: Record, check_result: bool = True) -> State:
    """Re-apply every step of a record, checking legality, the seed's chance draws and the stated result.

    A decision may come from any of the players deciding at that point (simultaneous
    decisions come in the order they were made); chance steps come when chance acts.
    """
    return replay_with_draws(record, check_result)[0]


def replay_with_draws(record: Record, check_result: bool = True) -> tuple[State, ChanceDraws]:
    """`replay`, with the game's seeded chance where the record stops (to play on from there)."""
    state = new_state_for(record)
    draws = ChanceDraws(state.game, record.seed, record.draws)
    replay_from(record, state, 0, draws)
    if check_result and record.result is not None:
        check_result_of(state, record)
    return state, draws


def replay_from(record: Record, state: State, done: int, draws: ChanceDraws | None = None) -> State:
    """Apply the record's steps after the first `done` to `state` (which has those), checked as `replay` does.

    For a copy of a game that another process has moved on: only the new steps are
    applied. `state` is changed in place (and returned); on a RecordError it is left part way.
    `draws` is the game's seeded chance after those steps (the match's `draws`); without it
    the draws are counted from the start, which is right for `done` 0 and for step-scheme records.
    """
    seeded = record.chance == "seeded"
    if draws is None:
        draws = ChanceDraws(state.game, record.seed, record.draws)
    for index, step in enumerate(record.steps[done:], start=done + 1):
        if state.is_terminal():
            raise RecordError(_("{step} comes after the game is over").format(step=repr(step.text)), index)
        chance = state.is_chance_node()
        actor = step.actor
        # The player to move always decides; anyone else only where several decide at once.
        if (actor is None) != chance or (actor is not None and actor != state.turn() and actor not in state.deciders()):
            who = (
                _("chance") if chance else _(" or ").join(_("player {index}").format(index=p) for p in state.deciders())
            )
            message = _("{step} is attributed to the wrong actor (expected {who})")
            raise RecordError(message.format(step=repr(step.text), who=who), index)
        if step.by is not None and (actor is None or record.players[actor].kind != "human"):
            message = _("{step}: only a human seat's decision is played by a bot ('by')")
            raise RecordError(message.format(step=repr(step.text)), index)
        try:
            if chance and seeded:
                drawn = draws.draw(state, index - 1)
                if str(drawn) == step.text:
                    draws.apply(state, drawn)
                    continue
                # Step-scheme records from before a player's own rolls had a stream of their own
                # drew them by step number.
                key = state.chance_key(index - 1)
                legacy = (
                    record.draws == "step"
                    and key != (index - 1, CHANCE_STREAM)
                    and step.text == str(state.sample_chance(step_rng(record.seed, index - 1, CHANCE_STREAM)))
                )
                if not legacy:
                    message = _(
                        "chance step {step} is not what seed {seed} draws here ({drawn}); "
                        'a record of chance entered by hand says "chance": "entered"'
                    )
                    raise RecordError(message.format(step=repr(step.text), seed=record.seed, drawn=drawn), index)
            if chance:
                draws.apply(state, state.game.parse_outcome(step.text))
            else:
                apply_step(state, step)
        except GameError as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(str(exc), index) from None
    return state


def check_result_of(state: State, record: Record) -> None:
    """The stated result must be the replay's: one entry per player, names, pinfalls, marks, totals."""
    actual = result_of(state, record.players)
    stated = record.result or {}
    if bool(stated.get("complete")) != actual["complete"]:
        message = (
            _("stated complete={stated} but the replay is complete")
            if actual["complete"]
            else _("stated complete={stated} but the replay is unfinished")
        )
        raise RecordError(message.format(stated=stated.get("complete")))
    entries = stated.get("players") or []
    if len(entries) != len(actual["players"]):
        message = _("the result lists {count} players but the game has {players}")
        raise RecordError(message.format(count=len(entries), players=len(actual["players"])))
    for i, (want, got) in enumerate(zip(entries, actual["players"], strict=True), start=1):
        if want.get("name") != got["name"]:
            message = _("result player {index} is named {stated}, but seat {index} is {name}")
            raise RecordError(message.format(index=i, stated=repr(want.get("name")), name=repr(got["name"])))
        for key in ("pinfalls", "marks", "total"):
            if want.get(key) != got[key]:
                message = _("player {index} ({name}): stated {key} {stated} but the replay gives {actual}")
                raise RecordError(
                    message.format(index=i, name=got["name"], key=key, stated=want.get(key), actual=got[key])
                )

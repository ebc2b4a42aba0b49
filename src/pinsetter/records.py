"""Game records: a JSON document of a whole game that replays and verifies.

A record holds the game id and options, the players, the seed, every step in
order (each chance outcome and each decision, in text form, with who acted)
and the stated result. `replay` re-applies every step through the rules and
checks the stated result; the first bad step is named in the error.
"""

from __future__ import annotations

import copy
import json
import os
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pinsetter.core.game import GameError, State
from pinsetter.games.registry import get_game

__all__ = ["FORMAT", "VERSION", "PlayerSpec", "Record", "RecordError", "RecordStep", "replay"]

FORMAT = "pinsetter-record"
VERSION = 1
CHANCE_ACTOR = "chance"


class RecordError(GameError):
    """A record that is malformed, illegal at some step, or whose results do not match."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(f"step {step}: {message}" if step is not None else message)
        self.step = step


@dataclass(frozen=True)
class PlayerSpec:
    """A seat: its name and `human` or the name of the bot playing it."""

    name: str
    kind: str = "human"

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    @classmethod
    def parse_list(cls, text: str) -> list[PlayerSpec]:
        """`ann,bob,bot:random` -> two humans and a random bot (bot names made unique)."""
        specs: list[PlayerSpec] = []
        for raw in text.split(","):
            item = raw.strip()
            if not item:
                raise ValueError(f"empty player name in {text!r}")
            if item.startswith("bot:"):
                kind = item[4:]
                if not kind:
                    raise ValueError(f"{item!r} names no bot (e.g. bot:random)")
                name = kind
                taken = {s.name for s in specs}
                n = 2
                while name in taken:
                    name = f"{kind}-{n}"
                    n += 1
                specs.append(cls(name, kind))
            else:
                if item in {s.name for s in specs}:
                    raise ValueError(f"player name {item!r} given twice")
                specs.append(cls(item))
        return specs


@dataclass(frozen=True)
class RecordStep:
    actor: int | None  # player index, or None for chance
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"actor": CHANCE_ACTOR if self.actor is None else self.actor, "step": self.text}


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

    def to_json(self) -> dict[str, Any]:
        """A fresh JSON-ready dict (changing it never changes the record)."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": copy.deepcopy(self.options),
            "players": [{"name": p.name, "kind": p.kind} for p in self.players],
            "seed": self.seed,
            "created": self.created,
            "undo_used": self.undo_used,
            "steps": [s.to_json() for s in self.steps],
        }
        if self.extra:
            data["extra"] = copy.deepcopy(self.extra)
        if self.result is not None:
            data["result"] = copy.deepcopy(self.result)
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def save(self, path: Path) -> None:
        """Write atomically (temporary file, fsync, rename): a crash never leaves half a record."""
        path = Path(path)
        directory = path.parent if str(path.parent) else Path(".")
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(self.dumps())
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: Path) -> Record:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read record {path}: {exc.strerror}") from None
        return cls.loads(text)

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Any) -> Record:
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"'format' must be {FORMAT!r}")
        if data.get("version") != VERSION:
            raise RecordError(f"unsupported record version {data.get('version')!r} (this is {VERSION})")
        for name, kind in (("game", str), ("options", dict), ("players", list), ("steps", list)):
            if not isinstance(data.get(name), kind):
                raise RecordError(f"field {name!r} is missing or not a {kind.__name__}")
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RecordError("field 'seed' must be an integer")
        players = []
        for i, p in enumerate(data["players"], start=1):
            if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                raise RecordError(f"player {i}: needs a 'name'")
            players.append(PlayerSpec(p["name"], str(p.get("kind", "human"))))
        steps = []
        for i, s in enumerate(data["steps"], start=1):
            if not isinstance(s, dict) or not isinstance(s.get("step"), str):
                raise RecordError("malformed step (needs 'actor' and 'step')", i)
            actor = s.get("actor")
            if actor == CHANCE_ACTOR:
                steps.append(RecordStep(None, s["step"]))
            elif isinstance(actor, int) and not isinstance(actor, bool) and 0 <= actor < len(players):
                steps.append(RecordStep(actor, s["step"]))
            else:
                raise RecordError(f"actor {actor!r} is neither 'chance' nor a player index", i)
        result = data.get("result")
        return cls(
            game=data["game"],
            options=data["options"],
            players=players,
            seed=seed,
            steps=steps,
            created=str(data.get("created", "")),
            undo_used=bool(data.get("undo_used", False)),
            extra=dict(data.get("extra") or {}),
            result=result if isinstance(result, dict) else None,
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
                "marks": [list(f.marks) for f in sheet.frames],
                "total": sheet.total,
            }
        )
    return {"complete": state.is_terminal(), "players": entries}


def new_state_for(record: Record) -> State:
    try:
        game = get_game(record.game, record.options)
        return game.new_state(len(record.players))
    except GameError as exc:
        raise RecordError(str(exc)) from None


def replay(record: Record, check_result: bool = True) -> State:
    """Re-apply every step of a record, checking legality and the stated result."""
    state = new_state_for(record)
    for index, step in enumerate(record.steps, start=1):
        expected = None if state.is_chance_node() else state.current_player()
        if state.is_terminal():
            raise RecordError(f"{step.text!r} comes after the game is over", index)
        if step.actor != expected:
            who = "chance" if expected is None else f"player {expected}"
            raise RecordError(f"{step.text!r} is attributed to the wrong actor (expected {who})", index)
        try:
            state.apply_text(step.text)
        except GameError as exc:
            raise RecordError(str(exc), index) from None
    if check_result and record.result is not None:
        actual = result_of(state, record.players)
        stated = record.result
        if bool(stated.get("complete")) != actual["complete"]:
            raise RecordError(
                f"stated complete={stated.get('complete')} but the replay is "
                f"{'complete' if actual['complete'] else 'unfinished'}"
            )
        for i, (want, got) in enumerate(zip(stated.get("players") or [], actual["players"], strict=False), start=1):
            for key in ("pinfalls", "marks", "total"):
                if key in want and want[key] != got[key]:
                    raise RecordError(
                        f"player {i} ({got['name']}): stated {key} {want[key]} but the replay gives {got[key]}"
                    )
    return state

"""A match: one game being played by humans and bots, recorded step by step.

The match owns the seeded randomness and the record; the rules stay in the
state. Chance outcome number i is drawn from a generator seeded by (seed, i),
so a game resumed from its record continues exactly as it would have.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pinsetter.bots.base import Bot, make_bot
from pinsetter.core.game import Game, State, Step
from pinsetter.core.seeds import BOT_STREAM, CHANCE_STREAM, SEED_MAX, check_seed, step_rng
from pinsetter.games.registry import get_game
from pinsetter.records import PlayerSpec, Record, RecordStep, replay, result_of

if TYPE_CHECKING:
    from pinsetter.storage import Storage

__all__ = ["Match", "step_rng"]

# A scripted source of chance outcomes (e.g. a fixed deal); None means "draw at random".
ChanceScript = Callable[[State], Step | None]


class Match:
    def __init__(
        self,
        game: Game,
        players: list[PlayerSpec],
        seed: int,
        record_path: Path | None = None,
        chance_script: ChanceScript | None = None,
        storage: Storage | None = None,
    ) -> None:
        self.game = game
        self.players = players
        self.seed = check_seed(seed)
        self.state = game.new_state(len(players))
        self.record = Record(game.id, game.options_text(), players, seed)
        self.record_path = record_path
        self._chance_script: ChanceScript | None = None
        self.chance_script = chance_script
        self.storage = storage
        self.game_id: int | None = None
        self.bots: dict[int, Bot] = {i: make_bot(p.kind, game) for i, p in enumerate(players) if not p.is_human}

    @property
    def chance_script(self) -> ChanceScript | None:
        return self._chance_script

    @chance_script.setter
    def chance_script(self, script: ChanceScript | None) -> None:
        """Chance from a script (a fixed deal) is not the seed's: the record says so."""
        self._chance_script = script
        if script is not None:
            self.record.chance = "entered"

    @classmethod
    def new(
        cls,
        game_id: str,
        players: list[PlayerSpec],
        seed: int | None = None,
        options: dict[str, object] | None = None,
        record_path: Path | None = None,
    ) -> Match:
        if seed is None:
            seed = random.SystemRandom().randrange(SEED_MAX + 1)
        return cls(get_game(game_id, options), players, seed, record_path)

    @classmethod
    def resume(cls, record: Record, record_path: Path | None = None) -> Match:
        """Continue a recorded game: every step is replayed and checked first."""
        state = replay(record, check_result=False)
        match = cls(state.game, record.players, record.seed, record_path)
        match.state = state
        match.record = record
        return match

    @property
    def steps_done(self) -> int:
        return len(self.record.steps)

    def apply(self, step: Step) -> None:
        """Apply a step (legality checked by the state) and save the record."""
        actor = None if self.state.is_chance_node() else self.state.current_player()
        self.state.apply(step)
        self.record.steps.append(RecordStep(actor, str(step)))
        if self.record_path is not None or self.storage is not None or self.state.is_terminal():
            self.record.result = result_of(self.state, self.players)
        if self.record_path is not None:
            self.record.save(self.record_path)
        if self.storage is not None:
            self.game_id = self.storage.save(self.record)

    def store(self) -> None:
        """Keep the game in the database now (when it starts or resumes): inserted once, then updated."""
        if self.storage is not None:
            self.record.result = result_of(self.state, self.players)
            self.game_id = self.storage.save(self.record)

    def draw_chance(self) -> Step:
        """The chance outcome at this node: scripted, or drawn from the seeded stream."""
        if self.chance_script is not None:
            scripted = self.chance_script(self.state)
            if scripted is not None:
                return scripted
        return self.state.sample_chance(step_rng(self.seed, self.steps_done, CHANCE_STREAM))

    def bot_action(self) -> Step:
        player = self.state.current_player()
        return self.bots[player].choose(self.state, step_rng(self.seed, self.steps_done, BOT_STREAM))

    def is_bot_turn(self) -> bool:
        return self.state.current_player() in self.bots

    def advance(self) -> bool:
        """Play one step that needs no human (chance or a bot); False if a human must act."""
        if self.state.is_terminal():
            return False
        if self.state.is_chance_node():
            self.apply(self.draw_chance())
            return True
        if self.is_bot_turn():
            self.apply(self.bot_action())
            return True
        return False

    def run_bots(self) -> None:
        """Play on until a human must decide or the game ends."""
        while self.advance():
            pass

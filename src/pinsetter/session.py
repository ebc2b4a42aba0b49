"""A match: one game being played by humans and bots, recorded step by step.

The match owns the seeded randomness and the record; the rules stay in the
state. Chance outcome number i is drawn from a generator seeded by (seed, i),
so a game resumed from its record continues exactly as it would have.

Undo is a rule of the match, shared by every interface (docs/tui.md, "Undo"):
it takes back the most recent human decision, with the bot decisions played
after it, and is refused once a chance outcome (a die, a card) has been
revealed after that decision: the outcome would come again (step i is drawn
from (seed, i)), but the player would already know it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pinsetter.bots.base import Bot, make_bot
from pinsetter.core.game import CHANCE, Game, GameError, State, Step
from pinsetter.core.seeds import BOT_STREAM, CHANCE_STREAM, SEED_MAX, check_seed, lazy_step_rng, step_rng
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
        undo_allowed: bool | None = None,
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
        # Undo is on by default when one human plays (alone or against bots), off among several.
        self.undo_allowed = sum(p.is_human for p in players) == 1 if undo_allowed is None else undo_allowed

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
        match.chance_script = state.game.scripted_chance(record.extra)  # a fixed deal goes on as dealt
        return match

    @property
    def steps_done(self) -> int:
        return len(self.record.steps)

    def apply(self, step: Step) -> None:
        """Apply a step (legality checked by the state) and save the record."""
        actor = None if self.state.is_chance_node() else self.state.current_player()
        self._apply(step, actor)

    def _apply(self, step: Step, actor: int | None) -> None:
        self.state.apply(step)
        self.record.steps.append(RecordStep(actor, str(step)))
        self._save()

    def _save(self) -> None:
        """The result so far into the record, then the record to its file and the history."""
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
        return self._bot_action(self.state.current_player())

    def _bot_action(self, player: int) -> Step:
        # Seeded on first draw: most bots never draw (the draws are step_rng's all the same).
        return self.bots[player].choose(self.state, lazy_step_rng(self.seed, self.steps_done, BOT_STREAM))

    def is_bot_turn(self) -> bool:
        return self.state.current_player() in self.bots

    def advance(self) -> bool:
        """Play one step that needs no human (chance or a bot); False if a human must act."""
        player = self.state.current_player()  # once per step: the hot path of every simulation
        if player == CHANCE:
            self._apply(self.draw_chance(), None)
            return True
        if player in self.bots:
            self._apply(self._bot_action(player), player)
            return True
        return False  # the game is over (TERMINAL), or a human decides

    def run_bots(self) -> None:
        """Play on until a human must decide or the game ends."""
        while self.advance():
            pass

    # --- undo ------------------------------------------------------------------------------
    def _last_human_decision(self) -> int | None:
        """The index in the record of the most recent decision made by a human seat."""
        for index in range(len(self.record.steps) - 1, -1, -1):
            actor = self.record.steps[index].actor
            if actor is not None and self.players[actor].is_human:
                return index
        return None

    def can_undo(self) -> str | None:
        """Why the last human decision cannot be taken back now, or None if it can.

        Refused when undo is off for this match, when the game is over, when no human has
        decided yet, and when a chance outcome was revealed after that decision.
        """
        if not self.undo_allowed:
            return "undo is off in this game"
        if self.state.is_terminal():
            return "the game is over"
        target = self._last_human_decision()
        if target is None:
            return "there is no decision to take back"
        revealed = next((s for s in self.record.steps[target + 1 :] if s.actor is None), None)
        if revealed is not None:
            return f"chance revealed {revealed.text} after the last decision; undo cannot go back past it"
        return None

    def undo(self) -> int:
        """Take back the last human decision and the bot decisions after it; the record notes it.

        Returns how many steps were taken back; GameError with `can_undo`'s reason if refused.
        """
        reason = self.can_undo()
        if reason is not None:
            raise GameError(reason)
        target = self._last_human_decision()
        assert target is not None
        taken = len(self.record.steps) - target
        del self.record.steps[target:]
        self.record.undo_used = True
        state = self.game.new_state(len(self.players))
        for step in self.record.steps:
            state.apply_text(step.text)
        self.state = state
        self.record.result = result_of(state, self.players)
        self._save()
        return taken

    # --- the end ---------------------------------------------------------------------------
    def ending_lines(self) -> list[str]:
        """The end screen for every interface: ranking, the solo rank, each score against the odds."""
        from pinsetter.solvers.reference import standing_text

        scores = self.state.scores()
        names = [p.name for p in self.players]
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        lines = []
        if len(scores) > 1:
            top = scores[order[0]]
            leaders = [names[i] for i in order if scores[i] == top]
            lines.append(("Winner: " if len(leaders) == 1 else "Tie: ") + ", ".join(leaders) + f" with {top}")
        place = 0
        for rank, index in enumerate(order, start=1):
            if rank == 1 or scores[index] != scores[order[rank - 2]]:
                place = rank
            lines.append(f"{place}. {names[index]}: {scores[index]}")
        final = getattr(self.game, "final_words", None)
        if final is not None and len(scores) == 1:
            lines.append(f"Ranking: {final(scores[0])}")
        for name, score in zip(names, scores, strict=True):
            where = standing_text(self.game.id, self.record.options, score)
            if where:
                lines.append(f"{name}: {where}" if len(scores) > 1 else where)
        return lines

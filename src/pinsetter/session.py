"""A match: one game being played by humans and bots, recorded step by step.

The match owns the seeded randomness and the record; the rules stay in the
state. Chance is drawn from the seed by where it falls in the game (player,
frame, roll; `pinsetter.core.draws`), or by step number for older records, so a
game resumed from its record continues exactly as it would have.

Undo is a rule of the match, shared by every interface (docs/tui.md, "Undo"):
it takes back the most recent human decision, with the bot decisions played
after it, and is refused once a chance outcome (a die, a card) has been
revealed after that decision: the outcome would come again (step i is drawn
from the seed), but the player would already know it.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Hashable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinsetter.bots.base import Bot, make_bot
from pinsetter.core.draws import ChanceDraws
from pinsetter.core.game import CHANCE, Game, GameError, State, Step
from pinsetter.core.narration import Narration
from pinsetter.core.seeds import BOT_STREAM, SEED_MAX, DrawScheme, check_seed, lazy_step_rng, step_rng
from pinsetter.games.registry import get_game
from pinsetter.i18n import _, current_language
from pinsetter.records import PlayerSpec, Record, RecordStep, apply_step, replay_with_draws, result_of

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
        draws: DrawScheme = "position",
    ) -> None:
        self.game = game
        self.players = players
        self.seed = check_seed(seed)
        self.state = game.new_state(len(players))
        # New games draw chance by position (the same dice for the same frame and roll whatever
        # was decided before); a resumed record keeps its own scheme (pinsetter.core.seeds).
        self.draws = ChanceDraws(game, seed, draws)
        self.record = Record(game.id, game.options_text(), players, seed, draws=draws)
        self.record_path = record_path
        self._chance_script: ChanceScript | None = None
        self.chance_script = chance_script
        self.storage = storage
        self.game_id: int | None = None
        self.bots: dict[int, Bot] = {i: make_bot(p.bot, game) for i, p in enumerate(players) if p.bot is not None}
        # Undo is on by default when one human plays (alone or against bots), off among several.
        self.undo_allowed = sum(p.is_human for p in players) == 1 if undo_allowed is None else undo_allowed
        # One narration per language, made when an interface first asks for the log in it: a
        # narration keeps the words it has told, so one shared by two languages would mix them.
        self._narrations: dict[str, Narration] = {}
        self._spare_rng: random.Random | None = None  # `advance`'s last generator for a bot
        # The JSON-ready data of each seat's board as last viewed, with the (frozen) board it was made
        # from, or what it shows: the web reuses it while the board is the same (`web.service`).
        self.board_data: dict[Hashable, tuple[object, dict[str, Any]]] = {}
        # The log's last entries as JSON-ready data (web.service), by the narration (one per language)
        # whose words they hold: (words, names, index of the first entry, entries).
        self.log_data: dict[int, tuple[list[str], list[str], int, list[dict[str, Any]]]] = {}
        # The view's parts that a step seldom changes (its heading, each player's sheet), with what each
        # was made from: the web reuses them while that is the same (`web.service.game_view_data`).
        self.view_parts: dict[Hashable, tuple[Any, Any]] = {}

    def log_words(self) -> list[str]:
        """Every step so far as the log tells it (pinsetter.core.narration), the same in every interface."""
        narration = self._narrations.get(current_language())
        if narration is None:
            narration = self._narrations[current_language()] = Narration(self.game, len(self.players))
        # The match's state is the one after its record's steps: the newest step is told from it.
        return narration.update_steps(self.record.steps, [p.name for p in self.players], self.state)

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
        """Continue a recorded game: every step is replayed and checked first, and the result it states, if any."""
        state, draws = replay_with_draws(record, check_result=True)
        match = cls(state.game, record.players, record.seed, record_path, draws=record.draws)
        match.state = state
        match.draws = draws
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
        if actor is None:
            self.draws.apply(self.state, step)
        else:
            self.state.apply(step)
        self._record(step, actor)

    def _record(self, step: Step, actor: int | None) -> None:
        """A step just applied into the record, then the record saved."""
        self.record.steps.append(RecordStep.of(actor, str(step)))
        self._save()

    def apply_for(self, player: int, step: Step, by: str | None = None) -> None:
        """Apply a decision of `player`, one of the state's deciders, in whatever order they come.

        `by` names the bot that decided for a human seat whose time ran out (kept in the record).
        """
        self.state.apply_for(player, step)
        self.record.steps.append(RecordStep(player, str(step), by))
        self._save()

    def replace_with_bot(self, player: int, bot: str) -> None:
        """From now on `bot` plays this human seat (an idle player at an online table); the record says so."""
        spec = self.players[player]
        if not spec.is_human:
            raise GameError(f"seat {player + 1} ({spec.name}) is not played by a human")
        made = make_bot(bot, self.game)
        self.players[player] = replace(spec, replaced_by=bot, from_step=self.steps_done)
        if self.record.players is not self.players:
            self.record.players[player] = self.players[player]
        self.bots[player] = made
        self.undo_allowed = self.undo_allowed and any(p.is_human for p in self.players)
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
        return self.draws.draw(self.state, self.steps_done)

    def bot_action(self) -> Step:
        return self.bot_action_for(self.state.current_player())

    def bot_action_for(self, player: int, bot: Bot | None = None) -> Step:
        """What `bot` (by default the seat's own) decides for `player`, one of the deciders."""
        return self.bot_thinking(player, bot, copy=False)()

    def bot_thinking(self, player: int, bot: Bot | None = None, copy: bool = True) -> Callable[[], Step]:
        """`bot_action_for`, to work out later: the position and the bot's random stream are taken now.

        With `copy`, on a copy of the position, so that the match may go on while the bot thinks
        (an online table's seats act meanwhile, and a slow bot does not hold up their moves).
        """
        state = self.state
        if player != state.current_player():
            state = state.as_decider(player)  # a copy already
        elif copy:
            state = state.clone()
        return functools.partial((bot or self.bots[player]).choose, state, self._bot_rng())

    def _bot_rng(self) -> random.Random:
        """This step's generator for any draw a bot makes, seeded on first draw (most bots never draw)."""
        return lazy_step_rng(self.seed, self.steps_done, BOT_STREAM)

    def is_bot_turn(self) -> bool:
        return self.state.current_player() in self.bots

    def advance(self) -> bool:
        """Play one step that needs no human (chance or a bot); False if a human must act."""
        return self._advance(chance_runs=False)

    def _advance(self, chance_runs: bool) -> bool:
        """`advance`; with `chance_runs`, a chance node's whole run of seeded draws up to the next decision.

        Drawing a run at once lets a game turn up several outcomes in one call (a Solitaire deal's
        cards: `ChanceDraws.play_run`); the record gets every step and is saved once after them.
        """
        player = self.state.current_player()  # once per step: the hot path of every simulation
        if player == CHANCE:
            if self._chance_script is not None:
                self._apply(self.draw_chance(), None)
            elif chance_runs and self.draws.runs:
                self.record.steps.extend([RecordStep.of(None, str(step)) for step in self.draws.play_run(self.state)])
                self._save()
            else:  # the seed's chance, drawn and applied in one go
                self._record(self.draws.play(self.state, len(self.record.steps)), None)
            return True
        bot = self.bots.get(player)
        if bot is not None:  # `bot_action_for`, the player to move already known
            # The bot is done with the last step's generator when it answers: one not drawn from serves again.
            rng = self._spare_rng = lazy_step_rng(self.seed, len(self.record.steps), BOT_STREAM, self._spare_rng)
            self._apply(bot.choose(self.state, rng), player)
            return True
        return False  # the game is over (TERMINAL), or a human decides

    def run_bots(self) -> None:
        """Play on until a human must decide or the game ends (chance drawn a run at a time)."""
        while self._advance(chance_runs=True):
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
            return _("undo is off in this game")
        if self.state.is_terminal():
            return _("the game is over")
        target = self._last_human_decision()
        if target is None:
            return _("there is no decision to take back")
        if any(s.actor is None for s in self.record.steps[target + 1 :]):
            # In words: the revealed step's notation (`2+3`) is for records, not for players.
            return _(self.game.undo_stops)
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
            apply_step(state, step)
        self.state = state
        # `_save` states the result where the record is kept; elsewhere a game under way states none
        # (a result from before the undo would make the record refuse to resume).
        self.record.result = None
        self._save()
        return taken

    # --- the end ---------------------------------------------------------------------------
    def ending_lines(self) -> list[str]:
        """The end screen for every interface: ranking, the solo rank, each score against the odds.

        With several players each ranked line carries the player's score, its solo rank (where the
        game prints one on its sheet) and its share of games beaten (where the odds are exact); what
        the scores are measured against is said once, after the ranking.
        """
        from pinsetter.solvers.reference import percent, reference, standing_text

        scores = self.state.scores()
        names = [p.name for p in self.players]
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        lines = []
        ranking = getattr(self.game, "rank", None)  # None for a score where the game sets no rank (a 2-frame game)
        if len(scores) == 1:
            rank_name = ranking(scores[0]) if ranking is not None else None
            pattern = _("{place}. {name}: {score} ({ranking})") if rank_name is not None else "{place}. {name}: {score}"
            lines.append(pattern.format(place=1, name=names[0], score=scores[0], ranking=rank_name))
            where = standing_text(self.game.id, self.record.options, scores[0])
            return lines + ([where] if where else [])
        top = scores[order[0]]
        leaders = [names[i] for i in order if scores[i] == top]
        won = _("Winner: {names} with {score}") if len(leaders) == 1 else _("Tie: {names} with {score}")
        lines.append(won.format(names=", ".join(leaders), score=top))
        ref = reference(self.game.id, self.record.options)
        place = 0
        for rank, index in enumerate(order, start=1):
            if rank == 1 or scores[index] != scores[order[rank - 2]]:
                place = rank
            rank_name = ranking(scores[index]) if ranking is not None else None
            share = ref.beats(scores[index]) if ref is not None else None
            # One whole pattern for each case, so that a translation orders the parts as it needs.
            if rank_name is not None and share is not None:
                pattern = _("{place}. {name}: {score} ({ranking}), better than {share} of games")
            elif rank_name is not None:
                pattern = _("{place}. {name}: {score} ({ranking})")
            elif share is not None:
                pattern = _("{place}. {name}: {score}, better than {share} of games")
            else:
                pattern = "{place}. {name}: {score}"
            share_text = percent(share) if share is not None else ""
            lines.append(
                pattern.format(place=place, name=names[index], score=scores[index], ranking=rank_name, share=share_text)
            )
        if ref is not None and ref.distribution is not None:
            lines.append(_("(shares of games from the exact odds)"))
        elif ref is not None:
            compared = (
                _("For comparison: the {against} averages {mean}.")
                if ref.exact
                else _("For comparison: the {against} averages about {mean}.")
            )
            lines.append(compared.format(against=_(ref.against), mean=f"{ref.mean:.1f}"))
        return lines

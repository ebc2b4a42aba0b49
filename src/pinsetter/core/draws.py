"""Where a game's seeded chance comes from: the draw schemes of `pinsetter.core.seeds`, in one place.

`ChanceDraws` is used by the match that plays a game and by the replay that
checks one, so both draw exactly the same outcome at every chance node. Under
the `position` scheme it counts the draws made at each `State.chance_position()`:
the n-th draw at a key is drawn with key `(*key, n)`, so the first roll of a
frame, the second, a reroll, a 10th-frame bonus ball each have their own place.
"""

from __future__ import annotations

from pinsetter.core.game import Game, State, Step
from pinsetter.core.seeds import DrawScheme, spare_rng, step_rng

__all__ = ["ChanceDraws"]


class ChanceDraws:
    """The seeded chance of one game: `draw` at a chance node; every chance step goes through `apply`."""

    def __init__(self, game: Game, seed: int, scheme: DrawScheme) -> None:
        self.game = game
        self.seed = seed
        self.scheme: DrawScheme = scheme
        self._made: dict[tuple[int, ...], int] = {}
        # Every draw's generator, seeded again for each (`seeds.position_rng`'s `into`): no draw keeps it.
        self._rng = spare_rng()
        # Whether a run of chance steps may be drawn at once (`play_run`); else one at a time (`play`).
        self.runs = scheme == "position" and game.chance_runs

    def _key(self, state: State) -> tuple[int, ...]:
        key = state.chance_position()
        return (*key, self._made.get(key, 0))

    def draw(self, state: State, step_index: int) -> Step:
        """The outcome the seed gives the chance node `state`, reached as step `step_index` (0-based)."""
        if self.scheme == "step":
            return state.sample_chance(step_rng(self.seed, *state.chance_key(step_index), self._rng))
        return self.game.draw_chance(state, self.seed, self._key(state), self._rng)

    def play(self, state: State, step_index: int) -> Step:
        """`draw` then `apply` at the chance node `state` (step `step_index`), the drawn outcome returned.

        What a simulation does at every chance step, so the node's position is found once and
        the outcome is applied unchecked (`State.apply_drawn`): it is one of the node's own.
        """
        if self.scheme == "step":
            step = self.draw(state, step_index)
            state.apply_drawn(step)
            return step
        key = state.chance_position()
        made = self._made.get(key, 0)
        step = self.game.draw_chance(state, self.seed, (*key, made), self._rng)
        state.apply_drawn(step)
        self._made[key] = made + 1
        return step

    def play_run(self, state: State) -> list[Step]:
        """Every chance step from the chance node `state` to the next decision or the end (when `runs`).

        A game whose draws ignore the count at a key (Solitaire's shuffled deals) turns the run
        up in one call (`Game.play_chance_run`); its counts are then not kept, as its draws never
        read them.
        """
        return self.game.play_chance_run(state, self.seed)

    def apply(self, state: State, step: Step) -> None:
        """Apply the chance step `step` (drawn, scripted or entered alike) to `state` and count it."""
        key = state.chance_position() if self.scheme == "position" else None
        state.apply(step)
        if key is not None:
            self._made[key] = self._made.get(key, 0) + 1

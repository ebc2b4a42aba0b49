"""The shortcuts taken for speed (issue 15) give exactly what the plain computations give.

Each memo or incremental path is checked against the computation it replaces, on positions
reached by seeded random play: legal actions kept per sheet, Solitaire plays kept per table,
ball contexts from the frame alone, lazily seeded generators, the optimal bot's kept terms,
and (issue 30) the seeded chance a simulation draws and applies unchecked, dice rolled from
random bits, values made without their dataclass `__init__`, shared record steps.
"""

from __future__ import annotations

import random

import pytest

from pinsetter.bots.base import make_bot
from pinsetter.bots.rolling_pins import OptimalBot
from pinsetter.core.dice import roll_faces
from pinsetter.core.game import State
from pinsetter.core.pins import pins_of
from pinsetter.core.scoring import Frame, Lane, Scoresheet, following_ball, next_ball, score
from pinsetter.core.seeds import POSITION_STREAM, lazy_step_rng, position_rng, spare_rng, step_rng
from pinsetter.games.bowling_dice import DEFAULT_DICE, BowlingDiceModel, Roll, _canonical
from pinsetter.games.bowling_solitaire import Deal, SolitaireState
from pinsetter.games.registry import get_game
from pinsetter.games.rolling_pins import RollingPinsState, subsets_by_sum
from pinsetter.records import PlayerSpec, RecordStep
from pinsetter.session import Match
from pinsetter.solvers import rolling_pins as solver


def positions(game_id: str, options: dict[str, object], players: int, games: int, seed: int) -> list[State]:
    """Copies of every decision position of some seeded random games."""
    game = get_game(game_id, options)
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = game.new_state(players)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            else:
                found.append(state.clone())
                state.apply(rng.choice(state.legal_actions()))
    return found


RP_OPTIONS = [
    {},
    {"advanced": "true"},
    {"advanced": "true", "auto_strike": "held"},
    {"frames": "3", "pins": "4"},
    {"shared_dice": "true", "advanced": "true"},
]


@pytest.mark.parametrize("options", RP_OPTIONS, ids=str)
def test_kept_legal_actions_are_the_engines(options: dict[str, object]) -> None:
    players = 2 if options.get("shared_dice") else 1
    for state in positions("rolling-pins", options, players, 4, 15):
        assert isinstance(state, RollingPinsState)
        player = state.players[state.turn()]
        fresh = sorted(state._actions(player))
        assert state.legal_actions() == fresh
        assert state.legal_actions() == fresh  # asked again: from the memo


@pytest.mark.parametrize("rule", ["connected", "mutual"])
def test_kept_solitaire_plays_are_the_rules(rule: str) -> None:
    for state in positions("bowling-solitaire", {"groups": rule, "frames": "4"}, 1, 6, 3):
        assert isinstance(state, SolitaireState)
        table = state.table
        fresh = table._plays(rule)
        assert fresh == sorted(fresh)
        assert table.plays(rule) == fresh
        table.standing &= ~(table.standing & -table.standing)  # a pin taken by hand: the memo must see it
        assert table.plays(rule) == table._plays(rule)


def test_ball_contexts_from_the_frame_alone() -> None:
    rng = random.Random(4)
    for pins, frames in ((1, 1), (3, 2), (10, 10), (4, 3)):
        lane = Lane(pins, frames)
        for _ in range(300):
            balls: list[int] = []
            ctx = next_ball(balls, lane)
            while ctx is not None:
                balls.append(rng.choice([0, ctx.standing, rng.randint(0, ctx.standing)]))
                ctx_after = following_ball(ctx, balls[len(balls) - ctx.ball :], lane)
                assert ctx_after == next_ball(balls, lane)
                ctx = ctx_after


def test_lazy_generators_draw_what_step_rng_draws() -> None:
    for seed, index, stream in ((0, 0, 0), (7, 31, 1), (2**63 - 1, 500, 1)):
        eager, lazy = step_rng(seed, index, stream), lazy_step_rng(seed, index, stream)

        def draws(rng: random.Random) -> list[object]:
            return [rng.choice(range(50)), rng.random(), rng.randint(1, 6), rng.choices("abc", [1, 2, 3])[0]]

        assert draws(lazy) == draws(eager)
        assert type(lazy) is random.Random and lazy.getstate() == eager.getstate()


def test_a_spare_generator_serves_again_only_while_never_drawn_from() -> None:
    """`Match.advance` hands its bots one generator while they draw nothing (`lazy_step_rng`'s `spare`)."""

    def draws(rng: random.Random) -> list[object]:
        return [rng.randint(1, 6), rng.random(), rng.choice(range(50))]

    spare = lazy_step_rng(5, 1, 1)
    again = lazy_step_rng(5, 2, 1, spare)
    assert again is spare
    assert draws(again) == draws(step_rng(5, 2, 1))
    fresh = lazy_step_rng(5, 3, 1, again)  # drawn from: it holds that step's state now
    assert fresh is not again
    assert draws(fresh) == draws(step_rng(5, 3, 1))


def test_flat_tables_hold_the_solvers_values() -> None:
    """The optimal bot reads U, the rolls' and the miss's values in `BallTable.flat`, where `flat_index` says."""
    policy = solver.policy_for(4, 3, 1)
    for table in policy.tables.values():
        size, columns = table.u.shape
        for standing in range(size):
            for tokens in range(columns):
                read = [table.flat[solver.flat_index(s, standing, tokens, size)] for s in range(4)]
                assert read[solver.U] == table.u.item(standing, tokens)
                assert read[solver.ONE_DIE] == table.by_dice.item(0, standing, tokens)
                assert read[solver.TWO_DICE] == table.by_dice.item(1, standing, tokens)
                assert read[solver.MISS] == table.miss.item(standing, tokens)


def test_optimal_bot_kept_terms_choose_what_evaluate_ranks_first() -> None:
    game = get_game("rolling-pins", {"frames": "4"})
    bot = make_bot("optimal", game)
    assert isinstance(bot, OptimalBot)
    for state in positions("rolling-pins", {"frames": "4"}, 1, 6, 8) * 2:  # twice: the second time from the memo
        values = bot.evaluate(state)
        assert values is not None
        assert bot.choose(state, random.Random(0)) == values[0][0]


# Every game and rule set a simulation plays (the conformance sets of options), with its bots.
SIMULATED = [
    ("tenpins", {}, ["random"]),
    ("tenpins", {"frames": "3"}, ["random", "random"]),
    ("bowling-dice", {}, ["random", "random"]),
    ("bowling-dice", {"frames": "2", "dice": "XXXXXX,/PPPPP," + ",".join(["-PPPPP"] * 8)}, ["random"]),
    ("rolling-pins", {}, ["optimal", "greedy"]),
    ("rolling-pins", {"advanced": "true", "auto_strike": "held"}, ["greedy", "random"]),
    ("rolling-pins", {"shared_dice": "true", "advanced": "true"}, ["greedy", "random", "random"]),
    ("bowling-solitaire", {}, ["greedy"]),
    ("bowling-solitaire", {"groups": "mutual", "frames": "3"}, ["random"]),
]


@pytest.mark.parametrize("draws", ["position", "step"])
@pytest.mark.parametrize(("game_id", "options", "bots"), SIMULATED, ids=str)
def test_simulated_chance_is_the_checked_draw(
    game_id: str, options: dict[str, object], bots: list[str], draws: str
) -> None:
    """`Match.run_bots` draws and applies each chance step unchecked (`ChanceDraws.play`); step by step,
    every drawn outcome is one the node lists, and the game is the one the checked path plays."""
    game = get_game(game_id, options)
    players = [PlayerSpec(f"p{i}", bot) for i, bot in enumerate(bots)]
    for seed in range(4):
        fast = Match(game, players, seed, draws=draws)  # type: ignore[arg-type]
        fast.run_bots()
        checked = Match(game, players, seed, draws=draws)  # type: ignore[arg-type]
        while not checked.state.is_terminal():
            if checked.state.is_chance_node():
                outcome = checked.draw_chance()
                assert outcome in checked.state.possible_outcomes()
                checked.apply(outcome)  # `State.apply`, with its checks
            else:
                checked.apply(checked.bot_action())
        assert [(s.actor, s.text) for s in fast.record.steps] == [(s.actor, s.text) for s in checked.record.steps]
        assert fast.state.key() == checked.state.key() and fast.record.result == checked.record.result


def test_dice_rolled_from_bits_are_randints() -> None:
    for seed in range(2000):
        bits, plain = random.Random(seed), random.Random(seed)
        for count in (0, 1, 2, 3, 10):
            assert roll_faces(bits, count) == tuple(plain.randint(1, 6) for _ in range(count))
        assert bits.getstate() == plain.getstate()


def test_bowling_dice_rolls_are_the_dice_drawn_one_by_one() -> None:
    """A roll of the dice kind by kind, die by die, each face `randrange(6)` of its die (as before issue 30)."""
    model = BowlingDiceModel(DEFAULT_DICE)
    ctx = next_ball([])
    assert ctx is not None
    for seed in range(500):
        rack = tuple(random.Random(-seed).randint(0, count) for _, count in model.kinds) if seed % 2 else model.fresh()
        rng, plain = random.Random(seed), random.Random(seed)
        groups = tuple(
            _canonical("".join(faces[plain.randrange(6)] for _ in range(count)))
            for (faces, _), count in zip(model.kinds, rack, strict=True)
        )
        assert model.sample(rack, ctx, rng) == Roll(groups)


def test_position_generators_are_plain_generators_of_the_key() -> None:
    for seed, key in ((0, (0, 1, 0)), (2**63 - 1, (3, 10, 2)), (12345, (0, 4))):
        made = position_rng(seed, key)
        assert type(made) is random.Random
        assert made.getstate() == random.Random(hash((seed, POSITION_STREAM, *key))).getstate()


def test_a_generator_seeded_again_is_the_new_one() -> None:
    """`into` (what `ChanceDraws` passes every draw): drawn from before, then seeded again, as if new."""
    into = position_rng(7, (1, 1, 0), spare_rng())
    for seed, key in ((0, (0, 1, 0)), (2**63 - 1, (3, 10, 2)), (12345, (0, 4))):
        into.gauss(0, 1)  # leaves a spare normal deviate behind, as well as a turned state
        assert position_rng(seed, key, into) is into
        assert into.getstate() == random.Random(hash((seed, POSITION_STREAM, *key))).getstate()
        into.gauss(0, 1)
        assert step_rng(seed, key[0], 1, into) is into
        assert into.getstate() == random.Random(hash((seed, key[0], 1))).getstate()


def test_values_made_without_init_are_the_checked_values() -> None:
    rng = random.Random(3)
    for _ in range(200):
        deal = Deal.random(rng)
        again = Deal(deal.pins, deal.piles)  # checked by __post_init__
        assert deal == again and hash(deal) == hash(again) and str(deal) == str(again)
    for balls in ([10] * 12, [7, 3, 9, 0, 10, 0, 8, 8, 2], [5, 5, 5, 5, 10, 10, 9, 1, 10, 0, 0, 10, 7, 3, 10]):
        sheet = score(balls)
        plain = tuple(Frame(f.number, f.pinfalls, f.marks, f.score, f.total) for f in sheet.frames)
        assert sheet == Scoresheet(plain, sheet.total, sheet.complete) and hash(sheet.frames) == hash(plain)
        assert [f.data for f in sheet.frames] == [f.to_dict() for f in plain]


def test_record_steps_are_shared_values() -> None:
    step = RecordStep.of(1, "cross 2+5")
    assert step is RecordStep.of(1, "cross 2+5") and step == RecordStep(1, "cross 2+5")
    assert step.json_text == RecordStep(1, "cross 2+5").json_text
    assert RecordStep.of(None, "3+4") != RecordStep.of(0, "3+4")


def test_subsets_by_sum_are_every_set_of_standing_pins_by_its_sum() -> None:
    for standing in (0, 1, 0b1011, 0b1111111111, 0b1001010110, 0b0110101001):
        by_sum = subsets_by_sum(standing)
        plain: dict[int, list[int]] = {}
        for mask in range(1, standing + 1):
            if mask & ~standing == 0:
                plain.setdefault(sum(pins_of(mask)), []).append(mask)
        assert {total: list(masks) for total, masks in by_sum.items()} == plain  # each group in increasing order

"""Every line typed in the game screen's box is applied or answered, however fast it is typed.

A whole game is typed from its script (the move each decision will get, known ahead because chance
is drawn by position), with a wrong line now and then, while the automatic steps (a bot, the dice,
the cards being turned up) run at their usual pace: at a person's speed (a key every 40 ms) and
as fast as keys can come (no wait at all). A line that comes while it is not the player's move is
kept and played at that move, a wrong line is refused with its reason: none vanishes. The keys'
pace is the typist's, not a wait for the screen; the screen is read only once it is quiet.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_game import GameScreen
from test_tui import past_guard
from tui_support import quiet, until

SEED = 11
WRONG = "cross 99"  # never legal: must be refused with a reason, not dropped
# (game, options, players): decisions against a bot, cards turned up between plays, a dice game's rolls.
TYPED_GAMES = [
    ("rolling-pins", {"frames": "2"}, [PlayerSpec("you"), PlayerSpec("robo", "greedy")]),
    ("bowling-solitaire", {"frames": "2"}, [PlayerSpec("you")]),
    ("tenpins", {"frames": "2"}, [PlayerSpec("you"), PlayerSpec("robo", "random")]),
]


def script(game: str, options: dict[str, str], players: list[PlayerSpec]) -> list[str]:
    """The lines a player types for the whole game: each decision's first legal move, `roll` at each own roll."""
    match = Match.new(game, players, seed=SEED, options=options)
    lines = []
    while not match.state.is_terminal():
        state = match.state
        if state.is_chance_node():
            if match.players[state.turn()].is_human and not state.game.has_decisions:
                lines.append("roll")
            match.apply(match.draw_chance())
        elif match.is_bot_turn():
            match.apply(match.bot_action())
        else:
            action = str(state.legal_actions()[0])
            lines.append(action)
            match.apply(state.game.parse_action(action))
    return lines


@pytest.mark.parametrize("pace", [0.04, 0.0], ids=["human", "fast"])
@pytest.mark.parametrize(("game", "options", "players"), TYPED_GAMES, ids=[g for g, _o, _p in TYPED_GAMES])
async def test_every_typed_line_is_applied_or_answered(
    game: str, options: dict[str, str], players: list[PlayerSpec], pace: float
) -> None:
    lines = script(game, options, players)
    typed = [line for index, line in enumerate(lines) for line in ([WRONG, line] if index % 4 == 1 else [line])]
    match = Match.new(game, players, seed=SEED, options=options)
    app = PinsetterApp(storage=None, speed=1)  # the automatic steps at their usual pace, 0.15 s apart
    async with app.run_test(size=(80, 24)) as pilot:
        screen = GameScreen(match, speed=1)
        app.push_screen(screen)
        await until(pilot, lambda: bool(screen.query("FooterKey")), "the game screen")
        await past_guard(pilot, screen)
        screen.query_one("#command").focus()
        await quiet(pilot, workers=False)
        for line in typed:
            for key in [*(("space" if c == " " else c) for c in line), "enter"]:
                await pilot.press(key)
                if pace:
                    await asyncio.sleep(pace)  # the typist's pace between keys, not a wait for the screen
        await until(pilot, lambda: match.state.is_terminal() and not screen.typed, "the game played out")
        # Every legal line applied, in order, by the player; every wrong line answered with its reason.
        played = [step.text for step in match.record.steps if step.actor is not None and players[step.actor].is_human]
        decisions = [line for line in lines if line != "roll"]
        assert played == decisions
        if not match.game.has_decisions:
            assert len([s for s in match.record.steps if s.actor is None]) >= lines.count("roll")
        refusals = [line.plain for line in screen.log_lines if line.plain.startswith("refused: ")]
        assert len(refusals) == typed.count(WRONG) and all("99" in r for r in refusals), refusals
        assert match.state.scores() == replayed_scores(game, options, players)


def replayed_scores(game: str, options: dict[str, str], players: list[PlayerSpec]) -> Any:
    match = Match.new(game, players, seed=SEED, options=options)
    for line in script(game, options, players):
        while match.state.is_chance_node() or match.is_bot_turn():
            if line == "roll" and match.state.is_chance_node() and match.players[match.state.turn()].is_human:
                break
            match.apply(match.draw_chance() if match.state.is_chance_node() else match.bot_action())
        if line == "roll":
            match.apply(match.draw_chance())
        else:
            match.apply(match.state.game.parse_action(line))
    while not match.state.is_terminal():
        match.apply(match.draw_chance() if match.state.is_chance_node() else match.bot_action())
    return match.state.scores()

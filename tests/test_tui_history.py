"""The terminal's history and replay (issue 26): deleting games, and a replay that jumps and explains.

History keeps every game started and left; here a player deletes one, or every game not begun,
each after a confirmation, and the launcher's Resume list follows. A replay of some 400 steps
jumps by frame and by the player's decisions, plays itself, shows at each decision the options
as the hints value them and the one chosen, and names whose table it draws. Real seeded games
through the engine and the real app (Textual's pilot), waiting on conditions, never pauses.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Checkbox, OptionList, Static

from pinsetter.bots.base import make_bot
from pinsetter.bots.hints import hint_words, option_values
from pinsetter.core.seeds import step_rng
from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.storage.stats import player_stats
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_history import ConfirmDelete, HistoryScreen, ReplayScreen, StatsScreen
from pinsetter.ui.tui_launcher import Launcher
from test_tui import screen_text
from tui_support import quiet, until


def human_game(
    storage: Storage, game: str, seed: int, upto: int | None = None, options: dict[str, object] | None = None
) -> Match:
    """`ann` (a human seat, her moves a greedy bot's) against the greedy bot, kept in `storage`."""
    match = Match.new(game, [PlayerSpec("ann"), PlayerSpec("Greedy bot", "greedy")], seed=seed, options=options)
    match.storage = storage
    match.store()
    match.storage = None  # played on without a write per step (some 400): only the game as kept is read here
    bot = make_bot("greedy", match.game)
    while not match.state.is_terminal() and (upto is None or match.steps_done < upto):
        if not match.advance():
            match.apply(bot.choose(match.state, step_rng(1, match.steps_done, 1)))
    match.storage = storage
    match.store()  # the same row, now with every step and the result
    return match


def alone(
    storage: Storage, game: str, seed: int, kind: str = "human", options: dict[str, object] | None = None
) -> Match:
    """A finished game of `ann` alone (her moves a random bot's), kept in `storage` with her seat's `kind`."""
    match = Match.new(game, [PlayerSpec("ann", "random")], seed=seed, options=options)
    match.run_bots()
    match.record.players = [PlayerSpec("ann", kind)]
    match.game_id = storage.save(match.record)
    return match


def not_begun(storage: Storage, seed: int) -> Match:
    match = Match.new("tenpins", [PlayerSpec("ann")], seed=seed)
    match.storage = storage
    match.store()
    return match


async def wait_for(pilot: Any, app: PinsetterApp, kind: type) -> Any:
    await until(pilot, lambda: isinstance(app.screen, kind), kind.__name__)
    return app.screen


def plain(widget: Static) -> str:
    return " ".join(widget.render().plain.split())  # type: ignore[union-attr]


def flat(text: str) -> str:
    return " ".join(text.split())


async def test_history_deletes_a_game_and_the_games_not_begun_after_asking(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'h.sqlite'}")
    finished = human_game(storage, "rolling-pins", 3)
    empty = [not_begun(storage, seed) for seed in (4, 5)]
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        launcher = await wait_for(pilot, app, Launcher)
        resume = launcher.query_one("#resume", OptionList)
        assert resume.option_count == 2  # the games not begun are offered for resuming
        await pilot.press("f2")
        history = await wait_for(pilot, app, HistoryScreen)
        listing = history.query_one("#history-list", OptionList)
        labels = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert sum("Ten Pins (dice): ann (not begun)" in label for label in labels) == 2
        scores = finished.state.scores()
        assert f"Rolling Pins: ann {scores[0]}, Greedy bot {scores[1]} (finished)" in labels[2]
        # The finished game: asked first; Cancel has the focus, so an Enter deletes nothing.
        listing.highlighted = 2
        await pilot.press("d")
        confirm = await wait_for(pilot, app, ConfirmDelete)
        question = confirm.query_one("#delete-question")
        assert plain(question) == "Delete this game from the history? The finished one's scores leave the statistics."
        assert question.region.bottom < 24 and "Rolling Pins: ann" in plain(confirm.query_one("#delete-games"))
        assert app.focused is not None and app.focused.id == "delete-no"
        confirm.opened_at -= 120.0  # past the Enter guard (an Enter just after it opens is ignored)
        await pilot.press("enter")
        await wait_for(pilot, app, HistoryScreen)
        assert "nothing deleted" in plain(history.query_one("#history-notes", Static))
        assert storage.get(finished.game_id or 0) is not None
        # Again, and yes: gone, with its scores from the statistics.
        await pilot.press("d")
        await wait_for(pilot, app, ConfirmDelete)
        await pilot.press("y")
        await wait_for(pilot, app, HistoryScreen)
        await until(pilot, lambda: listing.option_count == 2, "the list without it")
        assert storage.get(finished.game_id or 0) is None and storage.results_for() == []
        assert f"game #{finished.game_id} deleted" in plain(history.query_one("#history-notes", Static))
        # Every game not begun at once, answered from the keyboard: Shift+Tab to Delete, Enter.
        await pilot.press("x")
        confirm = await wait_for(pilot, app, ConfirmDelete)
        assert "Delete these 2 games from the history?" in flat(screen_text(app))  # on screen, in view
        confirm.opened_at -= 120.0
        await pilot.press("shift+tab")
        assert app.focused is not None and app.focused.id == "delete-yes"
        await pilot.press("enter")
        await wait_for(pilot, app, HistoryScreen)
        await until(pilot, lambda: listing.option_count == 0, "an empty history")
        notes = plain(history.query_one("#history-notes", Static))
        assert f"2 games deleted: #{empty[0].game_id}, #{empty[1].game_id}" in notes and "no game found" in notes
        assert storage.history() == []
        await pilot.press("x")  # nothing left to delete: said, not asked
        await quiet(pilot)
        assert isinstance(app.screen, HistoryScreen)
        assert "no game here was started and left before a pin fell" in plain(history.query_one("#history-notes"))
        await pilot.press("escape")
        await wait_for(pilot, app, Launcher)
        await until(pilot, lambda: resume.option_count == 0, "the Resume list follows the history")


def turn_frame(state: Any) -> int:
    ctx = state.ball_context(state.turn())
    assert ctx is not None
    return int(ctx.frame)


async def test_replay_jumps_by_frame_and_by_decision_with_the_hint_at_each(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'r.sqlite'}")
    match = human_game(storage, "rolling-pins", 3)
    stored = storage.get(match.game_id or 0)
    steps = match.record.steps
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReplayScreen(stored))
        replay = await wait_for(pilot, app, ReplayScreen)
        assert replay.at == len(steps)  # it opens on the game as stored
        await pilot.press("home")
        # A frame at a time: each stop is where the player to play begins the next frame.
        for frame in range(2, 11):
            await pilot.press("right_square_bracket")
            await quiet(pilot)
            state = replay.states[replay.at]
            assert turn_frame(state) == frame and turn_frame(replay.states[replay.at - 1]) == frame - 1
            assert f"frame {frame}" in plain(replay.query_one("#replay-status", Static))
        await pilot.press("left_square_bracket", "left_square_bracket")
        await quiet(pilot)
        assert turn_frame(replay.states[replay.at]) == 8 and turn_frame(replay.states[replay.at - 1]) == 7
        # The human's decisions, one after another: the bot's decisions and the dice are passed over.
        ann_decides = [i for i, step in enumerate(steps) if step.actor == 0]
        await pilot.press("home")
        seen = []
        for _ in range(4):
            await pilot.press("full_stop")
            await quiet(pilot)
            seen.append(replay.at)
        assert seen == [i for i in ann_decides if i > 0][:4]
        await pilot.press("comma")
        await quiet(pilot)
        assert replay.at == seen[2]
        # The hint at that decision: the options valued as the hints value them, the one chosen marked.
        at = replay.at
        await until(pilot, lambda: at in replay.hints, "the hint worked out")
        state = replay.states[at]
        found = option_values(state)
        assert found is not None
        name, label, values = found
        chosen = state.game.action_words(state, steps[at].text)
        panel = plain(replay.query_one("#replay-hint", Static))
        words = hint_words(state, name, values)
        picked = next(i for i, (action, _v) in enumerate(values) if str(action) == steps[at].text)
        assert words[picked].startswith(chosen)
        assert panel.startswith(f"ann chose: {flat(words[picked])}")  # the choice and its value, first
        for line in words[:3]:
            assert flat(line) in panel
        if picked < 8:
            assert f"▸ {flat(words[picked])} (chosen)" in panel
        assert flat(label) in panel
        assert plain(replay.query_one("#replay-whose", Static)) == "ann's table"
        # At the bot's turn, the bot's table, said so.
        bot_at = next(i for i, step in enumerate(steps) if step.actor == 1)
        await pilot.press("home")
        for _ in range(bot_at):
            await pilot.press("right")
        await quiet(pilot)
        assert replay.at == bot_at
        assert plain(replay.query_one("#replay-whose", Static)) == "Greedy bot's table"
        assert plain(replay.query_one("#replay-hint", Static)).startswith("Greedy bot chose: ")
        # Hints hidden and shown again with h.
        await pilot.press("h")
        await quiet(pilot)
        assert not replay.query_one("#replay-hint-box").display
        await pilot.press("h")
        await quiet(pilot)
        assert replay.query_one("#replay-hint-box").display


async def test_replay_plays_itself_and_stops_when_asked(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'a.sqlite'}")
    match = human_game(storage, "rolling-pins", 5, options={"frames": 1})  # every step drawn: one frame, 27 steps
    stored = storage.get(match.game_id or 0)
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReplayScreen(stored, autoplay_seconds=0.01))
        replay = await wait_for(pilot, app, ReplayScreen)
        visited: list[int] = []
        step = replay.autoplay_step

        def noted() -> None:
            visited.append(replay.at)
            step()

        replay.autoplay_step = noted  # type: ignore[method-assign]
        # From the end it starts over, and plays to the end. Whether the timer still runs once the press
        # is handled is a race at a step per 0.01 s (a loaded machine can play all 27 steps during the
        # press): the steps visited say that it ran.
        await pilot.press("a")
        await quiet(pilot)  # waits while the replay has a step to come
        last = len(replay.states) - 1
        assert replay.at == last and replay.autoplay_timer is None
        assert visited == [*range(last), last]  # every step in turn from the start, then it stops
        assert str(replay.query_one("#replay-autoplay", Button).label) == "Autoplay"
        # Started and stopped again at once. A step a minute, so that no step can come between the two
        # presses: at 0.01 s a loaded machine sometimes played the whole replay between them (a flaky
        # failure found by benchmarks/flaky_runs.py), and the second press started it over.
        replay.autoplay_seconds = 60.0
        await pilot.press("home", "a")
        assert replay.autoplay_timer is not None and replay.at == 0
        await pilot.press("a")
        await quiet(pilot)
        assert replay.autoplay_timer is None and replay.at == 0
        assert str(replay.query_one("#replay-autoplay", Button).label) == "Autoplay"
        replay.autoplay_seconds = 0.01
        replay.query_one("#replay-autoplay", Button).press()  # the button does the same
        await quiet(pilot)
        assert replay.at == len(replay.states) - 1


async def test_a_stopped_autoplay_ignores_a_late_tick(tmp_path: Path) -> None:
    """Textual can call a stopped interval timer's callback once more (its sleep skips waits under
    half a millisecond): such a tick, or one of an earlier timer, moves nothing. The timers' callbacks
    are caught as the screen hands them to Textual and called by hand, as Textual would call them late."""
    storage = Storage(f"sqlite:///{tmp_path / 'a.sqlite'}")
    match = human_game(storage, "rolling-pins", 5, options={"frames": 1})
    stored = storage.get(match.game_id or 0)
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReplayScreen(stored, autoplay_seconds=60.0))  # no tick of its own during the test
        replay = await wait_for(pilot, app, ReplayScreen)
        ticks: list[Any] = []
        set_interval = replay.set_interval

        def caught(interval: float, callback: Any, **options: Any) -> Any:
            ticks.append(callback)
            return set_interval(interval, callback, **options)

        replay.set_interval = caught  # type: ignore[method-assign]
        await pilot.press("home", "a")  # running (the tests' quiet() would wait for its next tick)
        assert replay.autoplay_timer is not None
        ticks[0]()  # the running timer's tick: a step
        assert replay.at == 1
        await pilot.press("a")  # stopped
        await quiet(pilot)
        ticks[0]()  # late: nothing
        assert replay.at == 1 and replay.autoplay_timer is None
        await pilot.press("a")  # running again, on a new timer
        assert replay.autoplay_timer is not None
        ticks[0]()  # the old timer's: nothing
        assert replay.at == 1
        ticks[1]()
        assert replay.at == 2 and len(ticks) == 2


async def test_a_game_without_decisions_says_so_when_asked_for_one(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 't.sqlite'}")
    match = Match.new("tenpins", [PlayerSpec("ann")], seed=2)
    match.storage = storage
    match.store()
    for _ in range(6):
        match.apply(match.draw_chance())
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReplayScreen(storage.get(match.game_id or 0)))
        replay = await wait_for(pilot, app, ReplayScreen)
        await pilot.press("home", "full_stop")
        await quiet(pilot)
        assert replay.at == 0
        said = [n.message for n in app._notifications]
        assert "nobody decided anything in this game: chance played every step" in said
        assert not replay.query_one("#replay-hint-box").display


async def test_a_one_player_replay_ends_on_the_players_table(tmp_path: Path) -> None:
    """At the end nobody is up and a game of one player draws a table of nobody's: it is still hers."""
    storage = Storage(f"sqlite:///{tmp_path / 'o.sqlite'}")
    match = alone(storage, "bowling-solitaire", 3)
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReplayScreen(storage.get(match.game_id or 0)))
        replay = await wait_for(pilot, app, ReplayScreen)
        assert replay.at == len(match.record.steps) and match.state.is_terminal()  # it opens on the end
        assert "game over" in plain(replay.query_one("#replay-status", Static))
        assert plain(replay.query_one("#replay-whose", Static)) == "ann's table"
        await pilot.press("left")  # a step before: hers too, as the player up
        await quiet(pilot)
        assert plain(replay.query_one("#replay-whose", Static)) == "ann's table"


async def test_statistics_say_the_box_in_marks_and_too_few_games_in_words(tmp_path: Path) -> None:
    """The box reads on or off in its characters, not its colour; a range only from five games."""
    storage = Storage(f"sqlite:///{tmp_path / 'b.sqlite'}")
    for seed in (1, 2):
        alone(storage, "tenpins", seed, options={"frames": 2})
    alone(storage, "tenpins", 3, kind="random", options={"frames": 2})  # a bot's: counted only when the box is on
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(StatsScreen(storage, "tenpins"))
        stats = await wait_for(pilot, app, StatsScreen)
        box = stats.query_one("#stats-bots", Checkbox)
        assert box.render().plain.strip() == "[ ] Count the bots' scores"
        data = player_stats(storage, None, "tenpins")["series"][0]
        text = flat(screen_text(app))
        assert f"average {data['average']:.1f} (too few games for a range: 5 needed)" in text
        assert "95% CI" not in text and "0.0 to" not in text
        box.focus()
        await pilot.press("space")
        await until(pilot, lambda: "3 finished games" in flat(screen_text(app)), "the bot's game counted")
        assert box.value and box.render().plain.strip() == "[x] Count the bots' scores"
        for seed in (4, 5):  # five games with the bot's: a range
            alone(storage, "tenpins", seed, options={"frames": 2})
        await pilot.press("space", "space")  # off and on again: read anew
        await until(pilot, lambda: "5 finished games" in flat(screen_text(app)), "five games")
        low, high = player_stats(storage, None, "tenpins", include_bots=True)["series"][0]["ci95"]
        assert f"95% CI {low:.1f} to {high:.1f}" in flat(screen_text(app))
        assert "[x] Count the bots' scores" in screen_text(app)


def artifacts(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PINSETTER_ARTIFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (120, 40)], ids=["60x20", "80x24", "120x40"])
async def test_the_replay_at_a_decision_keeps_its_hint_and_buttons_in_view(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 's.sqlite'}")
    match = human_game(storage, "rolling-pins", 3)
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=size) as pilot:
        app.push_screen(ReplayScreen(storage.get(match.game_id or 0)))
        replay = await wait_for(pilot, app, ReplayScreen)
        await pilot.press("home", "full_stop")
        await until(pilot, lambda: replay.at in replay.hints, "the hint worked out")
        text = flat(screen_text(app))
        app.save_screenshot(str(artifacts(tmp_path) / f"replay-decision-{size[0]}x{size[1]}.svg"))
        width, height = size
        panel = replay.query_one("#replay-hint-box")
        assert panel.region.bottom <= height - 1 and panel.region.height >= 4  # above the footer, not squeezed
        assert "ann chose: Cross out" in text and "less than the best" in text  # the choice and how good it was
        assert "ann's table" in text
        for button in replay.query("#replay-bar Button").results(Button):
            if button.display:
                assert button.region.right <= width, button.id  # none cut off at the edge
        assert len([b for b in replay.query("#replay-bar Button").results(Button) if b.display]) >= 8
        history = HistoryScreen(storage)
        app.push_screen(history)
        await wait_for(pilot, app, HistoryScreen)
        await quiet(pilot)
        app.save_screenshot(str(artifacts(tmp_path) / f"history-{size[0]}x{size[1]}.svg"))
        for button in history.query("Button").results(Button):
            assert button.region.right <= width and button.region.bottom <= height - 1, button.id

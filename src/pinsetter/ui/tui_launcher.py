"""The launcher of the full-screen terminal: the games, the players, the options, the games to resume.

Every size from 60x20 up: the games are listed by name (the highlighted one's summary under the
list), the unfinished games are listed or the box says there are none, and the setup (players,
options) sits beside them, or under them on a narrow terminal; one scroll bar at most. Seed,
Undo, Play and Learn stay in a bar at the bottom that never scrolls away.
"""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Header, Input, Label, ListItem, ListView, OptionList, Select, Static, Switch
from textual.widgets.option_list import Option

from pinsetter.bots.base import bot_names, bot_seat_name, bot_title
from pinsetter.catalog import game_title, option_words
from pinsetter.core.game import GameError, OptionSpec
from pinsetter.games.registry import GAMES, game_class
from pinsetter.i18n import N_, _
from pinsetter.records import PlayerSpec, player_name
from pinsetter.session import Match
from pinsetter.ui.sheet import fit_names, render_sheets, sheet_width
from pinsetter.ui.tui_common import (
    GUARD_BINDING,
    NARROW,
    SHORT,
    TINY,
    EnterGuard,
    KeyFooter,
    WrappedText,
    resume_summary,
    standing_words,
    translate_bindings,
)
from pinsetter.ui.tui_game import GameScreen, draw_seed
from pinsetter.usertext import BIDI_CONTROLS, check_new_name, name_key, visible

__all__ = ["GameList", "Launcher", "NameInput", "ResumeConfirm"]

USUAL = "default"  # a data option's usual set (the dice, the sheet): the value every data option reads as its default


def switch_words(title: str, on: bool) -> str:
    """`Advanced game: on`: a switch's title and state in words beside it."""
    return " " + _("{title}: {state}").format(title=title, state=_("on") if on else _("off"))


# A player name holds no control character (C0, DEL, C1) nor bidirectional control (pinsetter.usertext).
NAME_TEXT = "[^\x00-\x1f\x7f-\x9f" + "".join(sorted(BIDI_CONTROLS)) + "]*"
CONTROL_REFUSED = N_("a player name cannot hold control characters (terminal escapes, tabs, direction marks)")


class NameInput(Input):
    """The player-name field: control characters typed or pasted into it are refused, with a message."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(restrict=NAME_TEXT, **kwargs)

    def restricted(self) -> None:
        self.app.bell()
        with contextlib.suppress(Exception):  # the field outside the launcher (never, today)
            self.screen.query_one("#launch-message", Static).update(Text(_(CONTROL_REFUSED), style="red"))


RESUME_BOX = 96  # columns: the widest the resume question gets (the sheet, with room for long names)


class ResumeConfirm(EnterGuard, ModalScreen[bool]):
    """A saved game shown before it is resumed: its sheets, where each player stands, and a question."""

    BINDINGS: ClassVar[list[BindingType]] = [GUARD_BINDING, Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, match: Match, standing: str | None = None) -> None:
        """`standing`: where the players stand, in History's words (`standing_words`; each score and frame)."""
        super().__init__()
        translate_bindings(self)
        self.match = match
        self.standing = resume_summary(match.record) if standing is None else standing

    def compose(self) -> ComposeResult:
        match = self.match
        state = match.state
        width, height = self.app.size
        small = width < NARROW or height < TINY  # the box keeps less margin, the sheet fits the box
        self.set_class(small, "small")
        room = min(width, RESUME_BOX) - (6 if small else 14)  # the box's margin, border, padding and scroll bar
        frames = state.game.lane.frames
        names = fit_names([p.name for p in match.players], frames, room)
        current = [ctx.frame if (ctx := state.ball_context(p)) else None for p in range(state.num_players)]
        sheets = [state.scoresheet(p) for p in range(state.num_players)]
        compact = sheet_width(names, frames) > room
        ruled = height >= TINY or len(names) <= 2  # a short screen: two lines a player, the question in view
        sheet = render_sheets(names, sheets, frames, current, compact=compact, ruled=ruled)
        text = Text(_("{game}, seed {seed}").format(game=_(match.game.name), seed=match.seed) + "\n", style="bold")
        text.append(self.standing + "\n\n")
        text.append(sheet + "\n")  # laid out for the box's width: the summary wraps, the sheet need not
        with VerticalScroll(id="help"):
            yield WrappedText(text, id="resume-game")
            yield Label(_("Resume this game?"))
            with Horizontal(classes="row"):
                yield Button(_("Resume"), id="resume-yes", variant="primary", compact=True)
                yield Button(_("Cancel"), id="resume-no", compact=True)

    def on_mount(self) -> None:
        self.guard_from_now()
        self.query_one("#resume-yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "resume-yes")

    def action_cancel(self) -> None:
        self.dismiss(False)


class GameList(OptionList):
    """The launcher's games: a click highlights a game (its options appear); Enter or Play starts it."""

    async def _on_click(self, event: events.Click) -> None:
        event.prevent_default()  # not OptionList's click, which would select (start) it
        clicked: int | None = event.style.meta.get("option")
        if clicked is not None and not self._options[clicked].disabled:
            self.highlighted = clicked


class Launcher(EnterGuard, Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        GUARD_BINDING,
        Binding("ctrl+r", "play", N_("Play"), show=True),
        Binding("f2", "history", N_("History")),
        Binding("f3", "statistics", N_("Statistics")),
        Binding("f4", "learn", N_("Learn")),
        Binding("escape", "app.quit", N_("Quit")),
    ]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        game_class("tenpins")
        yield Header()
        # One scroll for the whole setup at any size: the columns sit side by side, or stack when narrow.
        with VerticalScroll(id="launcher-main"):
            with Vertical(id="games-pane"):
                yield Label(_("Game"), classes="heading")
                yield WrappedText(
                    _("Arrows choose a game; Enter or Play starts it, Learn (F4) teaches it."), classes="help-line"
                )
                yield GameList(*[Option(_(cls.name), id=gid) for gid, cls in sorted(GAMES.items())], id="games")
                yield WrappedText(id="game-about", classes="help-line")
                yield Label(_("Resume an unfinished game"), classes="heading")
                yield OptionList(id="resume", compact=True)
                yield WrappedText(
                    _("No unfinished game: a game left before its end is listed here, to be played on."),
                    id="resume-empty",
                    classes="help-line",
                )
                yield Static(id="resume-message")
                with Horizontal(classes="row"):
                    yield Button(_("History"), id="history", compact=True)
                    yield Button(_("Statistics"), id="statistics", compact=True)
            with Vertical(id="setup"):
                yield Static(id="history-warning")
                yield Label(_("Players (in turn order)"), classes="heading")
                yield ListView(id="players")
                with Horizontal(classes="row"):
                    yield NameInput(placeholder=_("name"), id="player-name", compact=True)
                    yield Select([], prompt=_("human"), id="player-kind", allow_blank=True, compact=True)
                with Horizontal(classes="row"):
                    yield Button(_("Add"), id="add-player", compact=True)
                    yield Button(_("Remove"), id="remove-player", compact=True)
                    yield Button(_("Up"), id="up-player", compact=True)
                yield Label(_("Options"), classes="heading")
                yield Vertical(id="game-options")
        with Horizontal(id="launch-bar"):
            with Horizontal(id="launch-settings"):
                yield Label(_("Seed"))
                yield Input(str(draw_seed()), id="seed", compact=True)
                yield Label(_("Undo"))
                yield Select(
                    [(_("on for one human"), "auto"), (_("always on"), "on"), (_("off"), "off")],
                    value="auto",
                    allow_blank=False,
                    id="undo",
                    compact=True,
                )
            with Horizontal(id="launch-buttons"):
                yield Button(_("Play"), id="play", variant="primary", compact=True)
                yield Button(_("Learn"), id="learn", compact=True)
        yield Static(id="launch-message")
        yield KeyFooter(compact_below=NARROW)

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int, height: int) -> None:
        self.set_class(height < SHORT, "short")
        self.set_class(width < NARROW, "narrow")
        self.query_one("#games", OptionList).compact = height < SHORT  # its frame costs two rows

    async def on_mount(self) -> None:
        self.guard_from_now()
        self.fit(self.app.size.width, self.app.size.height)
        self.seats: list[PlayerSpec] = [PlayerSpec(player_name(1))]
        self.just_added: PlayerSpec | None = None  # the seat Add gave a name to, while its kind may change
        self.game_id = "tenpins"
        games = self.query_one("#games", OptionList)
        games.highlighted = sorted(GAMES).index(self.game_id)
        self.show_about()
        self.refresh_players()
        self.refresh_kinds()
        await self.refresh_options()
        self.refresh_resume()
        warning = getattr(self.app, "storage_warning", "")
        if warning:
            self.query_one("#history-warning", Static).update(
                Text(_("warning: {warning}").format(warning=warning), style="bold yellow")
            )
        games.focus()

    def show_about(self) -> None:
        """The highlighted game's line and how many play it, under the list of games."""
        chosen = game_class(self.game_id)
        players = chosen.players_text()
        # "Two dice: ... 1 to 12 players.": Japanese joins the two without a space and ends with "。".
        line = _("{summary} {players}.").format(summary=_(chosen.summary), players=players)
        about = Text(line)
        about.highlight_words([players], style="italic")
        self.query_one("#game-about", WrappedText).show(about)

    def refresh_players(self, keep: int | None = None) -> None:
        """The seats in turn order, the highlighted one marked `▶` (and coloured): `keep` stays highlighted."""
        view = self.query_one("#players", ListView)
        index = view.index if keep is None else keep
        view.clear()
        for seat in self.seats:
            view.append(ListItem(Label(Text("  " + self.seat_words(seat)))))
        if self.seats:
            view.index = min(index or 0, len(self.seats) - 1)
        self.call_after_refresh(self.mark_seat)

    @staticmethod
    def seat_words(seat: PlayerSpec) -> str:
        if seat.is_human:
            return _("{name} (human)").format(name=seat.name)
        if seat.name.startswith(bot_title(seat.kind)):  # `Greedy bot 2` says what it is
            return seat.name
        return _("{name} ({bot})").format(name=seat.name, bot=bot_title(seat.kind))

    def on_list_view_highlighted(self, event: ListView.Highlighted) -> None:
        self.mark_seat()

    def mark_seat(self) -> None:
        """`▶` before the highlighted seat: Remove and Up act on it (colour is not the only signal)."""
        view = self.query_one("#players", ListView)
        for index, item in enumerate(view.query(ListItem).results(ListItem)):
            if index < len(self.seats):
                mark = "▶ " if index == view.index else "  "
                item.highlighted = index == view.index  # the new items too (the index may not have changed)
                with contextlib.suppress(Exception):  # an item being replaced
                    item.query_one(Label).update(Text(mark + self.seat_words(self.seats[index])))

    def refresh_kinds(self) -> None:
        kinds = self.query_one("#player-kind", Select)
        kinds.set_options([(bot_title(b), b) for b in bot_names(self.game_id)])

    @staticmethod
    def seat_name(kind: str, taken: list[str]) -> str:
        """A seat added without a name: `Greedy bot 2` for a bot (as players are named), `Player 3` for a human."""
        if kind != "human":
            return bot_seat_name(kind, taken)
        number = len(taken) + 1
        while player_name(number) in taken:
            number += 1
        return player_name(number)

    def refresh_resume(self) -> None:
        """The unfinished games of the history; a history that cannot be read is reported, not fatal."""
        resume = self.query_one("#resume", OptionList)
        resume.clear_options()
        storage = self.app_storage()
        if storage is None:
            self.show_resume_box()
            return
        from pinsetter.ui.tui_history import readable_history

        # A record the history holds but no longer accepts is skipped and named; the others are listed.
        stored_games, problems = readable_history(storage, limit=50)
        if problems:
            text = Text(_("cannot resume from the history: {problems}").format(problems="; ".join(problems)))
            self.query_one("#resume-message", Static).update(Text(text.plain, style="red"))
        for stored in stored_games:
            if not stored.finished:
                game = game_title(stored.game, stored.record.options)
                label = Text(f"#{stored.id} {game} - {standing_words(stored)}")
                resume.add_option(Option(label, id=str(stored.id)))
        if resume.option_count:
            resume.highlighted = 0
        self.show_resume_box()

    def show_resume_box(self) -> None:
        """The list of games to resume, or a line saying there are none (an empty box says nothing)."""
        resume = self.query_one("#resume", OptionList)
        resume.display = bool(resume.option_count)
        self.query_one("#resume-empty").display = not resume.option_count

    def resume_problem(self, exc: Exception) -> None:
        text = visible(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        said = _("cannot resume from the history: {problems}").format(problems=text)
        self.query_one("#resume-message", Static).update(Text(said, style="red"))

    def app_storage(self) -> Any:
        return getattr(self.app, "storage", None)

    async def refresh_options(self) -> None:
        """One widget per option of the game, under its label and help in player words: a switch,
        a choice in words, a data set by name (the usual one and those played before), or a number.
        Options that change nothing under the others (an advanced game's, while Advanced is off) are hidden."""
        box = self.query_one("#game-options", Vertical)
        await box.remove_children()
        rows: list[Any] = []
        for spec in game_class(self.game_id).option_specs:
            parts: list[Any] = []
            if isinstance(spec.default, bool):
                # The switch's state in words too (colour is not the only signal), its title beside it.
                state = Label(switch_words(spec.title, spec.default), id=f"state-{spec.name}")
                parts.append(Horizontal(Switch(value=spec.default, id=f"opt-{spec.name}"), state, classes="option-row"))
                parts.append(WrappedText(_(spec.help), classes="option-help"))
            else:  # the title once, then its help, then its widget
                parts.append(Label(Text(spec.title), classes="option-title"))
                parts.append(WrappedText(_(spec.help), classes="option-help"))
            if isinstance(spec.default, bool):
                pass  # the switch is in its row already
            elif spec.choices:
                choices = [(option_words(spec, c), c) for c in spec.choices]
                parts.append(
                    Select(choices, value=str(spec.default), allow_blank=False, id=f"opt-{spec.name}", compact=True)
                )
            elif spec.reads_file:
                sets = self.data_sets(spec)
                parts.append(Select(sets, value=USUAL, allow_blank=False, id=f"opt-{spec.name}", compact=True))
                parts.append(WrappedText(id=f"about-{spec.name}", classes="option-help"))
            else:
                default = _("default: {value}").format(value=spec.default)
                parts.append(Input(placeholder=default, id=f"opt-{spec.name}", compact=True))
            rows.append(Vertical(*parts, id=f"option-{spec.name}", classes="option"))
        await box.mount(*rows)
        self.show_options_in_play()

    def data_sets(self, spec: OptionSpec) -> list[tuple[str, str]]:
        """A data option's choices by name: the usual one, then each other one the history has games of.

        Sets are added on the command line (`--option dice=FILE`, docs/cli.md); once a game is played
        with one, the launcher offers it again, as `Added 1`, `Added 2` (shown as its faces below).
        """
        sets = [(_("Usual"), USUAL)]
        storage = self.app_storage()
        if storage is None:
            return sets
        from pinsetter.ui.tui_history import readable_history

        seen: set[str] = set()
        for stored in readable_history(storage, game=self.game_id, limit=200)[0]:
            value = stored.record.options.get(spec.name)
            if not isinstance(value, str) or value in seen:
                continue
            seen.add(value)
            try:
                if spec.read(value) == spec.default:
                    continue
            except GameError:  # a set the game no longer accepts is not offered
                continue
            sets.append((_("Added {number}").format(number=len(sets)), value))
        return sets

    def show_options_in_play(self) -> None:
        """Hide the options that change nothing under the switches and choices set now (`Game.options_in_play`)."""
        chosen = self.chosen_options(typed=False)
        try:
            in_play = set(game_class(self.game_id)(chosen).options_in_play())
        except GameError:
            in_play = {spec.name for spec in game_class(self.game_id).option_specs}
        for row in self.query(".option"):
            row.display = (row.id or "").removeprefix("option-") in in_play
        for spec in game_class(self.game_id).option_specs:
            if spec.reads_file:
                value = self.query_one(f"#opt-{spec.name}", Select).value
                data = spec.read(value if isinstance(value, str) else USUAL)
                said = [data.words()] if hasattr(data, "words") else []
                self.query_one(f"#about-{spec.name}", WrappedText).show(Text("\n".join(said)))

    def on_switch_changed(self, event: Switch.Changed) -> None:
        name = (event.switch.id or "").removeprefix("opt-")
        spec = next((s for s in game_class(self.game_id).option_specs if s.name == name), None)
        with contextlib.suppress(Exception):
            self.query_one(f"#state-{name}", Label).update(switch_words(spec.title if spec else name, event.value))
        self.show_options_in_play()

    def on_select_changed(self, event: Select.Changed) -> None:
        if (event.select.id or "").startswith("opt-"):
            self.show_options_in_play()
        elif event.select.id == "player-kind" and event.select.has_focus_within:  # the player's choice (Add clears it)
            self.rekind_added_seat(event.value if isinstance(event.value, str) else "human")

    def rekind_added_seat(self, kind: str) -> None:
        """A kind chosen just after Add, while the seat added without a name is still highlighted, is that
        seat's: `Player 2 (human)` becomes `Greedy bot` (its label follows the choice), and back again.

        Otherwise the kind is for the next seat added, as the name field is."""
        seat = self.just_added
        index = self.query_one("#players", ListView).index
        if seat is None or index is None or index >= len(self.seats) or self.seats[index] is not seat:
            return
        if kind == seat.kind or self.query_one("#player-name", Input).value.strip():
            return
        taken = [s.name for s in self.seats if s is not seat]
        changed = PlayerSpec(self.seat_name(kind, taken), kind)
        self.seats[index] = changed
        self.just_added = changed
        self.refresh_players(keep=index)
        said = _("{name} is now {seat}").format(name=seat.name, seat=self.seat_words(changed))
        self.query_one("#launch-message", Static).update(Text(said))

    def chosen_options(self, typed: bool = True) -> dict[str, object]:
        """The options set away from their defaults, as text (validated by the game); hidden ones are left out.

        `typed=False`: the switches and choices only (what decides which options are in play).
        """
        options: dict[str, object] = {}
        for spec in game_class(self.game_id).option_specs:
            row = self.query_one(f"#option-{spec.name}")
            widget = self.query_one(f"#opt-{spec.name}")
            if not row.display and typed:
                continue
            if isinstance(widget, Switch):
                if widget.value != spec.default:
                    options[spec.name] = "true" if widget.value else "false"
            elif isinstance(widget, Select):
                if widget.value not in (str(spec.default), USUAL):
                    options[spec.name] = str(widget.value)
            elif isinstance(widget, Input) and widget.value.strip() and typed:
                options[spec.name] = widget.value.strip()
        return options

    async def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "games" and event.option.id and event.option.id != self.game_id:
            self.game_id = event.option.id
            self.show_about()
            self.refresh_kinds()
            self.seat_bots_of_this_game()
            await self.refresh_options()

    def seat_bots_of_this_game(self) -> None:
        """A bot the highlighted game does not have gives its seat to the game's first bot (as the web lobby
        does), and the line under the bar says so: a seat never changes without a word."""
        bots = list(bot_names(self.game_id))
        seats: list[PlayerSpec] = []
        said: list[str] = []
        for seat in self.seats:
            if not (seat.is_human or seat.kind in bots):
                kind = bots[0] if bots else "human"
                taken = [s.name for s in self.seats if s is not seat]
                # A seat named after its bot (`Optimal bot`) takes its new bot's name; a name given stays.
                named_by_kind = seat.name.startswith(bot_title(seat.kind))
                changed = PlayerSpec(self.seat_name(kind, taken) if named_by_kind else seat.name, kind)
                said.append(self.rebotted_words(seat, changed))
                seat = changed
            seats.append(seat)
        self.seats = seats
        self.refresh_players()
        if said:
            self.query_one("#launch-message", Static).update(Text(_("; ").join(said)))

    def rebotted_words(self, seat: PlayerSpec, changed: PlayerSpec) -> str:
        """`bob plays as the Rookie bot in Ten Pins (dice): it has no Optimal bot`: a seat's new bot, and why."""
        game, old = _(game_class(self.game_id).name), bot_title(seat.kind)
        if changed.name != seat.name:  # named after its old bot: renamed after the new one
            said = _("{name} is now {seat}: {game} has no {bot}")
            return said.format(name=seat.name, seat=changed.name, game=game, bot=old)
        said = _("{name} plays as the {new} in {game}: it has no {bot}")
        return said.format(name=seat.name, new=bot_title(changed.kind), game=game, bot=old)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "games" and event.option.id:
            self.game_id = event.option.id
            self.action_play()
        elif event.option_list.id == "resume" and event.option.id:
            storage = self.app_storage()
            try:
                stored = storage.get(int(event.option.id)) if storage else None
                match = Match.resume(stored.record) if stored is not None else None
            except Exception as exc:  # the stored record no longer replays, or the database failed
                self.resume_problem(exc)
                return
            if match is not None:
                # The game is shown (sheets, frame and score) and the player is asked before it goes on.
                question = ResumeConfirm(match, standing_words(stored))
                self.app.push_screen(question, lambda yes: self.start(match) if yes else None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id
        message = self.query_one("#launch-message", Static)
        if button == "play":
            self.action_play()
        elif button == "learn":
            self.action_learn()
        elif button == "history":
            self.action_history()
        elif button == "statistics":
            self.action_statistics()
        elif button == "add-player":
            name = self.query_one("#player-name", Input).value.strip()
            typed = bool(name)
            kind = self.query_one("#player-kind", Select).value
            kind_text = kind if isinstance(kind, str) else "human"
            taken = [s.name for s in self.seats]
            if name and any(name_key(t) == name_key(name) for t in taken):  # one name, as names compare
                message.update(Text(_("{name} is playing already: choose another name").format(name=name), style="red"))
                return
            name = name or self.seat_name(kind_text, taken)
            refusal = game_class(self.game_id).players_refusal(len(self.seats) + 1)
            if refusal is not None:  # said now, not as a refusal at Play
                message.update(Text(refusal, style="red"))
                return
            try:
                seat = PlayerSpec(check_new_name(name), kind_text)
            except ValueError as exc:  # the name policy (pinsetter.usertext): e.g. a control character
                message.update(Text(_("{reason}; the player was not added").format(reason=exc), style="red"))
                self.query_one("#player-name", Input).value = ""  # never left on screen as it is
                return
            message.update(Text(_("{name} joined the table").format(name=seat.name)))
            self.seats.append(seat)
            # Unnamed, its kind may still be chosen in the list next to the name (`rekind_added_seat`).
            self.just_added = None if typed else seat
            self.query_one("#player-name", Input).value = ""
            self.query_one("#player-kind", Select).clear()
            self.refresh_players(keep=len(self.seats) - 1)
        elif button == "remove-player":
            index = self.query_one("#players", ListView).index
            if index is not None and len(self.seats) > 1:
                gone = self.seats.pop(index)
                message.update(Text(_("{name} left the table").format(name=gone.name)))
                self.refresh_players(keep=min(index, len(self.seats) - 1))
            else:
                message.update(Text(_("a game needs a player: add another before removing this one"), style="red"))
        elif button == "up-player":
            index = self.query_one("#players", ListView).index
            if index:
                self.seats[index - 1], self.seats[index] = self.seats[index], self.seats[index - 1]
                self.refresh_players(keep=index - 1)
            else:
                message.update(Text(_("the first player is first already")))

    def action_play(self) -> None:
        message = self.query_one("#launch-message", Static)
        refusal = game_class(self.game_id).players_refusal(len(self.seats))
        if refusal is not None:  # the game's name and what to do, before any option is read
            message.update(Text(refusal, style="red"))
            return
        options = self.chosen_options()
        try:
            seed = int(self.query_one("#seed", Input).value)
            match = Match.new(self.game_id, list(self.seats), seed=seed, options=options)
        except (GameError, ValueError) as exc:
            message.update(Text(str(exc), style="red"))
            return
        message.update("")
        self.query_one("#seed", Input).value = str(draw_seed())  # the next game gets new dice
        self.start(match)

    def action_learn(self) -> None:
        """The highlighted game's guided first frame, with the options and seed set here (not kept in the history)."""
        from pinsetter.ui.tui_learn import LearnScreen

        message = self.query_one("#launch-message", Static)
        try:
            seed = int(self.query_one("#seed", Input).value)
            match = Match.new(self.game_id, [PlayerSpec(player_name(1))], seed=seed, options=self.chosen_options())
        except (GameError, ValueError) as exc:
            message.update(Text(str(exc), style="red"))
            return
        message.update("")
        self.query_one("#seed", Input).value = str(draw_seed())  # the game played next gets other dice
        match.undo_allowed = True
        self.app.push_screen(LearnScreen(match, speed=getattr(self.app, "speed", 1)))

    def action_history(self) -> None:
        from pinsetter.ui.tui_history import HistoryScreen

        self.app.push_screen(HistoryScreen(self.app_storage(), game=None))

    def action_statistics(self) -> None:
        from pinsetter.ui.tui_history import StatsScreen

        self.app.push_screen(StatsScreen(self.app_storage(), game=self.game_id))

    def start(self, match: Match) -> None:
        match.storage = self.app_storage()
        match.store()
        setting = self.query_one("#undo", Select).value
        if setting != "auto":  # "auto" is the match's default: on for one human, alone or with bots
            match.undo_allowed = setting == "on"
        self.app.push_screen(GameScreen(match, speed=getattr(self.app, "speed", 1)))

    def on_screen_resume(self) -> None:
        """Back from a game or another screen: the game list has the focus again, so that Enter never
        presses the control used last (Add a player, a switch) but starts the highlighted game."""
        self.guard_from_now()
        self.refresh_resume()
        self.query_one("#games", OptionList).focus()


# The launcher's rules, under its type (the app puts them in its CSS: App CSS beats DEFAULT_CSS).
LAUNCHER_CSS = """
Launcher #launcher-main { height: 1fr; layout: horizontal; scrollbar-size-vertical: 1; }
Launcher.narrow #launcher-main { layout: vertical; }
Launcher #games-pane { width: 1fr; max-width: 72; height: auto; padding: 0 1; }
Launcher #setup { width: 1fr; max-width: 72; height: auto; padding: 0 1; }
Launcher.narrow #games-pane, Launcher.narrow #setup { width: 1fr; }
Launcher .heading { text-style: bold; color: $accent; margin: 1 0 0 0; }
Launcher.short .heading { margin: 0; }
Launcher .help-line { color: $text-muted; height: auto; width: 1fr; }
Launcher #games { height: auto; }
Launcher #resume { height: auto; max-height: 12; }
Launcher #resume-message { height: auto; }
Launcher #history-warning { height: auto; }
Launcher #players { height: auto; }
Launcher #players > ListItem { background: transparent; }
Launcher #players > ListItem.-highlight { background: $accent; color: $text; text-style: bold; }
Launcher #players:focus > ListItem.-highlight { background: $accent; }
Launcher #player-name { width: 1fr; }
Launcher #player-kind { width: 24; }
Launcher #game-options { height: auto; }
Launcher #game-options .option { height: auto; margin: 0 0 1 0; }
Launcher #game-options Input, Launcher #game-options Select { width: 1fr; max-width: 60; }
Launcher .option-row { height: auto; }
Launcher .option-title { text-style: bold; }
Launcher .option-help { color: $text-muted; width: 1fr; height: auto; }
Launcher Switch { border: none; height: 1; padding: 0; width: 6; }
Launcher .option-row Label { text-style: bold; }
Launcher.short Header { display: none; }
Launcher #launch-bar { height: auto; padding: 0 1; }
Launcher.narrow #launch-bar { layout: vertical; }
Launcher #launch-settings, Launcher #launch-buttons { width: auto; height: auto; }
Launcher #launch-bar Label { margin: 0 1 0 0; }
Launcher #seed { width: 10; margin-right: 2; }
Launcher #undo { width: 24; margin-right: 2; }
Launcher #launch-buttons Button { margin-right: 1; min-width: 8; width: auto; }
Launcher #launch-message { height: auto; padding: 0 1; }
ResumeConfirm.small #help { margin: 0 1; padding: 0 1; }
ResumeConfirm { align-horizontal: center; }
ResumeConfirm #help { height: auto; max-height: 100%; max-width: 96; scrollbar-size-vertical: 1; }
"""

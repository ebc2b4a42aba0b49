"""Commands about playing: the games and their rules, playing, replaying a record, hints."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.cells import cell_len

from pinsetter.cli.common import (
    DbOpt,
    GameArg,
    JsonOpt,
    OptionOpt,
    SeedOpt,
    app,
    echo_rules,
    emit_json,
    fail,
    output_path,
    parse_options,
    try_storage,
)
from pinsetter.core.game import GameError
from pinsetter.games.registry import game_class, get_game
from pinsetter.i18n import N_, _
from pinsetter.usertext import visible

if TYPE_CHECKING:
    from pinsetter.records import Record
    from pinsetter.storage import Storage


@app.command()
def games(as_json: JsonOpt = False) -> None:
    """List the games with their players and options."""
    import shutil

    from pinsetter.catalog import catalog
    from pinsetter.ui.wrap import wrap_lines

    rows = catalog()
    if as_json:
        emit_json(rows)
        return
    width = max(40, shutil.get_terminal_size((80, 24)).columns - 1)
    indent = 20 if width >= 70 else 4  # a narrow terminal: the description under the id, not beside it

    def block(text: str, first: str, rest: int) -> None:
        """`text` wrapped on words after `first` (or on a line of its own when `first` is too long)."""
        if cell_len(first) > rest:
            typer.echo(first.rstrip())
            first = " " * rest
        lines = wrap_lines(text, width - rest) or [""]
        typer.echo(first + lines[0])
        for line in lines[1:]:
            typer.echo(" " * rest + line)

    for row in rows:
        block(f"{row['name']} - {row['summary']} ({row['players_text']})", f"{row['id']:<{indent - 1}} ", indent)
        files = {spec.name for spec in game_class(row["id"]).option_specs if spec.reads_file}
        for o in row["options"]:
            typer.echo(f"{'':<{indent}}--option {o['name']}={option_values_text(o)}")
            default = _("(default: {value})").format(value=option_default_words(o))
            block(f"{o['help']} {default}", " " * (indent + 2), indent + 2)
            if o["name"] in files:  # how to add one is for the command line only: the help in forms is for players
                added = _("a JSON or TOML file, or the same inline: --option {name}=FILE").format(name=o["name"])
                block(added, " " * (indent + 2), indent + 2)


def option_default_words(option: dict[str, Any]) -> str:
    """An option's default as a player says it: `off`, `Standard dice`, `connected pin groups`, `10`."""
    default = option["default"]
    if isinstance(default, bool):
        return _("on") if default else _("off")
    for preset in option["presets"]:  # a data option: the set by its name, not its data
        return str(preset["label"])
    if default in option["choices"] and option["choice_labels"]:
        return str(option["choice_labels"][option["choices"].index(default)])
    return str(default)


def option_values_text(option: dict[str, Any]) -> str:
    """What `--option NAME=` takes: `true|false`, `connected|mutual`, else `...` (the help says)."""
    if isinstance(option["default"], bool):
        return "true|false"
    if option["choices"]:
        return "|".join(str(c) for c in option["choices"])
    return "..."


@app.command()
def rules(game: GameArg) -> None:
    """Print a game's rules for players, in the current language.

    How to type moves and options is in `pinsetter play --help` and docs/cli.md.
    """
    echo_rules(get_game(game).rules())


def load_record(path: Path) -> Record:
    from pinsetter.records import Record, RecordError

    try:
        return Record.load(path)
    except RecordError as exc:
        fail(f"{visible(str(path))}: {exc}")


@app.command("replay")
def replay_cmd(
    record_file: Annotated[Path, typer.Argument(help=N_("a game record (JSON)"))],
    as_json: JsonOpt = False,
) -> None:
    """Replay a game record, verify every step, the seed's draws and the stated results, print the sheets."""
    from pinsetter.records import RecordError, replay
    from pinsetter.ui.sheet import render_sheets

    record = load_record(record_file)
    try:
        state = replay(record)
    except RecordError as exc:
        fail(f"{visible(str(record_file))}: {exc}")
    sheets = [state.scoresheet(p) for p in range(state.num_players)]
    if as_json:
        emit_json(
            {
                "game": record.game,
                "complete": state.is_terminal(),
                "chance": record.chance,
                "steps": len(record.steps),
                "players": [
                    {"name": spec.name, **sheet.to_dict()} for spec, sheet in zip(record.players, sheets, strict=True)
                ],
            }
        )
        return
    typer.echo(render_sheets([p.name for p in record.players], sheets, state.game.lane.frames))
    finished = state.is_terminal()
    status = _("game complete") if finished else _("game unfinished (resume with `pinsetter play --resume`)")
    if record.chance == "entered":
        line = _("{game}: {steps} steps verified, chance entered by hand (not from the seed), {status}")
    else:
        line = _("{game}: {steps} steps verified, {status}")
    typer.echo(line.format(game=_(state.game.name), steps=len(record.steps), status=status))


def load_game(resume: Path, storage: Storage | None) -> Record:
    """A record file, or a stored game by its id."""
    text = str(resume)
    if not resume.exists() and text.isascii() and text.isdigit():
        if storage is None:
            fail(_("no file {name}, and the game history cannot be opened").format(name=text))
        stored = storage.get(int(text))
        if stored is None:
            fail(_("no game {id} in the history").format(id=text))
        return stored.record
    return load_record(resume)


def _same_file(path: Path, other: Path | None) -> bool:
    """Whether `--record` names the very file `--resume` continues (a game written on where it was)."""
    return other is not None and other.exists() and path.resolve() == other.resolve()


@app.command()
def play(
    game: Annotated[str | None, typer.Argument(help=N_("game id; asked for when omitted"))] = None,
    players: Annotated[
        str | None, typer.Option("--players", "-p", help=N_("comma separated: names, or bot:NAME (default: Player 1)"))
    ] = None,
    seed: SeedOpt = None,
    option: OptionOpt = None,
    record: Annotated[Path | None, typer.Option(help=N_("write the record here, after every step"))] = None,
    resume: Annotated[Path | None, typer.Option(help=N_("resume the game in this record, or a game id"))] = None,
    deal: Annotated[str | None, typer.Option(help=N_("bowling-solitaire: play the first frame from this deal"))] = None,
    daily: Annotated[
        str | None,
        typer.Option(help=N_("replay the daily challenge of a past day (YYYY-MM-DD, UTC) with its published --seed")),
    ] = None,
    db: DbOpt = None,
) -> None:
    """Play a game line by line (bots-only games run to the end without input).

    Every game is kept in the history database after every step; --resume takes a
    record file or a game id from `pinsetter history`.

    Each prompt lists the moves it takes, typed in the game's notation:

      Rolling Pins: `dice 1` or `dice 2` (roll one or two dice), `cross 2+5`
      (cross out pins 2 and 5), `cross 4+6 tokens +3` (the same, three tokens
      raising the roll), `miss`; in the advanced game also `reroll`, `flip N`,
      `keep 1+3`, `extra-dice`, `extra-pin N`, `pass`, `ten-pin`, `auto-strike`
      and `mark N` (a box in area N of the track: 1-5 upper row, 6-10 lower).

      Bowling Solitaire: `3:4+5+8` (the card on pile 3 takes pins 4, 5 and 8),
      `stop` (end the ball).

      Ten Pins and Bowling Dice: Enter rolls.

    Options are `--option key=value` (`pinsetter games` lists them), e.g.
    `-o advanced=true -o shared_dice=true`. At any prompt: help, hint, undo,
    sheet, rules, quit. docs/cli.md has the details; `pinsetter rules GAME` the rules.
    """
    from pinsetter.cli.play import pick_game, play_lines
    from pinsetter.records import PlayerSpec, player_name
    from pinsetter.session import Match

    output_path(record, "--record")  # nothing but a regular file, or nothing, is there
    if record is not None and os.path.lexists(record) and not _same_file(record, resume):
        # Never written over, even empty: a record replaces only the file it made (or --resume's).
        if record.stat().st_size:
            message = _(
                "--record {path}: the file exists and is not overwritten; continue its game with "
                "`pinsetter play --resume {path}`, or give a new file name"
            )
        else:
            message = _("--record {path}: an empty file is there and is not overwritten; give a new file name")
        fail(message.format(path=visible(str(record))))
    try:
        if resume is not None:
            if daily is not None:
                fail(_("--daily starts a past day's challenge afresh: give no --resume with it"))
            if game is not None or deal is not None or option or players is not None or seed is not None:
                fail(
                    _("--resume continues a recorded game: give no game, --players, --seed, --option or --deal with it")
                )
            storage = try_storage(db)
            loaded = load_game(resume, storage)
            target = record
            if target is None and resume.exists():  # the game is written on in its own file (links followed)
                target = output_path(Path(os.path.realpath(resume)), "--resume")
            match = Match.resume(loaded, target)
            if record is not None:  # a new file for the resumed game: there at once, as for a new game
                match.record.save(record)
        else:
            if daily is not None and game is None:
                fail(_("--daily needs the game: pinsetter play --daily DATE GAME --seed N"))
            game_id = pick_game() if game is None else game
            get_game(game_id)  # an unknown game is reported before anything else
            specs = PlayerSpec.parse_list(players) if players is not None else [PlayerSpec(player_name(1))]
            options = (
                parse_options(game_id, option) if daily is None else daily_challenge(daily, game_id, seed, option, deal)
            )
            script = None
            if deal is not None:
                if game_id != "bowling-solitaire":
                    fail(_("--deal is for bowling-solitaire"))
                from pinsetter.games.bowling_solitaire import Deal, deal_script

                script = deal_script(Deal.parse(deal))  # a bad deal is refused before anything is kept
            match = Match.new(game_id, specs, seed, options, record)
            if deal is not None:
                match.record.extra["deal"] = deal
                match.chance_script = script
            storage = try_storage(db)
            if record is not None:
                match.record.save(record)
        match.storage = storage
        match.store()
    except (GameError, ValueError) as exc:
        fail(str(exc))
    play_lines(match, db)


def daily_challenge(
    day_text: str, game: str, seed: int | None, option: list[str] | None, deal: str | None
) -> dict[str, object]:
    """The options of a past day's daily challenge, once `--daily` and its seed are checked (docs/daily.md).

    The seed is the one the server published when the day ended: this command cannot work it out
    (it needs the server's secret), nor tell a wrong one from the right one.
    """
    from pinsetter.storage.daily import daily_options, parse_day, today

    try:
        day = parse_day(day_text)
    except ValueError as exc:
        fail(_("--daily: {error}").format(error=exc))
    if day >= today():
        message = _(
            "--daily {day}: that day is not over yet (UTC); its challenge is played on the server, "
            "and its seed is published when the day ends"
        )
        fail(message.format(day=day.isoformat()))
    if option or deal is not None:
        fail(_("--daily plays the challenge as everybody played it: give no --option or --deal with it"))
    if seed is None:
        fail(_("--daily needs the day's seed, which the server publishes once the day is over: add --seed N"))
    return daily_options(game)


def _solitaire_hint(deal_text: str, groups: str, objective: str) -> dict[str, Any]:
    """Options at the start of a deal, from the player's view (face-down cards unknown)."""
    from pinsetter.bots.solitaire import OBJECTIVES, ExpectimaxBot
    from pinsetter.games.bowling_solitaire import GROUP_RULES, BowlingSolitaire, Deal, deal_script

    if groups not in GROUP_RULES:
        fail(_("--groups must be connected or mutual, not {value}").format(value=repr(visible(groups))))
    if objective not in OBJECTIVES:
        fail(
            _("--objective must be one of {choices}, not {value}").format(
                choices=", ".join(OBJECTIVES), value=repr(visible(objective))
            )
        )
    try:
        deal = Deal.parse(deal_text)
    except GameError as exc:
        fail(_("--deal: {error}").format(error=exc))
    game = BowlingSolitaire({"groups": groups})
    state = game.new_state()
    script = deal_script(deal)
    while state.is_chance_node():  # deals the pins and turns up the three tops only
        step = script(state)
        assert step is not None
        state.apply(step)
    if state.pinfalls[0]:
        return {"value": 0.0, "options": [], "note": _("no legal play: ball 1 ends at once")}
    values = ExpectimaxBot(game, objective).evaluate(state) or []
    options = [{"action": str(a), "words": game.action_words(state, str(a)), "value": v} for a, v in values]
    return {"value": values[0][1], "options": options}


@app.command()
def hint(
    game: GameArg,
    record: Annotated[Path | None, typer.Option(help=N_("the position at the end of this record"))] = None,
    deal: Annotated[str | None, typer.Option(help=N_("bowling-solitaire: the start of this deal"))] = None,
    groups: Annotated[str, typer.Option(help=N_("bowling-solitaire: connected or mutual"))] = "connected",
    objective: Annotated[str, typer.Option(help=N_("bowling-solitaire: score, pins or strike"))] = "score",
    chances: Annotated[
        bool,
        typer.Option(
            "--chances",
            help=N_("rolling-pins with other players: each option's chance to finish ahead of them too"),
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """The value of every option at a decision, from the solvers."""
    played = get_game(game)
    if not played.has_decisions:  # said before asking for a position it would have no hint for
        from pinsetter.bots.hints import no_decisions_words

        fail(no_decisions_words(played))
    if chances and game != "rolling-pins":
        fail(_("--chances is for Rolling Pins (basic rules, with other players)"))
    if deal is not None:
        if game != "bowling-solitaire":
            fail(_("--deal is for bowling-solitaire"))
        if record is not None:
            fail(_("give either --record or --deal, not both"))
        result = _solitaire_hint(deal, groups, objective)
        if as_json:
            emit_json(result)
        else:
            typer.echo(_("value ({objective}): {value}").format(objective=objective, value=f"{result['value']:.6f}"))
            for row in result["options"]:
                typer.echo(f"  {row['value']:10.6f}  {row['words']}")
        return
    if record is None:
        fail(_("give the position: --record FILE (or --deal for bowling-solitaire)"))
    from pinsetter.bots.hints import (
        CHANCE_LABEL,
        CHANCES_WAIT,
        best_chances,
        chance_line,
        chances_take_a_while,
        is_estimate,
        offers_chances,
        option_values,
        percent,
        win_chances,
    )
    from pinsetter.records import RecordError, replay

    loaded = load_record(record)
    if loaded.game != game:
        fail(_("{file} is a {kind} record, not {game}").format(file=visible(str(record)), kind=loaded.game, game=game))
    try:
        state = replay(loaded, check_result=False)
    except RecordError as exc:
        fail(f"{visible(str(record))}: {exc}")
    if state.is_terminal() or state.is_chance_node():
        message = _("{file}: no decision to make at the end of this record (game over or dice to roll)")
        fail(message.format(file=visible(str(record))))
    found = option_values(state)
    if found is None:
        fail(_("no bot can value the options of {game} here").format(game=game))
    bot, label, values = found
    if chances and not as_json and offers_chances(state) and chances_take_a_while(state):
        typer.echo(_(CHANCES_WAIT), err=True)
    chance_of = win_chances(state) if chances else None
    if chances and chance_of is None:
        fail(
            _("{file}: no chances to finish ahead here: they are for basic Rolling Pins with other players").format(
                file=visible(str(record))
            )
        )
    estimate = is_estimate(state)
    data: dict[str, Any] = {
        "player": state.current_player(),
        "bot": bot,
        "estimate": estimate,
        "meaning": label,
        "value": values[0][1],
        "options": [{"action": str(a), "words": state.game.action_words(state, str(a)), "value": v} for a, v in values],
    }
    if chance_of is not None:
        data["chance_meaning"] = _(CHANCE_LABEL)
        for option_row in data["options"]:
            option_row["chance"] = chance_of[option_row["action"]]
    if as_json:
        emit_json(data)
        return
    typer.echo(state.describe())
    typer.echo(_("Values: {meaning}").format(meaning=label))
    if chance_of is not None:
        # Two measures: columns with headings, and which option is best by each.
        typer.echo(chance_line())
        likeliest = best_chances(chance_of)
        score, ahead, move = _("score"), _("chance ahead"), _("move")  # headings (outside an f-string: extracted)
        typer.echo(f"  {score:>9}  {ahead:>11}  {move}")
        for index, option_row in enumerate(data["options"]):
            marks = [_("best score")] if index == 0 else []
            if option_row["action"] in likeliest:
                marks.append(_("best chance"))
            note = f"  ({_('; ').join(marks)})" if marks else ""
            typer.echo(
                f"  {option_row['value']:9.4f}  {percent(option_row['chance']):>11}  {option_row['words']}{note}"
            )
        return
    for option_row in data["options"]:
        typer.echo(f"  {option_row['value']:9.4f}  {option_row['words']}")

"""`pinsetter review RECORD|ID`: a game's decisions against the best ones (pinsetter.review), in a terminal."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pinsetter.cli.common import DbOpt, JsonOpt, app, emit_json, fail, open_storage, utf8_text
from pinsetter.core.game import GameError
from pinsetter.i18n import N_, _, ngettext
from pinsetter.usertext import visible

if TYPE_CHECKING:
    from pinsetter.records import Record
    from pinsetter.review import PlayerReview, Review


def load_target(target: str, db: str | None) -> tuple[Record, str]:
    """A record file, or a game of the history by its id (digits that name no file); and how to name it."""
    from pinsetter.cli.game_commands import load_record

    path = Path(target)
    if not path.exists() and target.isascii() and target.isdigit():
        stored = open_storage(db, read_only=True).get(int(target))
        if stored is None:
            fail(_("no game {id} in the history").format(id=target))
        return stored.record, _("game {id}").format(id=target)
    return load_record(path), visible(target)


@app.command("review")
def review_cmd(
    target: Annotated[
        str, typer.Argument(metavar="RECORD|ID", help=N_("a game record (JSON), or a game id from `pinsetter history`"))
    ],
    player: Annotated[
        str | None,
        typer.Option(help=N_("review this player's decisions (default: every human's)"), parser=utf8_text),
    ] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Review a game: each decision's loss against the best move, an accuracy figure, the costliest three.

    Values are expected final scores: exact for basic Rolling Pins, the Expert bot's estimates for
    Bowling Solitaire (docs/review.md says what the numbers mean).
    """
    from pinsetter.records import RecordError
    from pinsetter.review import review, seat_named

    record, name = load_target(target, db)
    try:
        seats = None if player is None else [seat_named(record, player)]
        result = review(record, seats)
    except RecordError as exc:
        fail(f"{name}: {exc}")
    except GameError as exc:
        fail(str(exc))
    if as_json:
        emit_json(result.to_json())
        return
    typer.echo(review_text(result, name))


def review_text(result: Review, name: str) -> str:
    """The review as a terminal shows it: per player, the figures, the decisions that lost points, the costliest."""
    heading = _("Review of {what}: {game}").format(what=name, game=result.title)
    if not result.complete:
        heading += _(" (unfinished)")
    lines = [heading, _("Values: {meaning}").format(meaning=result.meaning)]
    for seat in result.players:
        lines += ["", *player_lines(seat)]
    return "\n".join(lines)


def player_lines(seat: PlayerReview) -> list[str]:
    from pinsetter.cli.history_commands import fitted_table, terminal_width

    who = visible(seat.name)
    if not seat.decisions:
        return [_("{name}: no decisions yet").format(name=who)]
    figure = seat.accuracy_words(who)
    lines = [
        figure,
        "  " + _("points lost to the best moves: {loss}").format(loss=f"{seat.total_loss:.2f}"),
    ]
    if seat.finished:
        path = _("expected score {start} at the start; final score {score}; luck {luck}")
    else:
        path = _("expected score {start} at the start, {end} now; luck so far {luck}")
    lines.append(
        "  " + path.format(start=f"{seat.start:.1f}", end=f"{seat.end:.1f}", score=seat.score, luck=f"{seat.luck:+.1f}")
    )
    lost = [d for d in seat.decisions if not d.best]
    if not lost:
        lines.append("  " + _("every decision was the best move"))
        return lines
    lines.append(
        ngettext("{count} decision lost points:", "{count} decisions lost points:", len(lost)).format(count=len(lost))
    )
    headers = [_("frame"), _("ball"), _("your move"), _("best move"), _("loss")]
    rows = []
    for d in lost:
        mine = d.words if d.own else _("{move} (played by a bot)").format(move=d.words)
        rows.append([str(d.frame), str(d.ball), mine, d.best_words, f"{d.loss:.2f}"])
    table = fitted_table(headers, rows, terminal_width() - 2)
    lines += ["  " + line for line in table.splitlines()]
    costliest = seat.costliest
    if costliest:
        lines.append(_("The costliest decisions:"))
        for rank, d in enumerate(costliest, start=1):
            lines.append(f"  {rank}. {d.situation}")
            lines.append("     " + _("you chose: {move}").format(move=d.words))
            lines.append(
                "     " + _("best: {move}, worth {loss} points more").format(move=d.best_words, loss=f"{d.loss:.2f}")
            )
    return lines

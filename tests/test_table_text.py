"""The terminal's table in words: the running pick says what the web page says, and a roll's words stay whole."""

from __future__ import annotations

from pinsetter.core.table import TableView
from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.ui.table_text import draw_pins, draw_table, selection_line
from pinsetter.ui.wrap import wrap_text


def view_where(match: Match, ready: object) -> TableView:
    """Play the first legal decision and the seed's chance until `ready(view)` holds; that view."""
    names = [p.name for p in match.players]
    for _ in range(200):
        last = next((s.text for s in reversed(match.record.steps) if s.actor is None), "")
        view = match.game.table(match.state, names, last)
        if not match.state.is_chance_node() and ready(view):  # type: ignore[operator]
            return view
        match.apply(match.draw_chance() if match.state.is_chance_node() else match.state.legal_actions()[0])
    raise AssertionError("no such position in 200 steps")


def test_a_rolling_pins_pick_is_words_with_what_it_asks_of_the_tokens() -> None:
    match = Match.new("rolling-pins", [PlayerSpec("ann")], seed=5)
    view = view_where(match, lambda v: v.selection is not None and v.selection.target is not None)
    assert view.selection is not None and view.selection.target is not None and view.selection.tokens is not None
    target, held = view.selection.target, view.selection.tokens
    first, second = selection_line(view, {3, 1}, None).split("\n")
    assert first == f"Picked pins 1 + 3: sum 4 · target {target}"
    moved = 4 - target
    if moved == 0:
        assert second == f"Tokens: {held} held · this pick needs no token"
    else:
        tokens = "token" if abs(moved) == 1 else "tokens"
        assert second == f"Tokens: {held} held · this pick moves the total by {moved:+d} ({abs(moved)} {tokens})"
    exact = {target} if target <= 10 else {10, target - 10}
    assert selection_line(view, exact, None).endswith("this pick needs no token")
    assert selection_line(view, set(), None) == ""  # nothing picked: nothing said
    assert "+" not in first.replace(" + ", "")  # no `1+3` notation


def test_a_solitaire_pick_says_the_cards_where_they_lie_and_the_piles_card() -> None:
    match = Match.new("bowling-solitaire", [PlayerSpec("ann")], seed=7)
    view = view_where(match, lambda v: v.selection is not None and v.selection.needs_pile)
    assert view.selection is not None and view.selection.modulo == 10
    picked = [spot.number for spot in view.pins if spot.value is not None][:2]
    cards = [view.pin(n) for n in picked]
    total = sum(spot.value or 0 for spot in cards if spot is not None)
    said = " + ".join(f"{spot.label} (pin {spot.number})" for spot in cards if spot is not None)
    digit = f"Picked {said}: sum {total}, last digit {total % 10}"
    assert selection_line(view, set(picked), None) == digit + "; pick a pile (p)"
    pile = next(p for p in view.piles if p.top is not None and p.top.isdigit())
    assert pile.top is not None
    assert selection_line(view, set(picked), pile.number) == f"{digit} · target {int(pile.top) % 10}"


def test_a_rolls_words_stay_whole_beside_the_dice_or_under_them() -> None:
    match = Match.new("tenpins", [PlayerSpec("ann")], seed=7)
    match.apply(match.draw_chance())
    view = view_where(match, lambda v: bool(v.dice_caption))
    caption = view.dice_caption
    wide = draw_table(view, width=0, roll_by="ann").plain.split("\n")
    dice_line = next(line for line in wide if line.startswith("last roll (ann):"))
    assert dice_line.endswith("  " + caption)  # beside the dice when there is room
    narrow = draw_table(view, width=len(dice_line) - 1, roll_by="ann").plain.split("\n")
    assert caption in narrow  # a line of its own, whole, never cut at the edge
    assert not any(line.endswith(caption) and line != caption for line in narrow)


def test_a_roll_said_at_more_length_than_a_line_stays_beside_the_dice() -> None:
    """Moved under the dice it would fold anyway, and cost a row: it stays beside them, folded on its words."""
    match = Match.new("bowling-dice", [PlayerSpec("ann")], seed=7)
    view = view_where(match, lambda v: len(v.dice_caption) > 30)
    lines = draw_table(view, width=30, roll_by="ann").plain.split("\n")
    assert view.dice_caption not in lines
    assert any(line.endswith("  " + view.dice_caption) for line in lines)


def test_the_dice_stay_on_one_line_under_whose_roll_they_are() -> None:
    """Ten dice after a long name do not fit a 55-cell column: the dice go under "last roll (...):", whole,
    rather than folding one die onto the next line."""
    match = Match.new("bowling-dice", [PlayerSpec("ann")], seed=7)
    view = view_where(match, lambda v: len(v.dice) == 10)
    faces = " ".join(line for line in draw_table(view).plain.split("\n") if line.startswith("dice: "))
    faces = faces.removeprefix("dice: ").split("  ")[0].rstrip()
    assert faces.count("[") == 10
    lines = wrap_text(draw_table(view, width=55, roll_by="Maximilian"), 55).plain.split("\n")  # as shown
    assert "last roll (Maximilian):" in lines and any(line.startswith(faces) for line in lines), lines


def test_a_solitaire_card_reads_apart_from_its_key_without_colour() -> None:
    """Each card in brackets with its key before it (`7 [10]`), a picked one marked `✓`, a pin down `x`: the
    triangle reads in monochrome (it read `7  10   8  10`), and each card keeps its coloured cell."""
    match = Match.new("bowling-solitaire", [PlayerSpec("ann")], seed=7)
    view = view_where(match, lambda v: v.selection is not None and any(s.down for s in v.pins))
    standing = [spot for spot in view.pins if not spot.down]
    picked = {standing[0].number}
    text = draw_pins(view, picked)
    plain = text.plain
    for spot in standing:
        assert f"{spot.key}{'✓' if spot.number in picked else ' '}[{spot.label:>2}]" in plain, plain
    assert all(f"{spot.key}   x" in plain for spot in view.pins if spot.down), plain
    cells = {plain[span.start : span.end]: str(span.style) for span in text.spans}
    assert cells[f"[{standing[-1].label:>2}]"] == "bold white on blue"  # the coloured look, kept
    assert cells[f"[{standing[0].label:>2}]"] == cells["✓"] == "bold black on yellow"
    assert "The number before a [card] is its key." in plain


def test_the_key_sentence_goes_beside_the_triangle_where_it_fits() -> None:
    """Beside the pins, where the legend is, it costs no row of a short window; where it does not fit, under."""
    match = Match.new("bowling-solitaire", [PlayerSpec("ann")], seed=7)
    view = view_where(match, lambda v: v.selection is not None and any(s.down for s in v.pins))
    beside = draw_pins(view, set(), width=59).plain.rstrip("\n").split("\n")
    assert len(beside) == len(view.rows) and max(len(line) for line in beside) <= 59
    said = " ".join(" ".join(line[32:].split()) for line in beside).strip()  # right of the 4 pins of 8 cells
    assert said.endswith("The number before a [card] is its key.")
    under = draw_pins(view, set(), width=41).plain.rstrip("\n").split("\n")
    assert len(under) == len(view.rows) + 1 and under[-1] == "The number before a [card] is its key."


def test_the_abilities_held_are_listed_in_words_under_the_track() -> None:
    from pinsetter.games.registry import get_game
    from pinsetter.ui.table_text import draw_table

    game = get_game("rolling-pins", {"advanced": "true"})
    state = game.new_state(1)
    player = state.players[0]  # type: ignore[attr-defined]
    player.held["reroll"], player.held["flip"], player.marks[0] = 1, 2, 1
    legend = draw_table(game.table(state, ["ann"])).plain.rstrip().split("\n")[-1]
    assert legend.endswith("held now: Flip (2), Reroll")
    assert " x1" not in legend and " x2" not in legend  # a count in words, not a multiplication sign

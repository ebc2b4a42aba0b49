"""A small RGB picture of a table, for `render_mode="rgb_array"` (numpy only).

It draws the game's own `TableView` (core/table.py), so it never asks which
game it is drawing: the pins as circles in their rows (standing white, grey
pins grey, knocked down as a dark ring, what a pin counts for as a bar
under it),
the dice with their pips, Solitaire's piles (a bar for the top card, one
stripe per card), the tokens as gold dots, and along the bottom the player's
pinfall, ball by ball, with the running score as a bar. The picture is a fixed
size, so a sequence of them makes a video.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from pinsetter.core.table import TableView

__all__ = ["HEIGHT", "WIDTH", "table_picture"]

HEIGHT, WIDTH = 180, 320
Image = npt.NDArray[np.uint8]
Colour = tuple[int, int, int]

LANE: Colour = (24, 64, 40)
PIN: Colour = (240, 240, 235)
GREY_PIN: Colour = (150, 150, 150)
DOWN: Colour = (70, 100, 80)
VALUE: Colour = (220, 60, 60)
DIE: Colour = (250, 250, 250)
PIP: Colour = (20, 20, 20)
CARD: Colour = (200, 200, 240)
TOKEN: Colour = (230, 190, 40)
BALL: Colour = (120, 170, 250)
SCORE: Colour = (250, 140, 60)

_Y, _X = np.mgrid[0:HEIGHT, 0:WIDTH]

# Where the pips of faces 1-6 sit on a die, as fractions of its side.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.25, 0.75), (0.75, 0.25), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.25, 0.75), (0.5, 0.25), (0.5, 0.75), (0.75, 0.25), (0.75, 0.75)),
}


def _disc(image: Image, y: float, x: float, radius: float, colour: Colour) -> None:
    image[(_Y - y) ** 2 + (_X - x) ** 2 <= radius**2] = colour


def _ring(image: Image, y: float, x: float, radius: float, colour: Colour) -> None:
    distance = (_Y - y) ** 2 + (_X - x) ** 2
    image[(distance <= radius**2) & (distance >= (radius - 2) ** 2)] = colour


def _box(image: Image, top: int, left: int, height: int, width: int, colour: Colour) -> None:
    top, left = max(top, 0), max(left, 0)
    image[top : min(top + height, HEIGHT), left : min(left + width, WIDTH)] = colour


def _pins(image: Image, view: TableView) -> None:
    spots = {spot.number: spot for spot in view.pins}
    for row_index, row in enumerate(view.rows):
        y = 22 + 34 * row_index
        for column, number in enumerate(row):
            spot = spots.get(number)
            if spot is None:
                continue
            x = 80 + 34 * column - 17 * (len(row) - 1)
            if spot.down:
                _ring(image, y, x, 12, DOWN)
                continue
            _disc(image, y, x, 12, GREY_PIN if spot.grey else PIN)
            if spot.value is not None:  # what the pin counts for (a Solitaire card's value)
                _box(image, y + 5, x - 10, 3, 2 * spot.value, VALUE)
    if not view.pins and view.standing is not None:  # a game without pin identities: a bar of pins standing
        _box(image, 20, 20, 8, 12 * view.standing, PIN)


def _dice(image: Image, view: TableView) -> None:
    for index, die in enumerate(view.dice):
        top, left, side = 12, 170 + 34 * index, 28
        _box(image, top, left, side, side, DIE)
        if die.kind == "pips" and die.face.isdigit():
            for fy, fx in PIPS.get(int(die.face), ()):
                _disc(image, top + fy * side, left + fx * side, 2.5, PIP)
        else:  # a Bowling Dice face: X strike, / spare, P pin, - blank, as a mark
            mark = {"X": 3, "/": 2, "P": 1}.get(die.face, 0)
            for stripe in range(mark):
                _box(image, top + 6 + 6 * stripe, left + 6, 3, side - 12, PIP)


def _piles(image: Image, view: TableView) -> None:
    for index, pile in enumerate(view.piles):
        left = 170 + 46 * index
        _box(image, 56, left, 40, 36, CARD if pile.cards else DOWN)
        if pile.top is not None and pile.top.isdigit():
            _box(image, 62, left + 4, 4, 3 * int(pile.top), VALUE)
        for card in range(pile.cards):
            _box(image, 100 + 4 * card, left, 2, 36, CARD)


def _tokens(image: Image, view: TableView) -> None:
    for index in range(min(view.tokens or 0, 12)):
        _disc(image, 128, 176 + 12 * index, 4, TOKEN)


def _sheet(image: Image, pinfalls: Sequence[int], rack: int, score: int, max_score: int, balls: int) -> None:
    width = max(1, (WIDTH - 20) // max(balls, 1))
    for index, pins in enumerate(pinfalls[:balls]):
        height = round(24 * pins / max(rack, 1))
        _box(image, 170 - height, 10 + width * index, max(height, 1), max(width - 2, 1), BALL)
    _box(image, 140, 10, 4, round((WIDTH - 20) * score / max(max_score, 1)), SCORE)


def table_picture(view: TableView, pinfalls: Sequence[int], rack: int, score: int, max_score: int, balls: int) -> Image:
    """An HEIGHT x WIDTH x 3 uint8 picture of `view`, with the player's `pinfalls` and `score` below.

    `rack` is the pins in a rack and `balls` the most balls a game can have (so
    the bars keep their places from one picture to the next).
    """
    image = np.empty((HEIGHT, WIDTH, 3), np.uint8)
    image[:] = LANE
    _pins(image, view)
    _dice(image, view)
    _piles(image, view)
    _tokens(image, view)
    _sheet(image, pinfalls, rack, score, max_score, balls)
    return image

"""Observation vectors are stable: a digest of every vector of a seeded game, per game (issue 29, part 2).

The observer keeps each player's common entries by pinfalls and the games set their own
entries by name (`FeatureLayout`); the digests were taken before those changes, from the
entry-by-entry code, so the vectors are the same, value for value, and stay so.
"""

from __future__ import annotations

import hashlib

import pytest

from pinsetter.games.registry import get_game
from pinsetter.integrations.encoding import Observer
from pinsetter.records import PlayerSpec
from pinsetter.session import Match


@pytest.mark.parametrize(
    ("game_id", "options", "players", "digest"),
    [
        ("rolling-pins", {}, 1, "38ccf04905292c2a"),
        ("rolling-pins", {"advanced": "true"}, 2, "cf680e5a44f041e0"),
        ("bowling-solitaire", {}, 1, "9f3343b86ad87df3"),
    ],
)
def test_observation_vectors_of_a_seeded_game_are_unchanged(
    game_id: str, options: dict[str, object], players: int, digest: str
) -> None:
    game = get_game(game_id, options)
    observer = Observer(game, players)
    sha = hashlib.sha256("\n".join(observer.names).encode())
    match = Match(game, [PlayerSpec(f"p{i}", "random") for i in range(players)], 7)
    vectors = 0
    while not match.state.is_terminal():
        for p in range(players):
            sha.update(observer.vector(match.state, p).tobytes())
            vectors += 1
        match.advance()
    assert vectors > 100 and sha.hexdigest()[:16] == digest


@pytest.mark.parametrize("game_id", ["rolling-pins", "bowling-solitaire", "tenpins", "bowling-dice"])
def test_observation_values_are_the_values_of_the_views_features(game_id: str) -> None:
    """`Game.observation_values` (what the observer reads; Solitaire's skips the view) is
    `observation_features(view)` value for value, for every player in every position of seeded games."""
    from pinsetter.games.registry import GAMES

    cls = GAMES[game_id]
    positions = 0
    for options in cls.conformance_options:
        game = get_game(game_id, options)
        for players in sorted({cls.min_players, min(cls.max_players, 2)}):
            for seed in range(4):
                match = Match(game, [PlayerSpec(f"p{i}", "random") for i in range(players)], seed)
                while True:
                    for p in range(players):
                        expected = [value for _, value in game.observation_features(match.state.view(p))]
                        assert game.observation_values(match.state, p) == expected
                        positions += 1
                    if match.state.is_terminal():
                        break
                    match.advance()
    assert positions > 500

"""Every player's board in the game view (issue 25, item 3): `GameView.boards`, one per seat, read only.

A board shows what everybody at the table may see of that player: the table of
the player up, and for the others their own sheet where the game keeps one
(Rolling Pins: pins, tokens, ability track) or a status line (Ten Pins, Bowling
Dice). No board offers a choice or a pick: only the viewer's own table acts.
The tests check each board against the engine's own position of that player,
over the game API and over a shared-dice table's WebSocket.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pinsetter.games.registry import GAMES, game_class, get_game
from test_web_api import new_game
from test_web_tables import host, receive, sit, start, steps

FULL = set(range(1, 11))
game_class("tenpins")  # loads the registry
CASES = [(gid, options) for gid in sorted(GAMES) for options in GAMES[gid].conformance_options]


def assert_read_only(board: dict[str, Any]) -> None:
    """Nothing on a board can be chosen or picked, and it carries no help texts (the large board has them)."""
    assert board["choices"] == [] and board["selection"] is None and board["roll_label"] == ""
    assert not any(pin["selectable"] for pin in board["pins"])
    assert not any(pile["selectable"] for pile in board["piles"])
    assert all(area["help"] == "" for area in board["track"]) and all(a["help"] == "" for a in board["abilities"])


def down(board: dict[str, Any]) -> set[int]:
    return {pin["number"] for pin in board["pins"] if pin["down"]}


def engine_sheet(client: TestClient, game_id: int, player: int) -> dict[str, Any]:
    """The player's own sheet as the engine holds it (`State.view`: what that player may see)."""
    match = client.app.state.service.match(game_id)  # type: ignore[attr-defined]
    sheet: dict[str, Any] = match.state.view(player)["players"][player]
    return sheet


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_every_game_draws_a_read_only_board_for_every_player_at_every_step(
    game_id: str, options: dict[str, object]
) -> None:
    """Through the game API alone, so a game added later gets boards (and a sheet per player if it overrides)."""
    game = get_game(game_id, options)
    players = min(3, game.max_players)
    state = game.new_state(players)
    rng = random.Random(5)
    names = [f"p{i}" for i in range(players)]
    while True:
        up = [] if state.is_terminal() else [state.turn(), *state.deciders()]
        for player in range(players):
            board = game.board(state, player, names).model_dump(mode="json")
            assert board["player"] == player
            assert_read_only(board)
            if player in up or players == 1:  # the bowler's board (or a decider's) is their table
                assert board["status"] == game.table(state.seen_by(player), names).status
            else:
                assert board["status"].startswith(f"p{player}: ")
        if state.is_terminal():
            break
        step = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply(step)


@pytest.mark.parametrize(
    "options", [{"frames": 3}, {"frames": 3, "advanced": True}, {"frames": 3, "shared_dice": True, "advanced": True}]
)
def test_a_kept_waiting_sheet_is_the_sheet_drawn_anew_at_every_step(options: dict[str, object]) -> None:
    """Rolling Pins keeps a waiting player's board until what it shows changes: the same JSON as drawing it anew."""
    from pinsetter.games.rolling_pins_table import rolling_pins_table
    from pinsetter.i18n import using_language

    game = get_game("rolling-pins", options)
    players = 4
    state = game.new_state(players)
    rng = random.Random(3)
    names = [f"p{i}" for i in range(players)]
    kept = 0
    while True:
        for language in ("en", "ja"):
            with using_language(language):
                for player in range(players):
                    board = game.board(state, player, names)
                    kept += game.board(state, player, names) is board
                    if state.is_terminal() or player not in (state.turn(), *state.deciders()):
                        status = game.waiting_status(state, player, names)
                        anew = rolling_pins_table(state, names, seat=player).as_board(player, status)
                        assert board.model_dump_json() == anew.model_dump_json()
        if state.is_terminal():
            break
        step = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply(step)
    assert kept > 0


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_the_views_boards_are_byte_for_byte_the_games_boards(game_id: str, options: dict[str, object]) -> None:
    """The view's boards (made from the table's data, or kept from a step before) encode exactly as the game's own."""
    import itertools

    import orjson

    from pinsetter.i18n import using_language
    from pinsetter.records import PlayerSpec
    from pinsetter.session import Match
    from pinsetter.web.service import GameService, game_view_data

    game = get_game(game_id, options)
    players = min(3, game.max_players)
    match = Match.new(game_id, [PlayerSpec(f"p{i}") for i in range(players)], 5, dict(options))
    rng = random.Random(5)
    for moment in itertools.count():
        state = match.state
        with using_language("ja" if moment % 3 == 2 else "en"):  # a table's seats may read two languages
            view = game_view_data(match, GameService.next_of(match))
            names = [p.name for p in match.players]
            last_chance = next((s.text for s in reversed(match.record.steps) if s.actor is None), "")
            table = match.game.table(state, names, last_chance)
            drawn = [
                match.game.board(state, i, names, last_chance, drawn=table).model_dump(mode="json")
                for i in range(players)
            ]
        assert orjson.dumps(view["boards"]) == orjson.dumps(drawn)
        assert orjson.dumps(view["view"]) == orjson.dumps(table.model_dump(mode="json"))
        if state.is_terminal():
            break
        if state.is_chance_node():
            match.apply(match.draw_chance())
        else:
            seat = state.deciders()[-1]
            mine = state if seat == state.turn() else state.as_decider(seat)
            match.apply_for(seat, rng.choice(list(mine.legal_actions())))


def test_a_local_ten_pins_game_has_a_board_per_player_that_follows_the_turn(client: TestClient) -> None:
    view = new_game(client, "tenpins", [("Ann", "human"), ("Bob", "human")], options={"frames": 2}, seed=3)
    gid = view["id"]
    seen_turns = set()
    for _ in range(60):
        boards = view["boards"]
        assert [b["player"] for b in boards] == [0, 1]
        for board in boards:
            assert_read_only(board)
        if view["terminal"]:
            break
        turn = view["turn"]
        seen_turns.add(turn)
        other = 1 - turn
        # The bowler's board is the table (pins standing, the dice); the other's is their name and state.
        assert boards[turn]["standing"] == view["view"]["standing"] is not None
        assert boards[turn]["status"] == view["view"]["status"]
        assert boards[other]["standing"] is None and boards[other]["dice"] == []
        assert boards[other]["status"] == f"{('Ann', 'Bob')[other]}: waiting"
        view = client.post(f"/api/games/{gid}/advance", json={"until": "step"}).json()
    assert view["terminal"] and seen_turns == {0, 1}
    assert [b["status"] for b in view["boards"]] == ["Ann: finished", "Bob: finished"]


def test_rolling_pins_boards_show_each_players_own_sheet_at_every_step(client: TestClient) -> None:
    players = [("Ann", "human"), ("Bob", "human"), ("Cy", "human")]
    view = new_game(client, "rolling-pins", players, options={"advanced": True, "frames": 2}, seed=8)
    gid = view["id"]
    crossed_by_others = False
    for step in range(400):
        boards = view["boards"]
        assert len(boards) == 3
        for index, board in enumerate(boards):
            assert_read_only(board)
            sheet = engine_sheet(client, gid, index)
            assert down(board) == FULL - set(sheet["standing"]), (step, index)
            assert board["tokens"] == sheet["tokens"]
            assert [a["marked"] for a in board["track"]] == sheet["marks"]
            assert {p["number"] for p in board["pins"] if p["grey"]} == set(sheet["grey"])
            if not view["terminal"] and index != view["turn"]:
                assert board["status"] == f"{players[index][0]}: waiting" and board["dice"] == []
                crossed_by_others = crossed_by_others or bool(down(board))
        if view["terminal"]:
            break
        if not view["terminal"]:
            mine = boards[view["turn"]]
            assert [p["number"] for p in mine["pins"]] == [p["number"] for p in view["view"]["pins"]]
            assert down(mine) == down(view["view"]) and mine["dice"] == view["view"]["dice"]
        if view["next"] == "roll":
            view = client.post(f"/api/games/{gid}/advance", json={"until": "step"}).json()
        else:  # cross the first offered pick, else the first action
            crosses = [a for a in view["legal_actions"] if a.startswith("cross ")]
            action = crosses[0] if crosses else view["legal_actions"][0]
            view = client.post(f"/api/games/{gid}/actions", json={"action": action}).json()
    assert view["terminal"]
    assert crossed_by_others  # a waiting player's board showed pins they had crossed, not the bowler's
    assert [b["status"] for b in view["boards"]] == ["Ann: finished", "Bob: finished", "Cy: finished"]


def test_solitaire_has_one_board_the_table_without_its_choices(client: TestClient) -> None:
    view = new_game(client, "bowling-solitaire", [("Ann", "human")], seed=5)
    view = client.post(f"/api/games/{view['id']}/advance", json={"until": "rolls"}).json()
    assert view["next"] == "decision" and view["view"]["choices"]
    (board,) = view["boards"]
    assert_read_only(board)
    table = view["view"]
    unpicked = {**table, "choices": [], "selection": None, "roll_label": ""}
    unpicked["pins"] = [{**p, "selectable": False} for p in table["pins"]]
    unpicked["piles"] = [{**p, "selectable": False} for p in table["piles"]]
    assert board == {**unpicked, "player": 0}


def test_a_shared_dice_table_shows_every_seat_and_spectator_each_players_own_board(client: TestClient) -> None:
    table = host(client, ["human"] * 3, game="rolling-pins", seed=2026, shared_dice=True, advanced=True, frames=2)
    tokens = [sit(client, table["id"], seat, name) for seat, name in enumerate(("Ann", "Bob", "Cy"))]
    game_id = start(client, table)
    url = f"/ws/tables/{table['id']}"
    with (
        client.websocket_connect(f"{url}?token={tokens[0]}") as ann,
        client.websocket_connect(f"{url}?token={tokens[1]}") as bob,
        client.websocket_connect(f"{url}?token={tokens[2]}") as cy,
        client.websocket_connect(url) as spectator,
    ):
        sockets = [ann, bob, cy, spectator]
        latest = [receive(ws) for ws in sockets]

        def everyone() -> list[dict[str, Any]]:
            """Every connection's next state: the same step for all, and the same boards for seats and spectator."""
            texts = [ws.receive_text() for ws in sockets]
            seen = [json.loads(text) for text in texts]
            assert len({steps(m) for m in seen}) == 1
            boards = [m["view"]["boards"] for m in seen]
            assert all(b == boards[-1] for b in boards)  # a seat sees no more of a board than a spectator
            assert all(len(text) < 40_000 for text in texts)  # three boards ride along: still one small message
            return seen

        for ws in (ann, bob, cy):
            ws.send_json({"action": "dice 2"})
            latest = everyone()
        watched = latest[3]["view"]
        assert watched["deciders"] == [0, 1, 2]  # the roll came: all three decide it, each on their own sheet
        # Ann crosses pins and picks her dice for the next roll; Bob misses. Only Ann's board shows pins
        # down; she waits for the next roll, Bob picks his dice, Cy still decides this roll.
        crossing = next(a for a in latest[0]["view"]["legal_actions"] if a.startswith("cross "))
        crossed = {int(p) for p in crossing.split()[1].split("+")}
        for ws, action in ((ann, crossing), (ann, "dice 2"), (bob, "miss")):
            ws.send_json({"action": action})
            latest = everyone()
        watched = latest[3]["view"]
        boards = watched["boards"]
        assert watched["deciders"] == [1, 2]
        assert down(boards[0]) == crossed and down(boards[1]) == set() and down(boards[2]) == set()
        assert boards[0]["status"] == "Ann: waiting"
        assert boards[1]["status"] == "Bob, frame 1, ball 2: choose one or two dice"
        assert boards[2]["status"] == "Cy, frame 1, ball 1: cross out pins that add up to the roll, or miss"
        for index, board in enumerate(boards):
            assert board["player"] == index
            assert_read_only(board)
            sheet = engine_sheet(client, game_id, index)
            assert down(board) == FULL - set(sheet["standing"])
        # Cy's own page offers his choices; nobody's board does, his own included.
        assert latest[2]["view"]["view"]["choices"] and latest[2]["view"]["boards"][2]["choices"] == []


def test_the_schema_documents_every_players_board(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()["components"]["schemas"]["GameView"]["properties"]["boards"]
    assert schema["items"] == {"$ref": "#/components/schemas/TableView"}
    assert "every player's own board" in schema["description"]


@pytest.mark.parametrize("game_id", ["rolling-pins", "tenpins", "bowling-dice"])
def test_a_dice_tray_never_says_no_roll_yet_beside_a_roll_and_the_end_keeps_a_named_lane(game_id: str) -> None:
    """Issue 25's gallery: "No roll yet" above "rolled 3 and 4", and an end's board without its lane or owner."""
    game = get_game(game_id, {"frames": 3})
    state = game.new_state(2)
    rng = random.Random(7)
    names = ["Ann", "Bob"]
    last = ""
    rolled = [False, False]
    while not state.is_terminal():
        for view in [game.table(state, names, last), *(game.board(state, p, names, last) for p in range(2))]:
            if view.dice_tray and not view.dice:  # an empty tray: words of a roll only where they are its dice
                assert view.chance_words == "" or game_id != "rolling-pins"
                assert not (view.no_roll_yet and view.player is not None and rolled[view.player])
        if state.is_chance_node():
            for player in [state.turn(), *state.deciders()]:  # the roller (or all, rolling for everybody)
                rolled[player] = True
            outcome = state.sample_chance(rng)
            last = str(outcome)
            state.apply(outcome)
        else:
            state.apply(rng.choice(state.legal_actions()))
    end = game.table(state, names, last)
    assert end.player is not None  # the end names whose lane or sheet it draws
    assert end.pins or end.standing is not None  # and keeps the lane
    if game_id == "rolling-pins":
        assert not end.dice and end.chance_words == "" and not end.no_roll_yet

"""Lessons (issue 25, item 5): one set of words for the terminal's learn mode and the web's, and the front
page's list of games to resume.

The web's learn mode tells each situation the first time it comes (`pinsetter.lessons.Tutor`), at the
learner's turn; the terminal's panel explains the position in front of the learner (`explain`). Both read
the same `lesson_for` words. Seeds are chosen so that a short stretch of each game meets every situation
listed (chance is drawn by position: docs/records.md, "draws").
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from pinsetter.bots.base import make_bot
from pinsetter.core.seeds import step_rng
from pinsetter.lessons import Tutor, explain, position_situations, score_notes
from pinsetter.records import PlayerSpec, RecordStep
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.ui.tui_learn import lesson as terminal_lesson
from pinsetter.web.app import create_app

# (game, options, seed, how the learner plays, the situations the learner must be told about)
# "first": the first pick offered, else two dice, else the first button; "hint": the solver's best option.
LEARNED: list[tuple[str, dict[str, Any], int, str, list[str]]] = [
    (
        "tenpins",
        {},
        7,
        "first",
        ["start", "roll", "ball:first", "tenpins-ball-2", "ball:open", "first-frame", "ball:spare", "ball:strike"],
    ),
    (
        "bowling-dice",
        {},
        8,
        "first",
        [
            "start",
            "roll",
            "faces",
            "ball:first",
            "dice-ball-2",
            "ball:open",
            "first-frame",
            "ball:spare",
            "ball:strike",
        ],
    ),
    (
        "bowling-solitaire",
        {},
        6,
        "first",
        [
            "start",
            "first-play",
            "groups",
            "ball:first",
            "ball-2",
            "ball:open",
            "first-frame",
            "ball:spare",
            "ball:strike",
        ],
    ),
    (
        "rolling-pins",
        {"advanced": True},
        3,
        "first",
        [
            "start",
            "dice-count",
            "grey",
            "match-roll",
            "tokens",
            "miss-only",
            "miss",
            "ball:first",
            "ball-2",
            "mark",
            "ability:reroll",
            "use:reroll",
            "first-frame",
        ],
    ),
    (
        "rolling-pins",
        {},
        4,
        "hint",
        ["start", "dice-count", "match-roll", "tokens", "miss", "ball-2", "first-frame", "ball:spare", "ball:strike"],
    ),
]


def learner_move(client: TestClient, view: dict[str, Any], how: str) -> dict[str, Any]:
    """The body of the learner's decision: `how` as in LEARNED."""
    if how == "hint":
        options = client.get(f"/api/games/{view['id']}/hint").json()["options"]
        return {"action": options[0]["action"]}
    choices = view["view"]["choices"]
    picks = [c for c in choices if c["by_selection"]]
    if picks:
        body: dict[str, Any] = {"pins": picks[0]["pins"]}
        if picks[0]["pile"] is not None:
            body["pile"] = picks[0]["pile"]
        return body
    actions = [c["action"] for c in choices if not c["by_selection"]]
    return {"action": "dice 2" if "dice 2" in actions else actions[0]}


def learn(
    client: TestClient, game: str, options: dict[str, Any], seed: int, how: str, wanted: list[str]
) -> list[dict[str, Any]]:
    """Play a learn-mode game until every wanted lesson was shown; the views of the learner's turns."""
    view = client.post(
        "/api/games",
        json={
            "game": game,
            "options": options,
            "players": [{"name": "Ann", "kind": "human"}],
            "learn": True,
            "seed": seed,
        },
    ).json()
    turns = []
    for _ in range(400):
        turns.append(view)
        told = {lesson["topic"] for turn in turns for lesson in turn["lesson"]}
        if view["next"] == "over" or set(wanted) <= told:
            return turns
        if view["next"] == "roll":
            until = "rolls" if view["has_decisions"] else "step"
            answer = client.post(f"/api/games/{view['id']}/advance", json={"until": until})
        else:
            answer = client.post(f"/api/games/{view['id']}/actions", json=learner_move(client, view, how))
        assert answer.status_code == 200, answer.text
        view = answer.json()
    raise AssertionError("the lessons did not come")


@pytest.mark.parametrize(("game", "options", "seed", "how", "wanted"), LEARNED, ids=[f"{g[0]}-{g[2]}" for g in LEARNED])
def test_learn_mode_tells_each_new_situation_once_at_the_learners_turn(
    client: TestClient, game: str, options: dict[str, Any], seed: int, how: str, wanted: list[str]
) -> None:
    views = learn(client, game, options, seed, how, wanted)
    # The learner's turns: a decision, a roll in a game without decisions, the end (the page plays the others).
    turns = [v for v in views if v["next"] in ("decision", "over") or (v["next"] == "roll" and not v["has_decisions"])]
    assert turns[0]["learn"] and turns[0]["lesson"][0]["topic"] == "start"
    first_told: dict[str, int] = {}
    for turn in turns:
        step = turn["log"][-1]["step"] if turn["log"] else 0
        for lesson in turn["lesson"]:
            assert (
                lesson["title"]
                and lesson["text"]
                and lesson["control"] in ("", "roll", "pick", "pile", "choose", "mark")
            )
            assert first_told.setdefault(lesson["topic"], step) == step, f"{lesson['topic']} told twice"
        topics = {lesson["topic"]: lesson for lesson in turn["lesson"]}
        # Each lesson is about the position it is shown at.
        table = turn["view"]
        if "match-roll" in topics:
            assert f"You rolled {table['selection']['target']}." in topics["match-roll"]["text"]
            assert any(c["by_selection"] for c in table["choices"])
        if "miss-only" in topics:
            assert not any(c["by_selection"] for c in table["choices"])
            assert "Cross out standing pins" not in topics["miss-only"]["text"]
        if "tenpins-ball-2" in topics or "dice-ball-2" in topics:
            assert "ball 2" in table["status"]
        marks = [mark for frame in turn["sheets"][0]["frames"] for mark in frame["marks"]]
        if "ball:strike" in topics:
            assert "X" in marks
        if "ball:spare" in topics:
            assert "/" in marks
        if "grey" in topics:
            assert any(pin["grey"] and not pin["down"] for pin in table["pins"])
        if "first-play" in topics:
            assert table["selection"]["needs_pile"] and not any(pin["down"] for pin in table["pins"])
    assert set(wanted) <= set(first_told), sorted(set(wanted) - set(first_told))


def test_lessons_are_only_for_learn_mode_and_survive_a_restart(client: TestClient, db: str) -> None:
    plain = client.post("/api/games", json={"game": "tenpins", "players": [{"name": "Ann", "kind": "human"}]}).json()
    assert plain["learn"] is False and plain["lesson"] == []
    turns = learn(client, "tenpins", {}, 7, "first", ["tenpins-ball-2"])
    shown = turns[-1]
    with TestClient(create_app(db)) as again:  # a restarted server: the lessons come from the record
        view = again.get(f"/api/games/{shown['id']}").json()
    assert view["learn"] and view["lesson"] == shown["lesson"]
    assert client.get(f"/api/games/{shown['id']}/record").json()["extra"] == {"learn": True}
    answer = client.post(
        "/api/games",
        json={"game": "tenpins", "players": [{"name": "Robo", "kind": "bot:random"}], "learn": True},
    )
    assert answer.status_code == 422 and answer.json() == {"error": "learn mode needs a human player to teach"}


def test_undo_starts_the_lessons_over_from_the_shorter_record() -> None:
    match = Match.new("rolling-pins", [PlayerSpec("you")], seed=3)
    bot = make_bot("greedy", match.game)
    tutor = Tutor(match.game, 1)
    for _ in range(12):
        if match.state.is_chance_node():
            match.advance()
        else:
            match.apply(bot.choose(match.state, step_rng(1, match.steps_done, 1)))
    steps = [(step.actor, step.text) for step in match.record.steps]
    tutor.update(steps, ["you"])
    whole = tutor.topics()
    tutor.update(steps[:3], ["you"])
    fresh = Tutor(match.game, 1)
    fresh.update(steps[:3], ["you"])
    assert tutor.topics() == fresh.topics() and len(fresh.topics()) < len(whole)


def test_an_open_frames_lesson_gives_the_frames_own_score_not_the_running_total() -> None:
    """An open frame after the first scores the pins it made; the running total under it is another number."""
    from pinsetter.lessons import lesson_for, step_situations

    match = Match.new("tenpins", [PlayerSpec("you")], seed=1)
    while not match.state.is_terminal():
        before = match.state.clone()
        match.advance()
        frames = match.state.scoresheet(0).frames
        for situation in step_situations(before, match.record.steps[-1].text, match.state):
            finished = frames[before.ball_context(0).frame - 1]  # type: ignore[union-attr]
            if situation.topic == "ball:open" and finished.total != finished.score:
                text = lesson_for(match.game, situation).text
                assert f"It scores {finished.score}." in text and f"It scores {finished.total}." not in text, text
                return
    raise AssertionError("no open frame after the first in this game")


def test_the_dice_faces_lesson_names_the_faces_in_words_in_the_language_asked() -> None:
    """The dice are drawn, not lettered: the lesson names the faces, and in the language of the telling."""
    from pinsetter.i18n import using_language
    from pinsetter.lessons import lesson_for

    match = Match.new("bowling-dice", [PlayerSpec("you")], seed=4)
    match.advance()
    view = match.game.table(match.state, ["you"], match.record.steps[-1].text)
    with using_language("en"):  # the situation is found in one language...
        faces = next(s for s in position_situations(match.game, match.state, view) if s.topic == "faces")
    english = lesson_for(match.game, faces).text
    assert english.startswith("This roll shows ") and " faces" in english
    assert not any(f" {letter} " in f" {english} " for letter in ("P", "-"))
    with using_language("ja"):  # ...and told in another
        japanese = lesson_for(match.game, faces).text
    assert "faces" not in japanese and "blank" not in japanese and "pin" not in japanese


def only_miss_position() -> Match:
    """A first-frame Rolling Pins position whose roll no standing pins add up to, even with tokens: Miss is the move."""
    for seed in range(1, 200):
        match = Match.new("rolling-pins", [PlayerSpec("you")], seed=seed)
        bot = make_bot("greedy", match.game)
        while not match.state.is_terminal() and match.state.ball_context(0).frame == 1:  # type: ignore[union-attr]
            if match.state.is_chance_node():
                match.advance()
                continue
            view = match.game.table(match.state, ["you"])
            rolled = view.selection is not None and view.selection.target is not None
            if rolled and not any(choice.by_selection for choice in view.choices):
                return match
            match.apply(bot.choose(match.state, step_rng(1, match.steps_done, 1)))
    raise AssertionError("no roll without a set of pins")


def test_when_miss_is_the_only_move_no_lesson_says_to_cross_pins_out() -> None:
    match = only_miss_position()
    view = match.game.table(match.state, ["you"])
    target = view.selection.target if view.selection else None
    situations = [s.topic for s in position_situations(match.game, match.state, view)]
    assert "miss-only" in situations and "match-roll" not in situations
    words = " ".join(lesson.text for lesson in explain(match.game, match.state, view))
    assert f"You rolled {target}: no set of standing pins adds up to it" in words
    assert "Cross out standing pins" not in words
    assert "Cross out standing pins" not in terminal_lesson(match, view).plain
    assert "no set of standing pins adds up" in terminal_lesson(match, view).plain


def test_the_terminal_panel_prints_the_shared_words() -> None:
    match = Match.new("bowling-solitaire", [PlayerSpec("you")], seed=7)
    while match.state.is_chance_node():
        match.advance()
    view = match.game.table(match.state, ["you"])
    panel = terminal_lesson(match, view).plain
    lessons = explain(match.game, match.state, view)
    assert lessons and all(item.text in panel for item in lessons)
    assert "Choose a pile (p)" in panel  # the terminal's own keys, added to the shared words


@pytest.mark.parametrize(
    ("game", "options", "words"),
    [
        ("tenpins", {}, ["over 10 frames", "the odds are exact: an average game scores 74.5"]),
        (
            "rolling-pins",
            {},
            [
                "The sheet ranks a whole game: 99 or less: Pinhead",
                "The optimal player's average is the most",
            ],
        ),
        ("rolling-pins", {"frames": 3}, ["over 3 frames: the best possible score is 90", "a shorter game has none"]),
        ("rolling-pins", {"advanced": True}, ["no odds for this game and length"]),
        ("bowling-solitaire", {}, ["The Expert bot's average is a strong player's"]),
    ],
)
def test_score_notes_say_what_a_score_means_for_the_game_and_length(
    game: str, options: dict[str, object], words: list[str]
) -> None:
    match = Match.new(game, [PlayerSpec("you")], seed=1, options=options)
    notes = " ".join(score_notes(match.game, match.record.options))
    for word in words:
        assert word in notes


def test_the_end_of_a_game_carries_its_score_notes(client: TestClient) -> None:
    view = client.post(
        "/api/games",
        json={"game": "tenpins", "options": {"frames": 1}, "players": [{"name": "Ann", "kind": "human"}], "seed": 2},
    ).json()
    assert view["ending_notes"] == []
    while view["next"] != "over":
        view = client.post(f"/api/games/{view['id']}/advance", json={"until": "step"}).json()
    assert view["ending_notes"][0].startswith("Ten Pins (dice) over 1 frame: the best possible score is 30")


# --- the front page's games to resume ----------------------------------------------------------------------


def test_the_resume_list_holds_only_games_that_can_be_resumed(client: TestClient, db: str) -> None:
    def new(game: str, name: str, **extra: Any) -> int:
        body = {"game": game, "players": [{"name": name, "kind": "human"}], **extra}
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 201
        return int(answer.json()["id"])

    finished = new("tenpins", "ann", options={"frames": 1}, seed=1)
    while client.get(f"/api/games/{finished}").json()["next"] != "over":
        client.post(f"/api/games/{finished}/advance", json={"until": "step"})
    older = new("rolling-pins", "bob")
    learning = new("tenpins", "cat", learn=True)
    storage = Storage(db)
    entered = Match.new("tenpins", [PlayerSpec("dan")], seed=5)
    entered.advance()
    entered.record.chance = "entered"  # dice entered by hand: the page rolls from the seed, so it cannot go on
    storage.save(entered.record)
    broken = Match.new("tenpins", [PlayerSpec("eve")], seed=6)
    broken.advance()
    drawn = broken.record.steps[0].text
    broken.record.steps[0] = RecordStep(None, "1+1" if drawn != "1+1" else "2+2")  # not what the seed draws
    storage.save(broken.record)
    table = client.post(
        "/api/tables", json={"game": "tenpins", "seats": [{"kind": "human"}, {"kind": "bot:random"}]}
    ).json()
    client.post(f"/api/tables/{table['id']}/seats/0", json={"name": "fay"})
    played = client.post(f"/api/tables/{table['id']}/start", json={"host_token": table["host_token"]}).json()["game_id"]

    every = {row["id"]: row["status"] for row in client.get("/api/history").json()}
    assert every[played] == "table" and every[finished] == "finished" and len(every) == 6
    rows = client.get("/api/history?resumable=true").json()
    assert [row["id"] for row in rows] == [learning, older]  # newest first
    assert [row["learn"] for row in rows] == [True, False]
    assert [row["id"] for row in client.get("/api/history?resumable=true&limit=1").json()] == [learning]
    assert [row["id"] for row in client.get("/api/history?resumable=true&player=bob").json()] == [older]

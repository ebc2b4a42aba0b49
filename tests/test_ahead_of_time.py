"""The Solitaire search built ahead of time (issue 30, part 1): the same values as numba's JIT, never stale.

The extension is built here into a temporary folder (as `make` builds it beside the sources), so
that the build itself is tested wherever the tests run; its values are compared, bit for bit,
with the search compiled by numba's JIT on seeded fresh deals, whole deals included (the memo
grows on the way, so the rehash is compared too).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import ModuleType

import pytest

from pinsetter.solvers import ahead_of_time, solitaire, solitaire_search
from pinsetter.solvers.ahead_of_time import SOLITAIRE, compile_extension, load
from pinsetter.solvers.solitaire import (
    MEMO_BITS,
    PINS_OBJECTIVE,
    STRIKE_OBJECTIVE,
    Evaluator,
    Objective,
    Position,
    score_objective,
)
from test_solitaire_values import RULES, fresh, seeded_deals

OBJECTIVES = (PINS_OBJECTIVE, STRIKE_OBJECTIVE, score_objective(2, 1))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, Path]:
    folder = tmp_path_factory.mktemp("aot")
    (folder / f"{SOLITAIRE.prefix}_0123456789abcdef.so").write_bytes(b"an older build")
    compile_extension(SOLITAIRE, folder)
    module = load(SOLITAIRE, folder)
    assert module is not None
    return module, folder


def values(kernel: ModuleType, monkeypatch: pytest.MonkeyPatch, objective: Objective) -> tuple[list[float], bool]:
    """Every root option's value on seeded fresh deals under both rules, and whether a memo grew."""
    monkeypatch.setattr(solitaire, "compiled_search", lambda: kernel)
    found, grew = [], False
    for deal in seeded_deals(41, 6):
        for rule in RULES:
            state = fresh(deal, rule)
            assert state is not None
            evaluator = Evaluator(tuple(state.table.pins), rule, objective)
            position = Position.from_table(state.table)
            found.append(evaluator.value(position))
            found += [value for _, value in evaluator.option_values(position, state.legal_actions())]
            grew = grew or len(evaluator.memo[0]) > 1 << MEMO_BITS
    return found, grew


@pytest.mark.parametrize("objective", OBJECTIVES, ids=["pins", "strike", "score"])
def test_the_search_built_ahead_of_time_gives_the_jit_values_bit_for_bit(
    built: tuple[ModuleType, Path], monkeypatch: pytest.MonkeyPatch, objective: Objective
) -> None:
    module, _ = built
    ahead, grew = values(module, monkeypatch, objective)
    jit, _ = values(solitaire_search, monkeypatch, objective)
    assert grew  # the rehash ran in both
    assert ahead == jit
    assert len(ahead) > 60


def test_a_build_is_found_only_for_the_sources_it_was_built_from(built: tuple[ModuleType, Path]) -> None:
    module, folder = built
    assert module.__name__ == f"pinsetter.solvers.{SOLITAIRE.name}"
    assert [path.name.split(".")[0] for path in folder.glob(f"{SOLITAIRE.prefix}_*")] == [SOLITAIRE.name]
    edited = dataclasses.replace(SOLITAIRE, sources=(*SOLITAIRE.sources, "solitaire.py"))
    assert edited.name != SOLITAIRE.name
    assert load(edited, folder) is None  # its sources' digest differs: the JIT is used instead
    assert load(SOLITAIRE, folder / "nowhere") is None


def test_the_evaluator_uses_the_build_when_it_is_current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What `compiled_search` hands out: the current build if there is one, else numba's JIT."""
    solitaire.compiled_search.cache_clear()
    try:
        monkeypatch.setattr(ahead_of_time, "load", lambda build, directory=tmp_path: None)  # never built
        assert solitaire.compiled_search() is solitaire_search
        solitaire.compiled_search.cache_clear()
        sentinel = ModuleType("built")
        monkeypatch.setattr(ahead_of_time, "load", lambda build, directory=tmp_path: sentinel)
        assert solitaire.compiled_search() is sentinel
    finally:
        solitaire.compiled_search.cache_clear()


def test_the_build_command_says_whether_each_build_is_current(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(ahead_of_time, "load", lambda build, directory=tmp_path: None)
    assert ahead_of_time.main(["--check"]) == 1
    assert capsys.readouterr().out == f"pinsetter: {SOLITAIRE.name} is not built for the current source\n"
    with pytest.raises(SystemExit) as refused:
        ahead_of_time.main(["--fast"])
    assert refused.value.code == 2
    assert "unrecognized arguments: --fast" in capsys.readouterr().err

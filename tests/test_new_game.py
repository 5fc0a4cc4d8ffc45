"""Adding a game touches its own package, its tests and one registry line; nothing else.

The example game (tests/support/tiny) is copied to a new package outside pbem,
renamed, and registered with its one line in ``pbem.games.GAMES``. With no
other change anywhere, the new kind passes the shared tests as they are
(conformance play and replay, the rule of hidden information, its declared
facts, order words against command words, the runner with a report for every
seat, its pictures), its HELP, order parser and reports come from its own
package, its modules import only the standard library, pbem.core and
themselves, and the wheel's rules would carry every data file it has.
"""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

import pytest
import test_conformance as conformance
import test_drawings as drawings
from new_game import TINY, copy_example, registered
from test_purity import assert_pure_rules, disallowed_imports, modules_loaded_by_importing

from pbem.games import GAMES, find_game
from pbem.orders import parser_for
from pbem.resources import game_package_dir
from pbem.service.api import GameService

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "sample_game"
KIND = "sample-game"

EXAMPLE_FILES = [
    "HELP.txt", "__init__.py", "drawing.py", "grammar.lark", "grammar.py", "orders.py", "rules.py", "state.py",
    "templates/_track.txt.j2", "templates/report.txt.j2",
]
"""Every file of the example game: all a game package holds."""


def package_files(folder: Path) -> list[str]:
    """The files of a package (compiled files left out), as sorted relative paths."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


@pytest.fixture
def sample_game(tmp_path: Path) -> Iterator[Path]:
    """The example game copied to ``<tmp>/sample_game`` and registered as ``sample-game``; yields its folder."""
    folder = copy_example(tmp_path, PACKAGE, KIND)
    importlib.invalidate_caches()
    with registered(tmp_path, PACKAGE, KIND):
        yield folder


def test_the_example_game_has_every_file_a_game_package_has() -> None:
    assert package_files(TINY) == EXAMPLE_FILES
    for kind, target in GAMES.items():
        folder = game_package_dir(target)
        assert folder is not None
        missing = {"HELP.txt", "grammar.lark", "grammar.py", "rules.py", "drawing.py", "templates/report.txt.j2"} - set(
            package_files(folder))
        assert not missing, f"{kind} lacks {sorted(missing)}"


def test_a_copy_of_the_example_registered_with_one_line_passes_the_shared_tests(
        sample_game: Path, runner: GameService) -> None:
    assert package_files(sample_game) == EXAMPLE_FILES
    game = find_game(KIND)
    assert type(game).__module__ == f"{PACKAGE}.rules" and game.name == KIND
    conformance.test_declared_facts_match_the_game(KIND)
    conformance.test_no_order_word_is_a_command_word_but_those_the_game_declares(KIND)
    for players in range(game.min_players, game.max_players + 1):
        for seed in conformance.SEEDS:
            conformance.test_random_legal_play_reaches_a_valid_end_and_replays(KIND, players, seed)
        conformance.test_what_the_service_does_by_itself_never_depends_on_a_secret(KIND, players)
    conformance.test_a_game_of_each_kind_runs_through_the_runner_and_replays(KIND, runner)
    drawings.test_the_board_and_every_seats_own_picture_parse_and_come_from_their_views(KIND)
    drawings.test_changing_what_a_seat_may_not_see_leaves_its_pictures_unchanged(KIND)


def test_its_help_orders_and_reports_come_from_its_own_package(sample_game: Path, runner: GameService) -> None:
    game = find_game(KIND)
    assert game.help() == (sample_game / "HELP.txt").read_text(encoding="utf-8").strip()
    parsed = parser_for(KIND).parse("ADD 2\nADD x\n")
    assert [str(order) for order in parsed.orders] == ["ADD 2"]
    assert "a number from 1 to 3" in str(parsed.lines[1].problem)  # its terminal_words
    runner.create_game(KIND, "s1", seats={"1": "a@example.org", "2": "b@example.org"}, seed=4,
                       options={"target": "6"})
    report = runner.report_text("s1", "1")
    assert "Tiny -- game s1, report for seat 1" in report
    assert "The track (the total is marked [ ]):" in report and "[0]" in report  # its own templates


def test_its_modules_import_only_the_standard_library_pbem_core_and_itself(sample_game: Path) -> None:
    assert disallowed_imports(sample_game, PACKAGE) == []
    loaded = modules_loaded_by_importing([f"{PACKAGE}.rules"], path=[str(sample_game.parent)])
    assert f"{PACKAGE}.rules" in loaded
    assert_pure_rules(loaded)


def wheel_data(package: Path, dotted: str) -> set[str]:
    """The data files of ``package`` that the wheel carries by pyproject.toml's rules, were it
    placed at ``dotted`` (the package must be found, and a file must match package-data)."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    if not any(fnmatch(dotted, pattern) for pattern in setuptools["packages"]["find"]["include"]):
        return set()
    patterns = [*setuptools["package-data"].get("*", []), *setuptools["package-data"].get(dotted, [])]
    return {p.relative_to(package).as_posix() for pattern in patterns for p in package.glob(pattern) if p.is_file()}


def test_the_wheel_would_carry_every_data_file_of_the_new_game(sample_game: Path) -> None:
    data = {name for name in package_files(sample_game) if not name.endswith(".py")}
    assert data == {"HELP.txt", "grammar.lark", "templates/_track.txt.j2", "templates/report.txt.j2"}
    assert wheel_data(sample_game, f"pbem.games.{PACKAGE}") == data
    for kind, target in GAMES.items():  # the same rule as for the games the wheel carries today
        if kind == KIND:
            continue
        folder = game_package_dir(target)
        assert folder is not None
        dotted = target.split(":")[0].rpartition(".")[0]
        assert wheel_data(folder, dotted) == {n for n in package_files(folder) if not n.endswith(".py")}

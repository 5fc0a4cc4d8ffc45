"""The wheel: it must carry the grammars, the report templates and the migrations,
and pbem must find them when it runs from the wheel rather than from a checkout.

The wheel is built without build isolation (no network), from a copy of the
checkout so that a stale build/ folder in the checkout can neither leak into
the wheel nor be left behind by the test. Takes about 10 s.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
SEATS = ["--seat", "A=alice@example.org", "--seat", "B=bob@example.org",
         "--seat", "C=carol@example.org", "--seat", "D=dave@example.org"]

pytestmark = [pytest.mark.packaging, pytest.mark.timeout(180)]

# Not part of the package: left out of the copy the wheel is built from.
_NOT_BUILT = shutil.ignore_patterns(
    ".git", ".ci", "build", "dist", "tests", "*.egg-info", ".*cache", ".hypothesis", ".venv", "venv",
    "__pycache__", "*.pyc", "*.db", "*.db-*",
)


def _build_tools_problem() -> str | None:
    try:
        setuptools = tuple(int(p) for p in importlib.metadata.version("setuptools").split(".")[:2])
    except importlib.metadata.PackageNotFoundError:
        return "setuptools is not installed"
    if setuptools < (69, 0):
        return f"setuptools {setuptools} is older than 69"
    if setuptools < (70, 1):  # bdist_wheel moved into setuptools in 70.1
        try:
            importlib.metadata.version("wheel")
        except importlib.metadata.PackageNotFoundError:
            return "wheel is not installed"
    return None


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the project's wheel once for this module; return its path."""
    problem = _build_tools_problem()
    if problem:
        pytest.fail(f"cannot build the wheel: {problem}; install the test extras: pip install -e '.[test]'")
    base = tmp_path_factory.mktemp("wheel")
    source, out = base / "source", base / "dist"
    shutil.copytree(ROOT, source, ignore=_NOT_BUILT)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--disable-pip-version-check", "-q", "-w", str(out), str(source)],
        capture_output=True, text=True, timeout=150,
    )
    assert result.returncode == 0, f"pip wheel failed:\n{result.stdout}\n{result.stderr}"
    wheels = list(out.glob("pbem-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


@pytest.fixture(scope="module")
def site(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel unzipped, as an installer would lay it out in site-packages."""
    folder = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(folder)
    # Decoys: other distributions' top-level grammars/ and templates/ beside pbem
    # must not be taken for pbem's own.
    (folder / "grammars").mkdir()
    (folder / "grammars" / "other.lark").write_text("start: \"x\"\n")
    (folder / "templates" / "common").mkdir(parents=True)
    (folder / "templates" / "index.html").write_text("<p>not pbem's</p>\n")
    return folder


def test_the_wheel_carries_grammars_templates_help_and_migrations(names: set[str]) -> None:
    for kind, target in GAMES.items():
        package = target.split(":")[0].rpartition(".")[0].replace(".", "/")
        for data in ("grammar.lark", "HELP.txt", "drawing.py"):
            assert f"{package}/{data}" in names, (kind, data)
    for shared in ("pbem/grammars/commands.lark", "pbem/grammars/common.lark",
                   "pbem/templates/common/report.txt.j2", "pbem/templates/common/report.html.j2",
                   "pbem/games/farm_cheesi/templates/_board.txt.j2", "pbem/fonts/LiberationSans-Regular.ttf",
                   "pbem/fonts/LiberationSans-Bold.ttf", "pbem/fonts/OFL.txt"):
        assert shared in names, shared
    # Every data file of the checkout's package, nested folders included, found by itself.
    for pattern in ("*.lark", "*.j2", "HELP.txt"):
        for path in (ROOT / "pbem").rglob(pattern):
            assert path.relative_to(ROOT).as_posix() in names, path

    migrations = {n for n in names if n.startswith("pbem/store/migrations/versions/") and n.endswith(".py")}
    expected = {f"pbem/store/migrations/versions/{p.name}"
                for p in (ROOT / "pbem" / "store" / "migrations" / "versions").glob("*.py")}
    assert expected and expected <= migrations
    assert "pbem/store/migrations/env.py" in names

    # Every module of pbem/ is in the wheel (packages are found by themselves: a missing one
    # lacks its __init__.py).
    for path in (ROOT / "pbem").rglob("*.py"):
        assert path.relative_to(ROOT).as_posix() in names, f"{path} is missing: does its folder have __init__.py?"


def test_the_console_script_is_declared(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        entry_points = next(n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt"))
        text = archive.read(entry_points).decode()
    assert "[console_scripts]" in text and "pbem = pbem.cli:main" in text


def _run(site: Path, cwd: Path, *args: str) -> subprocess.Popen[str]:
    """Start ``python ARGS`` in ``cwd`` with the unzipped wheel first on the path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env["PYTHONPATH"] = str(site)
    return subprocess.Popen([sys.executable, *args], cwd=cwd, env=env, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _finish(process: subprocess.Popen[str], stdin: str = "") -> tuple[int, str, str]:
    """Give a started process its input; return its exit code, stdout and stderr."""
    out, err = process.communicate(stdin, timeout=120)
    return process.returncode, out, err


@pytest.fixture
def elsewhere(tmp_path: Path) -> Iterator[Path]:
    """A working directory far from the checkout."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    yield folder


def test_pbem_runs_from_the_unzipped_wheel(site: Path, elsewhere: Path) -> None:
    where = _run(site, elsewhere, "-c",
                 "import pbem, pbem.resources as r, pbem.store.database as d\n"
                 "print(pbem.__file__); print(r.grammar_dir()); print(r.template_dir()); print(d._MIGRATIONS)")
    check = _run(site, elsewhere, "-m", "pbem.cli", "check", "turkey-chase", "-")
    new = _run(site, elsewhere, "-m", "pbem.cli", "new", "turkey-chase", "w-1", *SEATS, "--seed", "3")

    code, out, err = _finish(where)
    assert code == 0, err
    module, grammars, templates, migrations = (Path(line) for line in out.splitlines())
    assert module == site / "pbem" / "__init__.py", "pbem is imported from the wheel, not the checkout"
    assert grammars == site / "pbem" / "grammars"
    assert templates == site / "pbem" / "templates"
    assert migrations == site / "pbem" / "store" / "migrations"

    code, out, err = _finish(check, "FEED F6\nFEED Q6\n")
    assert code == 1, out + err
    assert "line 2, column 6" in out and "expected a square such as F6" in out, out

    code, out, err = _finish(new)  # the migrations and the report templates come from the wheel
    assert code == 0, out + err
    assert "Created turkey-chase game w-1, seats A, B, C, D." in out
    assert "The cornfield at the start:" in out
    assert (elsewhere / "pbem.db").is_file()

    code, out, err = _finish(_run(site, elsewhere, "-m", "pbem.cli", "show", "w-1", "--json"))
    assert code == 0, err
    assert '"turn": 1' in out and '"status": "active"' in out and '"F6": 10' in out

"""The rules are pure: importing any game's rules loads neither the parser nor
the store, the templates or the mail libraries.

Each game's lark transformer lives in its ``grammar`` module, which only the
game's ``transformer()`` method imports, lazily. The check runs in a fresh
interpreter, because this test process has long since imported all of them.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pbem.games

from pbem.games import GAMES

IMPURE = ("lark", "sqlalchemy", "sqlmodel", "jinja2", "aiosmtplib", "aioimaplib")

_PROBE = """
import importlib, json, sys
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
print(json.dumps(sorted(sys.modules)))
"""


def modules_loaded_by_importing(names: list[str], path: list[str] | None = None) -> set[str]:
    """Return every module a fresh interpreter has loaded after importing ``names`` (with
    ``path`` first on its module search path)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*(path or []), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(names)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout))


def assert_pure_rules(loaded: set[str]) -> None:
    """No impure library, no parser, no grammar module among ``loaded``."""
    impure = sorted(m for m in loaded if m.split(".")[0] in IMPURE)
    assert impure == [], f"importing the rules loaded {impure}"
    assert "pbem.orders" not in loaded
    assert not any(m.endswith(".grammar") for m in loaded)


def test_importing_every_rules_module_loads_no_impure_library() -> None:
    rules_modules = sorted({target.split(":")[0] for target in GAMES.values()})
    assert all(name.endswith(".rules") for name in rules_modules)
    loaded = modules_loaded_by_importing(rules_modules)
    assert set(rules_modules) <= loaded
    assert_pure_rules(loaded)


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module)
    return roots


def disallowed_imports(package: Path, own: str) -> list[str]:
    """Return ``module: import`` for every import of a game package's modules that is neither
    the standard library, ``pbem.core``, the package itself (``own``, or a relative import)
    nor lark in ``grammar.py``."""
    offenders = []
    for module in sorted(package.rglob("*.py")):
        for name in _imported_roots(module):
            root = name.split(".")[0]
            allowed = (root in sys.stdlib_module_names or name == "pbem.core" or name.startswith("pbem.core.")
                       or name == own or name.startswith(own + ".")
                       or (root == "lark" and module.name == "grammar.py"))
            if not allowed:
                offenders.append(f"{module.relative_to(package.parent)}: {name}")
    return offenders


def test_every_module_of_every_game_package_imports_only_the_stdlib_pbem_core_and_itself() -> None:
    games_dir = Path(pbem.games.__file__).parent
    packages = sorted(p for p in games_dir.iterdir() if (p / "__init__.py").is_file())
    assert len(packages) >= len(GAMES)
    offenders = [offence for package in packages for offence in disallowed_imports(package, f"pbem.games.{package.name}")]
    assert offenders == []

"""The mail package's floor plan: a mail's way through pbem moves down the floors, never back up.

Each sub-package of pbem/mail is a floor; a module may import its own floor and the floors below it,
never one above (imports inside functions and under TYPE_CHECKING count too). No floor holds more
than 15 modules, and no module lies in pbem/mail outside a floor.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pbem.mail

FLOORS = ("running", "intake", "handling", "commands", "answering", "outbound", "reading")
"""The floors from the top (the daemon that drives everything) to the bottom (the stored mail and its
one reading); the same order as pbem/mail/__init__.py and docs/game-authors.md draw them."""

ALLOWED_UPWARD: dict[tuple[str, str], str] = {}
"""(importing module, imported module) pairs allowed to import upward, each with the reason: none."""

MAIL = Path(pbem.mail.__file__).parent
MOST_MODULES = 15


def floor_of(module: str) -> str | None:
    """The floor of a dotted module name inside pbem.mail (None for one outside it)."""
    parts = module.split(".")
    if parts[:2] != ["pbem", "mail"] or len(parts) < 3:
        return None
    return parts[2]


def imported_modules(source: str) -> list[str]:
    """Every module an imported name comes from, anywhere in ``source`` (in functions too): for
    ``from pbem.mail import reading`` the sub-package ``pbem.mail.reading``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "pbem.mail":
                found.extend(f"pbem.mail.{alias.name}" for alias in node.names)
            else:
                found.append(node.module)
    return found


def upward_imports(module: str, source: str) -> list[str]:
    """The imports of ``module`` (its dotted name) that reach a floor above its own."""
    own = FLOORS.index(floor_of(module) or "")
    upward = []
    for target in imported_modules(source):
        floor = floor_of(target)
        if floor in FLOORS and FLOORS.index(floor) < own and (module, target) not in ALLOWED_UPWARD:
            upward.append(f"{module} imports {target} (floor {floor} is above {FLOORS[own]})")
    return upward


def _modules() -> list[tuple[str, Path]]:
    return [(f"pbem.mail.{path.parent.name}.{path.stem}", path)
            for floor in FLOORS for path in sorted((MAIL / floor).glob("*.py"))]


def test_every_folder_of_the_mail_package_is_a_floor_and_no_module_lies_outside_one() -> None:
    folders = {path.name for path in MAIL.iterdir() if path.is_dir() and (path / "__init__.py").exists()}
    assert folders == set(FLOORS)
    assert [path.name for path in MAIL.glob("*.py")] == ["__init__.py"]


def test_no_floor_holds_more_than_fifteen_modules() -> None:
    crowded = {floor: count for floor in FLOORS
               if (count := len([p for p in (MAIL / floor).glob("*.py") if p.name != "__init__.py"])) > MOST_MODULES}
    assert crowded == {}


def test_no_module_imports_a_floor_above_its_own() -> None:
    upward = [line for module, path in _modules() for line in upward_imports(module, path.read_text())]
    assert upward == []


def test_an_upward_import_inside_a_function_is_found() -> None:
    source = "from pbem.mail.reading import parse\n\ndef late():\n    from pbem.mail.running import daemon\n"
    assert upward_imports("pbem.mail.outbound.compose", source) == [
        "pbem.mail.outbound.compose imports pbem.mail.running (floor running is above outbound)"]
    assert upward_imports("pbem.mail.running.daemon", source) == []

"""Write docs/games/<kind>.md, one page per hosted game, from its HELP.txt (the text HELP <kind> mails).

    python tools/game_docs.py           write every page (after editing a game's HELP.txt)
    python tools/game_docs.py --check   exit 1, naming them, when pages are out of step with HELP.txt
    (--dir DIR: the pages in DIR instead of docs/games)

The test suite runs the check (tests/test_docs.py), so a HELP.txt edited without its page fails it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pbem.games import GAMES, find_game

DOCS = Path(__file__).resolve().parents[1] / "docs" / "games"


def game_page(kind: str) -> str:
    """The page of game ``kind``: its title, player count and whole HELP text, as HELP <kind> sends it."""
    rules = find_game(kind)
    players = (f"{rules.min_players}" if rules.min_players == rules.max_players
               else f"{rules.min_players} to {rules.max_players}")
    source = rules.package_dir().relative_to(Path(__file__).resolve().parents[1]) / "HELP.txt"
    return (f"# {rules.title} (`{kind}`)\n\n"
            f"{players} players. Create a game with `CREATE {kind} <game>`; a player gets this text by mail "
            f"with `HELP {kind}`.\n\n"
            f"<!-- Made from {source.as_posix()} by tools/game_docs.py: edit that file, then run the tool. -->\n\n"
            f"```text\n{rules.help()}\n```\n")


def pages(folder: Path) -> dict[Path, str]:
    """Every game's page, by its path in ``folder``."""
    return {folder / f"{kind}.md": game_page(kind) for kind in GAMES}


def main(argv: list[str] | None = None) -> int:
    """Write the pages, or with ``--check`` report those out of step (exit 1)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the pages are in step")
    parser.add_argument("--dir", type=Path, default=DOCS, help="the folder of the pages (default docs/games)")
    args = parser.parse_args(argv)
    folder: Path = args.dir
    wanted = pages(folder)
    stale = sorted(path.name for path, text in wanted.items()
                   if not path.is_file() or path.read_text(encoding="utf-8") != text)
    extra = sorted(path.name for path in folder.glob("*.md") if path not in wanted)
    if args.check:
        for name in stale:
            print(f"{folder / name} is out of step with its game's HELP.txt: run python tools/game_docs.py")
        for name in extra:
            print(f"{folder / name} is no hosted game's page")
        return 1 if stale or extra else 0
    folder.mkdir(parents=True, exist_ok=True)
    for path, text in wanted.items():
        path.write_text(text, encoding="utf-8")
    for name in extra:
        (folder / name).unlink()
    print(f"wrote {len(wanted)} pages under {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The documentation pages stay in step with what pbem sends: one page per hosted game, made from its
HELP.txt by tools/game_docs.py, linked from the README and named at the end of HELP <kind>."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pbem.games import GAMES, find_game
from pbem.mail.commands.reference import help_for, help_text
from pbem.mail.commands.script import reserved_words

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "game_docs.py"


def test_every_game_page_is_in_step_with_its_help_text() -> None:
    checked = subprocess.run([sys.executable, str(TOOL), "--check"], capture_output=True, text=True, timeout=120,
                             cwd=ROOT)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    for kind in GAMES:
        page = (ROOT / "docs" / "games" / f"{kind}.md").read_text(encoding="utf-8")
        assert f"```text\n{find_game(kind).help()}\n```" in page


def test_the_check_names_a_page_out_of_step_and_the_tool_brings_it_back(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    for page in (ROOT / "docs" / "games").glob("*.md"):
        (folder / page.name).write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
    edited = folder / "turkey-chase.md"
    edited.write_text(edited.read_text(encoding="utf-8").replace("FEED", "EAT", 1), encoding="utf-8")
    (folder / "no-such-game.md").write_text("# gone\n", encoding="utf-8")

    def tool(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(TOOL), "--dir", str(folder), *args], capture_output=True,
                              text=True, timeout=120, cwd=ROOT)

    checked = tool("--check")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "turkey-chase.md is out of step" in checked.stdout and "no-such-game.md is no hosted" in checked.stdout
    assert tool().returncode == 0 and tool("--check").returncode == 0
    assert edited.read_text(encoding="utf-8") == (ROOT / "docs" / "games" / "turkey-chase.md").read_text(
        encoding="utf-8")


def test_help_by_mail_and_the_readme_name_each_games_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for kind in GAMES:
        assert help_for(kind).rstrip().endswith(f"docs/games/{kind}.md"), kind
        assert f"(docs/games/{kind}.md)" in readme, kind


def test_the_pages_list_every_command_allowed_among_orders_and_every_gm_command() -> None:
    playing = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")
    among = playing.split("Among orders, a line whose first word is", 1)[1].split("is a command", 1)[0]
    for word in reserved_words():
        assert f"`{word}`" in among, word
    masters = (ROOT / "docs" / "game-masters.md").read_text(encoding="utf-8")
    section = help_text().split("\nGame masters\n", 1)[1]
    gm_words = {line.split()[0] for line in section.splitlines()  # a command line: two blanks, then the word
                if line.startswith("  ") and not line.startswith("   ") and line.split()[0].isalpha()}
    assert {"REVEAL", "END", "SEAT", "ROLLBACK"} <= gm_words
    for word in gm_words:
        assert f"`{word}" in masters, word
    commands = playing.split("### Other player commands", 1)[1]
    for word in ("DECLINE", "ACCEPT", "STOP", "REPORT"):
        assert f"| `{word}" in commands, word

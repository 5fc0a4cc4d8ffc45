"""docs/fair-play.md's worked example is true: its saved report parts, given to tools/verify_record.py,
verify with exactly the output the page shows, and the changed bid it describes fails as the page says.
Its parts come from a real game (tests/support/fair_play_example.py), and the same game played again
verifies too. The tool runs on the standard library alone."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from fair_play_example import play

from pbem.service.api import GameService

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "verify_record.py"
CHANGED = ('"orders":["BID 2"],"seat":"1","turn":2}', '"orders":["BID 3"],"seat":"1","turn":2}')


def example() -> tuple[list[str], list[str]]:
    """The example's saved texts (the receipt, then each report's part) and the outputs the page shows."""
    page = (ROOT / "docs" / "fair-play.md").read_text(encoding="utf-8")
    section = page.split("## A worked example", 1)[1].split("\n## ", 1)[0]
    texts = re.findall(r"```text\n(.*?)```", section, re.S)
    outputs = [block.split("\n", 1)[1] for block in re.findall(r"```console\n(.*?)```", section, re.S)]
    return texts, outputs


def run(folder: Path) -> subprocess.CompletedProcess[str]:
    """The tool as a player runs it: Python alone, without site-packages (-S) or the environment (-I), so
    it works with the standard library only."""
    return subprocess.run([sys.executable, "-I", "-S", str(TOOL), str(folder)], capture_output=True, text=True,
                          timeout=60)


def write(folder: Path, texts: list[str]) -> Path:
    folder.mkdir()
    for number, text in enumerate(texts):
        (folder / f"part-{number}.txt").write_text(text, encoding="utf-8")
    return folder


def test_the_pages_example_verifies_as_the_page_says(tmp_path: Path) -> None:
    texts, (ok, failed) = example()
    assert len(texts) >= 4 and texts[0].startswith("Receipt for game fp, turn 1, seat 1")
    checked = run(write(tmp_path / "fp-mails", texts))
    assert checked.returncode == 0 and checked.stdout == ok, checked.stdout
    changed = [text.replace(*CHANGED) for text in texts]
    assert changed != texts
    checked = run(write(tmp_path / "changed", changed))
    assert checked.returncode == 1 and checked.stdout == failed, checked.stdout


def test_the_examples_game_played_again_verifies(runner: GameService, tmp_path: Path) -> None:
    receipt, parts = play(runner)
    checked = run(write(tmp_path / "again", [receipt + "\n", *parts]))
    assert checked.returncode == 0 and "5 record entries" in checked.stdout, checked.stdout

"""``pbem demo`` (the mail demo) run as a person runs it: the real command in a
subprocess, robots playing a whole game by real mail, transcripts left as mbox files."""

from __future__ import annotations

import email
import mailbox
import os
import re
import subprocess
import sys
from email.message import Message
from email.policy import default
from pathlib import Path

PBEM = Path(sys.executable).with_name("pbem")
TURN_LINE = re.compile(r"^turn +(\d+): A .*; B .*; C .*; D .* -> scores A=\S+, B=\S+, C=\S+, D=\S+$", re.M)


def _texts(path: Path) -> list[tuple[str, str, str]]:
    """(From, Subject, plain text) of every mail in an mbox file, in order."""
    box = mailbox.mbox(str(path), create=False)
    try:
        found = []
        for raw in box.itervalues():
            message = email.message_from_bytes(raw.as_bytes(), policy=default)
            body = message.get_body(("plain",))
            assert isinstance(body, Message)
            found.append((str(message["From"]), str(message["Subject"]), body.get_content()))
        return found
    finally:
        box.close()


def test_pbem_demo_plays_a_game_to_the_end_by_mail_and_leaves_an_mbox_per_player(tmp_path: Path) -> None:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}, "PBEM_DB": str(tmp_path / "live.db")}
    subprocess.run([str(PBEM), "new", "race-on-the-river", "g1", "--seat", "1=a@example.org",
                    "--seat", "2=b@example.org"], cwd=tmp_path, env=env, check=True, capture_output=True)
    result = subprocess.run([str(PBEM), "demo"], cwd=tmp_path, capture_output=True, env=env,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    working = re.search(r"^pbem demo: working in (\S+)$", out, re.M)
    assert working is not None, out
    log = subprocess.run([str(PBEM), "log", "g1"], cwd=tmp_path, env=env, check=True, capture_output=True, text=True)
    assert "RESOLVE" not in log.stdout, "the live database's game is left alone"
    turns = [int(n) for n in TURN_LINE.findall(out)]
    assert turns == list(range(1, len(turns) + 1)) and len(turns) >= 3, out
    over = re.search(r"^Game over after (\d+) turns: winners? ([A-D](?: and [A-D])*) \(scores", out, re.M)
    assert over is not None and int(over.group(1)) == turns[-1], out
    assert re.search(r"^turn +1: .*B \d+ orders? \(wrote .*: REFUSED, corrected after the check\)", out, re.M), out
    assert re.search(r"^turn +2: .*D sent nothing, reminded, NMR at the deadline", out, re.M), out

    folder = Path(working.group(1)) / "demo-mail"
    listed = dict(re.findall(r"^  (seat [A-D]|GM) +\S+ +(\S+\.mbox)", out, re.M))
    assert set(listed) == {"GM", "seat A", "seat B", "seat C", "seat D"}, out
    assert all(Path(path).parent == folder and Path(path).is_file() for path in listed.values())

    game = re.search(r"created (\S+) by mail", out)
    assert game is not None
    name = game.group(1)
    final = f"[{name}] Final report"
    for seat in "ABCD":
        mails = _texts(Path(listed[f"seat {seat}"]))
        subjects = [subject for _, subject, _ in mails]
        reports = [s for s in subjects if s.startswith(f"[{name}] Turn ")]
        assert reports == [f"[{name}] Turn {n}" for n in range(1, turns[-1] + 1)], subjects
        assert subjects.count(final) == 1
        checks = [text for sender, subject, text in mails
                  if "gm@pbem.localhost" in sender and subject.startswith("Re: ") and "Your orders v" in text]
        assert checks, f"seat {seat} has no check reply"
        assert f"report for seat {seat}" in next(text for _, subject, text in mails if subject == final)
        sent = [text for sender, _, text in mails if "gm@pbem.localhost" not in sender]
        assert sent and sent[0].startswith(f"JOIN {name}")
        if seat == "B":
            refused = [text for text in checks if "REFUSED (line" in text]
            assert refused and "^" in refused[0]
            assert any("These orders replace your previous ones." in text for text in checks)
        if seat == "D":
            assert any(s.startswith(f"[{name}] Reminder: turn 2") for s in subjects)
            after_nmr = next(text for _, subject, text in mails if subject == f"[{name}] Turn 3")
            assert "No orders received (NMR) from: D." in after_nmr
    gm_subjects = [subject for _, subject, _ in _texts(Path(listed["GM"]))]
    assert gm_subjects.count(final) == 1

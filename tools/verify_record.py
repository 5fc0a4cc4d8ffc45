#!/usr/bin/env python3
"""Check a pbem game's record from its report mails alone (Python 3 standard library only).

Usage: python3 verify_record.py PATH...   (saved mails: .eml files, folders of them, mbox files)

Every turn report carries the game record's new entries in a block between the lines ``~~~ record``
and ``~~~``: one entry a line, in canonical JSON (sorted keys, no spaces, ASCII), and the orders the
report reveals with their nonces. The tool checks, for every game in the mails:

- the chain: each entry's SHA-256 is taken of its canonical line, each names the hash of the entry
  before it (``prev``) and its place (``seq``); no entry may differ between two mails; every head a
  report shows (``Game record: turn N, chain H``; ``the start`` for the opening) is an entry of the chain;
- the receipts: each revealed order's receipt, SHA-256 of the canonical JSON of
  ``{"game", "turn", "seat", "orders", "nonce"}``, is the one in the record; and each receipt the
  service gave you when it accepted your orders (``Receipt for game G, turn T, seat S, vN: H``) is the one
  the record resolved (when you were not NMR);
- the dice, once the seed is revealed (``Seed revealed:``, in the final report): the secret matches the
  commitment of the record's start entry, and every draw of every entry is recomputed (verify_dice.py's
  generator, imported from beside this file).

It says which turn fails. Exit 0 when everything checked agrees, 1 when something fails, 2 when the mails
hold no record. docs/fair-play.md explains it with an example.
"""

import email
import email.policy
import hashlib
import json
import mailbox
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify_dice import REVEAL, commitment, draw_failures, message_text, seed_of  # noqa: E402

HEAD = re.compile(r"^Game record: (?:turn (\d+)|the start), chain ([0-9a-f]{64})\s*$", re.M)
RECEIPT = re.compile(r"^Receipt for game (\S+), turn (\d+), seat (\S+), v\d+: ([0-9a-f]{64})\s*$", re.M)
BLOCK_START, BLOCK_END = "~~~ record", "~~~"


def canonical(value):
    """The canonical one-line JSON of a value: sorted keys, no spaces, ASCII only."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def sha256(text):
    """SHA-256 of a text, in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def receipt(game, turn, seat, orders, nonce):
    """The receipt of one seat's orders for one turn with their nonce."""
    return sha256(canonical({"game": game, "turn": turn, "seat": seat, "orders": orders, "nonce": nonce}))


def messages(path):
    """The mails of a path: a folder (every file in it, by name), an mbox file, or one saved mail (or a
    report saved as text)."""
    if os.path.isdir(path):
        for root, folders, files in os.walk(path):
            folders.sort()
            for name in sorted(files):
                yield from messages(os.path.join(root, name))
        return
    with open(path, "rb") as handle:
        start = handle.read(5)
    if start == b"From ":
        for message in mailbox.mbox(path, factory=None, create=False):
            yield email.message_from_bytes(message.as_bytes(), policy=email.policy.default)
        return
    with open(path, "rb") as handle:
        message = email.message_from_binary_file(handle, policy=email.policy.default)
    if message.keys():
        yield message
    else:
        with open(path, "rb") as handle:
            fake = email.message.EmailMessage()
            fake.set_content(handle.read().decode("utf-8", "replace"))
            yield fake


class Game:
    """What the mails tell of one game."""

    def __init__(self, name):
        self.name = name
        self.entries = {}  # seq -> (line as canonical, its hash, the entry)
        self.revealed = []  # (entry seq, turn, seat, orders, nonce)
        self.heads = []  # (turn, hash)
        self.receipts = {}  # (turn, seat) -> set of receipts the seat was given
        self.secrets = set()
        self.failures = []

    def fail(self, text):
        """Note a failure (once)."""
        if text not in self.failures:
            self.failures.append(text)


def read_mail(text, games):
    """Take one mail's text into ``games`` (by game name)."""
    text = text.replace("\r\n", "\n")
    found, inside = [], False
    for line in text.split("\n"):
        if line == BLOCK_START:
            inside = True
        elif inside and line == BLOCK_END:
            inside = False
        elif inside and line.strip():
            try:
                found.append(json.loads(line))
            except ValueError:
                found.append({"unreadable": line[:60]})
    names = {item["game"] for item in found if isinstance(item, dict) and "game" in item}
    for item in found:
        if not isinstance(item, dict) or "unreadable" in item:
            for name in names:
                games.setdefault(name, Game(name)).fail(f"a record line is not JSON: {item}")
            continue
        if "prev" in item:
            game = games.setdefault(item["game"], Game(item["game"]))
            line = canonical(item)
            seq = item.get("seq")
            if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
                game.fail(f"turn {item.get('turn')}: a record entry has no place in the chain")
                continue
            held = game.entries.get(seq)
            if held is not None and held[0] != line:
                game.fail(f"turn {item.get('turn')}: record entry {seq} differs between two mails")
            elif held is None:
                game.entries[seq] = (line, sha256(line), item)
        elif "nonce" in item:
            for name in names:
                games[name].revealed.append((item.get("entry"), item.get("turn"), item.get("seat"),
                                             item.get("orders"), item.get("nonce")))
    for name in names:
        game = games[name]
        game.heads += [(int(turn or 0), head) for turn, head in HEAD.findall(text)]
        game.secrets.update(REVEAL.findall(text))
    for name, turn, seat, value in RECEIPT.findall(text):
        games.setdefault(name, Game(name)).receipts.setdefault((int(turn), seat), set()).add(value)


def check_chain(game):
    """Links, places and heads."""
    hashes = {held[1]: seq for seq, held in game.entries.items()}
    for seq in sorted(game.entries):
        entry = game.entries[seq][2]
        turn = entry.get("turn")
        if seq == 0:
            if entry.get("prev") != "":
                game.fail(f"turn {turn}: the first record entry names an entry before it")
            continue
        before = game.entries.get(seq - 1)
        if before is None:
            game.fail(f"turn {turn}: record entry {seq} cannot be linked: no mail here holds entry {seq - 1}")
        elif entry.get("prev") != before[1]:
            game.fail(f"turn {turn}: record entry {seq} does not link to entry {seq - 1} "
                      f"(turn {before[2].get('turn')}): the record was changed")
    for turn, head in game.heads:
        seq = hashes.get(head)
        if seq is None:
            game.fail(f"turn {turn}: a report's head {head} is no entry of the record in these mails")
        elif game.entries[seq][2].get("turn") != turn:
            game.fail(f"turn {turn}: a report's head {head} is the entry of turn {game.entries[seq][2].get('turn')}")


def check_receipts(game):
    """Revealed orders against the record's receipts, and the receipts the seats were given."""
    checked = 0
    for seq, turn, seat, orders, nonce in game.revealed:
        held = game.entries.get(seq)
        if held is None:
            game.fail(f"turn {turn}: orders of seat {seat} are revealed for record entry {seq}, which no mail holds")
            continue
        entry = held[2]
        checked += 1
        if entry.get("turn") != turn or entry.get("orders", {}).get(seat) != receipt(game.name, turn, seat, orders, nonce):
            game.fail(f"turn {turn}: seat {seat}'s orders as revealed ({'; '.join(map(str, orders or []))}) do not "
                      f"match their receipt in the record (entry {seq})")
    for (turn, seat), given in sorted(game.receipts.items()):
        for _, _, entry in game.entries.values():
            if entry.get("kind") != "turn" or entry.get("turn") != turn or seat in entry.get("nmr", []):
                continue
            resolved = entry.get("orders", {}).get(seat)
            checked += 1
            if resolved is not None and resolved not in given:
                game.fail(f"turn {turn}: the record resolved orders of seat {seat} that the service never "
                          f"receipted to it (entry {entry.get('seq')})")
    return checked


def check_dice(game):
    """The revealed secret against the start entry's commitment, and every entry's draws."""
    start = game.entries.get(0)
    if not game.secrets or start is None:
        return "dice: the seed is not revealed in these mails yet (the final report reveals it)"
    if len(game.secrets) > 1:
        game.fail("the mails reveal more than one seed")
        return "dice: not checked"
    secret = next(iter(game.secrets))
    fields = start[2]
    if commitment(game.name, secret) != fields.get("commitment"):
        game.fail(f"turn 0: the revealed seed does not match the commitment {fields.get('commitment')}")
        return "dice: not checked"
    key = seed_of(secret, fields.get("salts", [])).to_bytes(8, "big")
    count = 0
    for seq in sorted(game.entries):
        entry = game.entries[seq][2]
        draws = [tuple(d) for d in entry.get("draws", [])]
        count += len(draws)
        for counter, n, result, expected in draw_failures(key, draws):
            game.fail(f"turn {entry.get('turn')}: draw at counter {counter} of range {n}: recorded {result}, "
                      f"recomputed {expected}")
    return f"dice: commitment ok, {count} draws recomputed"


def main(paths):
    if not paths:
        print(__doc__.split("\n\n")[1])
        return 2
    games = {}
    for path in paths:
        for message in messages(path):
            read_mail(message_text(message), games)
    recorded = [game for game in games.values() if game.entries]
    if not recorded:
        print("no game record in these mails (reports carry it between '~~~ record' and '~~~')")
        return 2
    status = 0
    for game in sorted(recorded, key=lambda g: g.name):
        check_chain(game)
        receipts = check_receipts(game)
        dice = check_dice(game)
        last = max(game.entries)
        for failure in game.failures:
            print(f"FAIL game {game.name}: {failure}")
        verdict = "FAILED" if game.failures else "ok"
        print(f"game {game.name}: {len(game.entries)} record entries (up to turn {game.entries[last][2].get('turn')}, "
              f"head {game.entries[last][1]}), {receipts} receipts checked, {dice}: {verdict}")
        status = status or (1 if game.failures else 0)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

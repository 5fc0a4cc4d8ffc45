#!/usr/bin/env python3
"""Check a pbem game's dice from its report mails alone (Python 3 standard library only).

Usage: python3 verify_dice.py REPORT_FILE...   (saved mails or report texts, any order of files
is fine as long as the game's reports are all given; draws are checked by their counters)

It reads the game's name and seed commitment, the salts, the revealed secret and every
``Draws (counter:range=result)`` line, then checks that SHA-256(name + "\\n" + secret)
is the commitment and recomputes every draw. Exit 0 when everything agrees, 1 otherwise.
"""

import email
import email.policy
import hashlib
import hmac
import re
import sys

COMMIT = re.compile(r"^Seed commitment for game (\S+) \(SHA-256\): ([0-9a-f]{64})\s*$", re.M)
SALT = re.compile(r"^Salt: (.*?)\s*$", re.M)
REVEAL = re.compile(r"^Seed revealed: (\S+)\s*$", re.M)
DRAWS = re.compile(r"^Draws \(counter:range=result\): (.*)$", re.M)
DRAW = re.compile(r"(\d+):(\d+)=(\d+)")


def seed_of(secret, salts):
    """The game's seed: first 8 bytes of SHA-256(secret, "\\n", salts...) shifted right one bit."""
    material = "\n".join([secret, *salts]).encode()
    return int.from_bytes(hashlib.sha256(material).digest()[:8], "big") >> 1


def word(key, counter):
    """The 64-bit word of a counter: first 8 bytes of HMAC-SHA256(key, counter as 8 bytes)."""
    return int.from_bytes(hmac.digest(key, counter.to_bytes(8, "big"), "sha256")[:8], "big")


def draw(key, counter, n):
    """Recompute one draw of range n (0 = a float draw) starting at counter: (result, next counter)."""
    if n == 0:
        return word(key, counter) >> 11, counter + 1
    limit = 2**64 - 2**64 % n
    while True:
        value = word(key, counter)
        counter += 1
        if value < limit:
            return value % n, counter


def message_text(message):
    """The text/plain parts of a parsed mail, decoded and joined."""
    parts = [part.get_content() for part in message.walk() if part.get_content_type() == "text/plain"]
    return "\n".join(parts)


def plain_text(path):
    """The text/plain parts of a saved mail (decoded), or the file itself when it is no mail."""
    with open(path, "rb") as handle:
        message = email.message_from_binary_file(handle, policy=email.policy.default)
    if not message.keys():
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    return message_text(message)


def commitment(game, secret):
    """The published commitment of a game's secret: SHA-256(name + "\\n" + secret), in hex."""
    return hashlib.sha256(f"{game}\n{secret}".encode()).hexdigest()


def draw_failures(key, draws):
    """The draws ``(counter, range, result)`` that the key does not give, as ``(counter, range, result,
    recomputed)``, in counter order."""
    wrong = []
    for counter, n, result in sorted(draws):
        expected, _ = draw(key, counter, n)
        if expected != result:
            wrong.append((counter, n, result, expected))
    return wrong


def main(paths):
    text = "\n".join(plain_text(p) for p in paths).replace("\r\n", "\n")
    commits = set(COMMIT.findall(text))
    if len(commits) != 1:
        print(f"expected one game and commitment, found {len(commits)}")
        return 1
    ((game, promised),) = commits
    secrets = set(REVEAL.findall(text))
    if len(secrets) != 1:
        print("the seed is not revealed in these mails (it is, in the final report)")
        return 1
    secret = secrets.pop()
    salts = list(dict.fromkeys(SALT.findall(text)))
    if commitment(game, secret) != promised:
        print(f"FAIL: the revealed secret does not match the commitment {promised}")
        return 1
    key = seed_of(secret, salts).to_bytes(8, "big")
    draws = set()  # every listed draw: a rolled-back turn and its redo may list the same counter
    for line in DRAWS.findall(text):
        for counter, n, result in DRAW.findall(line):
            draws.add((int(counter), int(n), int(result)))
    wrong = draw_failures(key, draws)
    for counter, n, result, expected in wrong:
        print(f"FAIL: draw at counter {counter} of range {n}: reported {result}, recomputed {expected}")
    print(f"game {game}: commitment ok, {len(salts)} salt(s), {len(draws)} draws, {len(wrong)} wrong")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

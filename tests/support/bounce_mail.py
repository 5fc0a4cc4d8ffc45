"""Bounces as mail servers write them, for the tests of pbem/mail/handling/bounces.py and of bounces by mail."""

from __future__ import annotations

GM_ADDRESS = "gm@pbem.test"


def postfix_dsn(to: str, recipient: str, *, action: str = "failed", status: str = "5.1.1") -> bytes:
    """A delivery status notification built the way Postfix builds one (RFC 3464)."""
    diagnostic = ("smtp; 550 5.1.1 <%s>: Recipient address rejected: User unknown in virtual mailbox table"
                  if status.startswith("5") else "smtp; 452 4.2.2 <%s>: Mailbox full") % recipient
    return (f"Return-Path: <>\r\nFrom: MAILER-DAEMON@mx.players.test (Mail Delivery System)\r\nTo: {to}\r\n"
            "Subject: Undelivered Mail Returned to Sender\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"
            'Content-Type: multipart/report; report-type=delivery-status; boundary="4F1C1.1764309600/mx"\r\n'
            "Message-Id: <20261128060000.4F1C1@mx.players.test>\r\n\r\n"
            "This is a MIME-encapsulated message.\r\n\r\n--4F1C1.1764309600/mx\r\nContent-Description: Notification\r\n"
            "Content-Type: text/plain; charset=us-ascii\r\n\r\nThis is the mail system at host mx.players.test.\r\n\r\n"
            "I'm sorry to have to inform you that your message could not\r\nbe delivered to one or more recipients.\r\n"
            "\r\n--4F1C1.1764309600/mx\r\nContent-Description: Delivery report\r\nContent-Type: message/delivery-status"
            "\r\n\r\nReporting-MTA: dns; mx.players.test\r\nX-Postfix-Queue-ID: 4F1C1\r\n"
            f"X-Postfix-Sender: rfc822; {to}\r\nArrival-Date: Sat, 28 Nov 2026 06:00:00 +0000 (UTC)\r\n\r\n"
            f"Final-Recipient: rfc822; {recipient}\r\nOriginal-Recipient: rfc822;{recipient}\r\nAction: {action}\r\n"
            f"Status: {status}\r\nRemote-MTA: dns; mail.players.test\r\nDiagnostic-Code: {diagnostic}\r\n\r\n"
            "--4F1C1.1764309600/mx\r\nContent-Description: Undelivered Message Headers\r\n"
            f"Content-Type: text/rfc822-headers\r\n\r\nFrom: pbem game master <{GM_ADDRESS}>\r\nTo: {recipient}\r\n"
            "Subject: [tc-1] Turn 1\r\n\r\n--4F1C1.1764309600/mx--\r\n").encode()

"""The floor's people: who may record a check or a dispute in their own name.

By default the floor view has one access token for the event, and a person on the floor types
their name on the page before recording anything (:func:`staff_name`): the log then says what
was typed. Where the event gives each person their own token (``dealer-assist floor-staff add
NAME``), the name comes from the token: the floor view records the token's person, whatever the
page sends, and the shared token then only views. Only the SHA-256 of a token is kept
(``floor_staff``, central schema 0006); the token itself is printed once, when it is made.

>>> token_digest("abc")[:16]
'ba7816bf8f01cfea'
"""
from __future__ import annotations

import hashlib
import secrets
from typing import Any, Optional

from dealer_assist.errors import UserError
from dealer_assist.i18n import _
from dealer_assist.people import NAME_MAX, person_name

__all__ = ["STAFF_MAX", "staff_name", "token_digest", "add_staff", "revoke_staff", "list_staff", "accounts", "who"]

#: The most characters a floor manager's name may have (``staff_name``).
STAFF_MAX = NAME_MAX


def staff_name(value: Any) -> str:
    """Who on the floor records a check or a dispute, as they typed it on the page (or as their
    account names them): the name trimmed; :class:`UserError` in one line for anything else (no
    name, not text, too long, or holding control characters).

    >>> staff_name("  田中 ")
    '田中'
    >>> staff_name("")
    Traceback (most recent call last):
    ...
    dealer_assist.errors.UserError: say who records it: a name of 1 to 40 characters
    """
    name = person_name(value)
    if name is None:
        raise UserError(_("say who records it: a name of 1 to {n} characters", n=STAFF_MAX))
    return name


def _q(con, sql: str, args: tuple = ()) -> list[tuple]:
    """Rows as tuples, whatever row factory ``con`` has (the floor's reader gives dicts)."""
    from psycopg.rows import tuple_row

    cur = con.cursor(row_factory=tuple_row)
    cur.execute(sql, args)
    return cur.fetchall() if cur.description else []


def token_digest(token: str) -> str:
    """What the log keeps of a person's token: its SHA-256, in hex (a token is 32 random bytes,
    so a plain hash is enough; the log never holds the token)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def add_staff(con, name: str) -> str:
    """A new account for ``name`` (:func:`staff_name`): returns its token, made here and kept
    nowhere. :class:`UserError` when someone of that name already has one (revoke it first)."""
    name = staff_name(name)
    if _q(con, "SELECT 1 FROM floor_staff WHERE name = %s AND revoked IS NULL", (name,)):
        raise UserError(_("{staff} already has a floor address: revoke it first "
                          "(dealer-assist floor-staff revoke)", staff=name))
    token = secrets.token_urlsafe(32)
    _q(con, "INSERT INTO floor_staff (name, token_sha256) VALUES (%s, %s)", (name, token_digest(token)))
    return token


def revoke_staff(con, name: str) -> bool:
    """Ends ``name``'s account: their token no longer opens the floor view (within seconds on a
    running one). False when no one of that name has an account."""
    return bool(_q(con, "UPDATE floor_staff SET revoked = now() WHERE name = %s AND revoked IS NULL RETURNING id",
                   (staff_name(name),)))


def list_staff(con) -> list[dict]:
    """Every account, oldest first: ``{"name", "created", "revoked"}`` (datetimes; revoked None
    while the token works)."""
    rows = _q(con, "SELECT name, created, revoked FROM floor_staff ORDER BY created, id")
    return [{"name": r[0], "created": r[1], "revoked": r[2]} for r in rows]


def accounts(con) -> dict[str, tuple[int, str]]:
    """The tokens that open the floor view now: digest -> (account id, name)."""
    return {r[0]: (r[1], r[2]) for r in _q(con, "SELECT token_sha256, id, name FROM floor_staff WHERE revoked IS NULL")}


def who(digests: dict[str, tuple[int, str]], token: str) -> Optional[tuple[int, str]]:
    """The account whose token this is (:func:`accounts`), or None."""
    return digests.get(token_digest(token)) if token else None

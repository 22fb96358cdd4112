"""Connecting to the central log and bringing its schema up to date (Alembic, ``migrations/``).

>>> check_url("postgresql://floor:secret@db.example:5432/event")
'postgresql://floor:secret@db.example:5432/event'
>>> shown_url("postgresql://floor:secret@db.example:5432/event")
'postgresql://floor:***@db.example:5432/event'
>>> check_url("mysql://x")
Traceback (most recent call last):
...
dealer_assist.errors.UserError: --central wants a PostgreSQL URL such as postgresql://USER:PASSWORD@HOST/DB, not 'mysql://x'
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

from dealer_assist.errors import UserError
from dealer_assist.i18n import _, typed

__all__ = ["check_url", "shown_url", "connect", "upgrade", "HEAD", "describe_error", "check_table_name"]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The newest migration; a database at another revision is upgraded (or refused if newer).
HEAD = "0007"
_LOCK = 0x44414347   # pg_advisory_lock key: one migrator at a time


def check_url(text: Any) -> str:
    """``--central``: a ``postgresql://`` (or ``postgres://``) URL, else a one-line UserError."""
    s = str(text).strip()
    if not re.match(r"^postgres(ql)?://", s) or any(ch in s for ch in "\n\r\0 "):
        raise UserError(_("--central wants a PostgreSQL URL such as postgresql://USER:PASSWORD@HOST/DB, "
                          "not {text}", text=typed(s[:60])))
    return s


def shown_url(url: str) -> str:
    """The URL without its password, for screens and logs."""
    return re.sub(r"^(postgres(?:ql)?://[^:/@]*):[^@/]*@", r"\1:***@", url)


def check_table_name(text: Any) -> str:
    """``--table``: 1-40 letters, digits, ``-``, ``_`` or ``.``.

    >>> check_table_name("T12")
    'T12'
    """
    s = str(text).strip()
    if not re.fullmatch(r"[\w.\-]{1,40}", s):
        raise UserError(_("--table wants a name of 1-40 letters, digits, '-', '_' or '.', not {text}",
                          text=typed(s[:60])))
    return s


def describe_error(exc: BaseException) -> str:
    """A psycopg error as one short line (no password, no traceback)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]


def connect(url: str, *, autocommit: bool = False, timeout: float = 5.0):
    """A psycopg connection; a network-side failure is raised as psycopg's ``OperationalError``.

    Keepalives and a TCP user timeout make a cut cable fail a query in seconds instead of hanging.
    """
    import psycopg

    kwargs: dict = {"connect_timeout": max(1, int(timeout)), "autocommit": autocommit,
                    "application_name": "dealer-assist"}
    if "host=/" not in url and "@/" not in url:     # TCP, not a Unix socket
        kwargs.update(keepalives=1, keepalives_idle=5, keepalives_interval=2, keepalives_count=2,
                      tcp_user_timeout=int(timeout * 1000))
    return psycopg.connect(url, **kwargs)


def revision(con) -> Optional[str]:
    """The schema revision of the database (None: no schema yet)."""
    row = con.execute("SELECT to_regclass('central_schema_version')").fetchone()
    if row[0] is None:
        return None
    row = con.execute("SELECT version_num FROM central_schema_version").fetchone()
    return None if row is None else row[0]


def upgrade(url: str, to: str = HEAD) -> str:
    """Create or migrate the central schema to :data:`HEAD` (Alembic), one migrator at a time
    (``to``: an earlier revision, as an older release would leave the log).

    Returns the revision. Raises UserError for a database newer than this code.
    """
    import psycopg
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    try:
        with connect(url, autocommit=True) as con:
            rev = revision(con)
            if rev == to:
                return rev
            if rev is not None and rev > HEAD:
                raise UserError(_("the central log {url} has schema {rev}, newer than this "
                                  "dealer-assist ({head}): update dealer-assist", url=shown_url(url), rev=rev,
                                  head=HEAD))
            con.execute("SELECT pg_advisory_lock(%s)", (_LOCK,))
            try:
                engine = sa.create_engine("postgresql+psycopg://", creator=lambda: connect(url),
                                          poolclass=sa.pool.NullPool)
                cfg = Config()
                cfg.set_main_option("script_location", str(MIGRATIONS))
                with engine.begin() as sa_con:
                    cfg.attributes["connection"] = sa_con
                    command.upgrade(cfg, to)
                engine.dispose()
                return revision(con) or HEAD
            finally:
                con.execute("SELECT pg_advisory_unlock(%s)", (_LOCK,))
    except psycopg.Error as exc:
        raise UserError(_("cannot set up the central log {url}: {why}", url=shown_url(url),
                          why=describe_error(exc))) from None
    except sa.exc.SQLAlchemyError as exc:
        raise UserError(_("cannot set up the central log {url}: {why}", url=shown_url(url),
                          why=describe_error(exc.orig or exc))) from None

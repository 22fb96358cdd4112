"""Fixtures shared by several test modules."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _japanese_unless_told(monkeypatch):
    """Every test starts with the project's default language, Japanese, whatever the machine's
    DEALER_ASSIST_LANG (the tests that set it do so themselves)."""
    monkeypatch.delenv("DEALER_ASSIST_LANG", raising=False)


@pytest.fixture(scope="session")
def pg_server():
    """A throwaway PostgreSQL server for the whole run (the pgserver wheel of the test extra),
    started on first use; each test makes its own database on it (``new_database``)."""
    pytest.importorskip("pgserver", reason="the throwaway PostgreSQL needs the test extra (pgserver)")
    from dealer_assist.central.throwaway import throwaway_postgres

    with throwaway_postgres() as url:
        yield url

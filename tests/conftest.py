"""Fixtures shared by several test modules."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def pg_server():
    """A throwaway PostgreSQL server for the whole run (the pgserver wheel of the test extra),
    started on first use; each test makes its own database on it (``new_database``)."""
    pytest.importorskip("pgserver", reason="the throwaway PostgreSQL needs the test extra (pgserver)")
    from dealer_assist.central.throwaway import throwaway_postgres

    with throwaway_postgres() as url:
        yield url

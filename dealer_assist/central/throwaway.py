"""A throwaway PostgreSQL for the tests and the benchmark, and a TCP proxy whose cable can be cut.

The server comes from the ``pgserver`` wheel (PostgreSQL's own binaries in a pip package: the
``test`` extra), listens on a Unix socket in a temporary folder and is stopped and deleted at the
end; nothing is needed from the machine. :class:`CutProxy` forwards 127.0.0.1:PORT to it, and
``cut()`` / ``restore()`` drop every connection and refuse new ones, as a pulled network cable
would, then let them in again on the same port. Not used by any command.
"""
from __future__ import annotations

import contextlib
import logging
import re
import shutil
import socket
import tempfile
import threading
import uuid
from typing import Iterator, Optional

__all__ = ["throwaway_postgres", "new_database", "CutProxy"]


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A fresh PostgreSQL server for the block; yields its URL (Unix socket, user postgres)."""
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")    # platformdirs, via pgserver
        import pgserver

        folder = tempfile.mkdtemp(prefix="dealer-pg-")
        server = pgserver.get_server(folder, cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        # throwaway data: no shutdown checkpoint to wait for; pgserver's own stop then finds the
        # server gone and would say so at length
        logging.getLogger("pgserver").setLevel(logging.CRITICAL)
        with contextlib.suppress(Exception):
            from pgserver._commands import pg_ctl

            pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=server.pgdata, user=server.system_user)
        with contextlib.suppress(Exception):
            server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def socket_of(url: str) -> str:
    """The Unix socket file behind a pgserver URL (``...?host=/tmp/x`` -> ``/tmp/x/.s.PGSQL.5432``)."""
    m = re.search(r"host=([^&]+)", url)
    port = re.search(r"port=(\d+)", url)
    if not m:
        raise ValueError(f"not a Unix-socket URL: {url}")
    return f"{m.group(1)}/.s.PGSQL.{port.group(1) if port else 5432}"


def new_database(url: str, name: Optional[str] = None) -> str:
    """Create an empty database on the server of ``url``; returns ``url`` pointing at it."""
    import psycopg

    name = name or "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(url, autocommit=True) as con:
        con.execute(f'CREATE DATABASE "{name}"')
    return re.sub(r"^(postgres(?:ql)?://[^/]*/)[^?]*", lambda m: m.group(1) + name, url)


class CutProxy:
    """127.0.0.1:``port`` -> the Unix socket ``target``; ``cut()`` pulls the cable, ``restore()`` plugs it back."""

    def __init__(self, target: str):
        self.target = target
        self._lock = threading.Lock()
        self._conns: list[socket.socket] = []
        self._listener: Optional[socket.socket] = None
        self.port = 0
        self.restore()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def restore(self) -> None:
        with self._lock:
            if self._listener is not None:
                return
            ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            ls.bind(("127.0.0.1", self.port))
            ls.listen(64)
            self.port = ls.getsockname()[1]
            self._listener = ls
        threading.Thread(target=self._accept, args=(ls,), daemon=True).start()

    def cut(self) -> None:
        with self._lock:
            ls, self._listener = self._listener, None
            conns, self._conns = self._conns, []
        if ls is not None:
            with contextlib.suppress(OSError):
                ls.shutdown(socket.SHUT_RDWR)
            ls.close()
        for c in conns:
            with contextlib.suppress(OSError):
                c.shutdown(socket.SHUT_RDWR)
            c.close()

    close = cut

    def _accept(self, ls: socket.socket) -> None:
        while True:
            try:
                client, _ = ls.accept()
            except OSError:
                return
            try:
                upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                upstream.connect(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._listener is not ls:      # cut meanwhile
                    client.close()
                    upstream.close()
                    return
                self._conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()

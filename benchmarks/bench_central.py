"""Load on the central log and the floor view, on this machine (loopback only), bounded in time.

``python benchmarks/bench_central.py [--tables 40] [--seconds 40] [--hand-every 20]``

A throwaway PostgreSQL (pgserver), the floor server as its own process (``dealer-assist floor``),
and N simulated tables in this process, each with its own SQLite hand log and the real forwarder
thread (:class:`dealer_assist.central.forward.Forwarder`). Every table plays one hand of the
sample clip's recorded events every ``--hand-every`` seconds (staggered), and every 3 seconds one
table sends a burst of 20 alerts. A browser-like client holds the floor's live stream (SSE) and
notes when each table's newest event shows up there.

Prints: events per second recorded at the tables and held by the central log (and the backlog
left at the end), the lag from an event's record at the table to the floor page (median, p99,
max), and the floor server's memory (resident, peak). No target is asserted: figures only.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dealer_assist.central.forward import Forwarder  # noqa: E402
from dealer_assist.central.schema import upgrade  # noqa: E402
from dealer_assist.central.throwaway import new_database, throwaway_postgres  # noqa: E402
from dealer_assist.live.handlog import HandLog  # noqa: E402

EVENTS = [json.loads(x) for x in (ROOT / "tests" / "data" / "clip-run-events.jsonl").read_text().splitlines()
          if x.strip()]
HANDS = [[e for e in EVENTS if e.get("hand") == n] for n in sorted({e["hand"] for e in EVENTS if e.get("hand")})]


def rss_kib(pid: int) -> tuple[int, int]:
    """(resident, peak resident) of a process in KiB."""
    out = {}
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1])
    return out.get("VmRSS", 0), out.get("VmHWM", 0)


class Table:
    def __init__(self, name: str, folder: Path, url: str, offset: float):
        self.name = name
        self.db = folder / f"{name}.sqlite"
        self.log = HandLog(self.db, source="bench", game="joker-holdem")
        self.fw = Forwarder(str(self.db), url, name, say=lambda line: None).start()
        self.offset = offset
        self.hand = 0
        self.queue: list[tuple[float, dict]] = []
        self.recorded = 0
        self.walls: dict[int, float] = {}      # seq -> wall time it was recorded

    def schedule_hand(self, start: float, every: float) -> None:
        self.hand += 1
        evs = HANDS[(self.hand - 1) % len(HANDS)]
        t0 = evs[0]["t"]
        span = max(1e-3, evs[-1]["t"] - t0)
        for e in evs:
            ev = dict(e, hand=self.hand)
            self.queue.append((start + (e["t"] - t0) / span * every * 0.7, ev))

    def record(self, ev: dict) -> None:
        seq = self.log.record(ev)
        self.walls[seq] = time.time()
        self.recorded += 1
        self.fw.poke()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=40.0, help="how long the tables play (default 40)")
    ap.add_argument("--hand-every", type=float, default=20.0, help="seconds between a table's hands (default 20)")
    ap.add_argument("--port", type=int, default=8799)
    args = ap.parse_args(argv)
    rnd = random.Random(24)
    token = "bench-token-0000"
    with throwaway_postgres() as server, tempfile.TemporaryDirectory() as tmp:
        url = new_database(server)
        upgrade(url)
        floor = subprocess.Popen([sys.executable, "-m", "dealer_assist", "floor", "--central", url, "--token", token,
                                  "--port", str(args.port)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True)
        try:
            floor.stdout.readline()                 # "floor view on http://..."
            tables = [Table(f"T{i + 1:02d}", Path(tmp), url, rnd.uniform(0, args.hand_every))
                      for i in range(args.tables)]
            by_name = {t.name: t for t in tables}
            seen: dict[str, int] = {}
            lags: list[float] = []
            stop = threading.Event()

            def listen():
                con = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
                con.request("GET", f"/api/stream?token={token}")
                resp = con.getresponse()
                while not stop.is_set():
                    chunk = resp.fp.readline()
                    if not chunk:
                        break
                    if chunk.startswith(b"data: "):
                        now = time.time()
                        body = json.loads(chunk[6:])
                        for t in body.get("tables") or ():
                            last = t.get("last_seq") or 0
                            table = by_name.get(t["table"])
                            if table is None or last <= seen.get(t["table"], 0):
                                continue
                            seen[t["table"]] = last
                            wall = table.walls.get(last)
                            if wall is not None:
                                lags.append(now - wall)
                con.close()

            listener = threading.Thread(target=listen, daemon=True)
            listener.start()
            start = time.time()
            for t in tables:
                k = 0
                while t.offset + k * args.hand_every < args.seconds:
                    t.schedule_hand(start + t.offset + k * args.hand_every, args.hand_every)
                    k += 1
            plan = sorted(((when, t.name, ev) for t in tables for when, ev in t.queue), key=lambda x: x[0])
            burst_at = [start + 1.5 + 3 * i for i in range(int(args.seconds / 3))]
            for when in burst_at:
                t = rnd.choice(tables)
                for j in range(20):
                    plan.append((when + j * 0.01, t.name, {"type": "alert", "code": "duplicate_card", "zone": "board1",
                                                           "card": "Ks", "message": "burst", "message_ja": "burst",
                                                           "cleared": j % 2 == 1}))
            plan = sorted((x for x in plan if x[0] <= start + args.seconds), key=lambda x: x[0])
            mem = []
            next_mem = start
            for when, name, ev in plan:
                delay = when - time.time()
                if delay > 0:
                    time.sleep(delay)
                ev = dict(ev, t=round(when - start, 3))
                by_name[name].record(ev)
                if time.time() >= next_mem:
                    mem.append(rss_kib(floor.pid))
                    next_mem = time.time() + 1.0
            played = time.time() - start
            # let the forwarders and the floor catch up (bounded)
            recorded = sum(t.recorded for t in tables)
            deadline = time.time() + 10
            while time.time() < deadline and sum(seen.values()) < recorded:
                time.sleep(0.1)
            held_at = time.time() - start
            import psycopg

            with psycopg.connect(url) as con:
                arrived = con.execute("SELECT COUNT(*) FROM events").fetchone()[0]
            mem.append(rss_kib(floor.pid))
            stop.set()
            for t in tables:
                t.log.close()
                t.fw.close(timeout_s=2)
        finally:
            floor.send_signal(signal.SIGINT)
            try:
                floor.wait(timeout=10)
            except subprocess.TimeoutExpired:
                floor.kill()
    lags.sort()
    q = lambda p: lags[min(len(lags) - 1, int(p * len(lags)))] * 1000 if lags else float("nan")  # noqa: E731
    print(f"tables {args.tables}, a hand every {args.hand_every:g} s each, alert bursts of 20 every 3 s, "
          f"{played:.1f} s of play on {os.cpu_count()} CPUs (loopback)")
    print(f"events recorded at the tables: {recorded} ({recorded / played:.1f}/s)")
    print(f"events in the central log:     {arrived} ({arrived / held_at:.1f}/s incl. catch-up); "
          f"backlog at the end {recorded - arrived}")
    print(f"lag table -> floor page: median {q(0.5):.0f} ms, p99 {q(0.99):.0f} ms, max {lags[-1] * 1000 if lags else 0:.0f} ms "
          f"({len(lags)} updates seen)")
    print(f"floor server memory: resident {max(m[0] for m in mem) / 1024:.1f} MiB (peak {max(m[1] for m in mem) / 1024:.1f} MiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The floor view in a real headless browser (Debian's chromium driven by Playwright) against a
throwaway PostgreSQL: it lists the tables, shows a new alert within a second, opens a hand,
switches to English, and refuses a request without the token. Without /usr/bin/chromium the
browser test is skipped (it says why); the token and hole-card checks run without a browser."""
from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg", reason="the central log needs the test extra (psycopg)")
pytest.importorskip("pgserver", reason="the throwaway PostgreSQL needs the test extra (pgserver)")
uvicorn = pytest.importorskip("uvicorn", reason="the floor view needs the test extra (uvicorn)")

from dealer_assist.central.floor import create_app  # noqa: E402
from dealer_assist.central.forward import sync_log  # noqa: E402
from dealer_assist.central.throwaway import new_database  # noqa: E402
from dealer_assist.live.handlog import HandLog  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
TOKEN = "floor-test-token"
#: the events of one ``dealer-assist run`` of the sample clip (recorded: tests/data/README.md)
EVENTS = [json.loads(x) for x in (ROOT / "tests" / "data" / "clip-run-events.jsonl").read_text().splitlines()
          if x.strip()]


def _first(kind: str, hand: int) -> int:
    return next(i for i, e in enumerate(EVENTS) if e["type"] == kind and e.get("hand") == hand)


@pytest.fixture(scope="module")
def floor(tmp_path_factory, pg_server):
    """Three tables in the central log (t1 done, t2 at hand 2's river, t3 at hand 2's first shown
    cards) and the floor server on a free port."""
    tmp = tmp_path_factory.mktemp("floor")
    url = new_database(pg_server)
    cut = {"t1": len(EVENTS), "t2": _first("hole", 2), "t3": _first("hole", 2) + 1}
    logs = {}
    for name, n in cut.items():
        db = tmp / f"{name}.sqlite"
        log = HandLog(db, source="camera", game="joker-holdem")
        for ev in EVENTS[:n]:
            log.record(ev)
        if name == "t1":
            log.close()
        logs[name] = (db, log)
        sync_log(str(db), url, name)
    try:
        with serving(create_app(url, TOKEN)) as base:
            yield {"url": url, "base": base, "logs": logs}
    finally:
        for name, (db, log) in logs.items():
            if name != "t1":
                log.close()


def get(url: str, token: str | None = TOKEN):
    if token is not None:
        url += ("&" if "?" in url else "?") + "token=" + token
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@contextlib.contextmanager
def serving(app):
    """``app`` on a free port of this machine: yields its base address."""
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    deadline = time.monotonic() + 20
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{srv.servers[0].sockets[0].getsockname()[1]}"
    finally:
        srv.should_exit = True
        th.join(timeout=10)


def post_to(url: str, body: bytes | None = b"", token: str | None = TOKEN) -> int:
    url += (("&" if "?" in url else "?") + "token=" + urllib.parse.quote(token)) if token else ""
    req = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_every_request_without_the_token_is_refused(floor):
    base = floor["base"]
    for path in ("/", "/api/tables", "/api/stream", "/api/hand/1", "/api/snapshot/1/1"):
        for token in (None, "wrong-token"):
            status, body = get(base + path, token)
            assert status == 401, (path, token)
            assert b"t1" not in body and b"joker" not in body
            assert "アクセストークン".encode() in body or b"access token" in body
    status, body = get(base + "/api/tables")
    assert status == 200 and {t["table"] for t in json.loads(body)["tables"]} == {"t1", "t2", "t3"}


def test_the_floor_marks_a_hand_paid_unconfirmed_as_checked(floor):
    """t2's hand 1 (the clip's) was paid on a provisional ruling: the floor marks its cards checked
    (a POST with the token and who checked them; without the token 401, without a name 400) and the
    table's count drops; a hand not paid so is 404. The hand's page says who checked it, and who
    recorded a dispute."""
    base = floor["base"]

    def post(path, body='{"staff": "田中"}'.encode(), token=TOKEN):
        return post_to(base + path, body, token)

    def t2():
        return next(t for t in json.loads(get(base + "/api/tables")[1])["tables"] if t["table"] == "t2")

    row = t2()
    assert row["unconfirmed"] == 1
    paid = row["unconfirmed_hand"]
    assert post(f"/api/hand/{paid}/checked", token=None) == 401 and t2()["unconfirmed"] == 1
    # no name, or anything else that is not one: refused, nothing recorded
    for body in (None, b"", b"{}", b'{"staff": "  "}', b'{"staff": 7}', b'["staff"]', b"staff=x",
                 b'{"staff": "' + b"x" * 41 + b'"}', rb'{"staff": "a\u0000b"}', rb'{"staff": "a\u2028b"}', b"\xff\xfe",
                 b'{"staff": "' + b"y" * 5000 + b'"}'):
        assert post(f"/api/hand/{paid}/checked", body) == 400, body
        assert post(f"/api/hand/{paid}/dispute", body) == 400, body
    assert t2()["unconfirmed"] == 1 and json.loads(get(f"{base}/api/hand/{paid}")[1])["disputes"] == []
    assert post(f"/api/hand/{row['hand_id']}/checked") == 404        # hand 2, still in play
    assert post(f"/api/hand/{paid}/checked") == 200
    assert post("/api/hand/99999999999/dispute") == 404 and post("/api/hand/99999999999/checked") == 404
    assert (t2()["unconfirmed"], t2()["unconfirmed_hand"]) == (0, None)
    assert post(f"/api/hand/{paid}/dispute", '{"staff": " Sato Ken "}'.encode()) == 200
    page = json.loads(get(f"{base}/api/hand/{paid}")[1])
    assert page["checked"]["staff"] == "田中" and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00",
                                                                page["checked"]["when"])
    assert [d["staff"] for d in page["disputes"]] == ["Sato Ken"]


def test_no_page_of_the_floor_holds_a_seats_cards_before_its_showdown(floor):
    base = floor["base"]
    tables = {t["table"]: t for t in json.loads(get(base + "/api/tables")[1])["tables"]}
    t3 = tables["t3"]                       # hand 2: seat 4's cards seen, no showdown yet
    status, body = get(f"{base}/api/hand/{t3['hand_id']}")
    assert status == 200
    hand = json.loads(body)
    seat4 = next(s for s in hand["seats"] if s["seat"] == 4)
    assert seat4["cards"] == ["??", "??"] and hand["withheld"] == 1
    shown = EVENTS[_first("hole", 2)]["cards"]
    for card in shown:
        assert f'"{card}"' not in body.decode(), card
    assert get(base + "/")[1].count(shown[0].encode()) == 0
    # a hand as a hand history file, for other poker tools (pokerkit reads it)
    from pokerkit import HandHistory

    status, text = get(f"{base}/api/hand/{t3['hand_id']}/phh")
    assert status == 200 and HandHistory.loads(text.decode()).players == ["seat 2", "seat 3", "seat 4", "seat 6"]
    assert b"d dh p3 ????" in text                # seat 4's cards: still withheld before the showdown
    assert get(f"{base}/api/hand/{t3['hand_id']}/phh", None)[0] == 401
    # t1's hands have ended: their cards are there
    t1 = tables["t1"]
    hands = json.loads(get(f"{base}/api/hand/{t1['hand_id'] - 1}")[1])
    assert any(c != "??" for s in hands["seats"] for c in s["cards"])


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no {CHROMIUM} (Debian: apt-get install chromium); "
                    "the floor page's browser test needs it")
def test_the_floor_page_in_a_browser(floor):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the browser test needs playwright (test extra)")
    base = floor["base"]
    shots = os.environ.get("DEALER_ASSIST_SCREENSHOTS")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 860})
            # without the token: refused, nothing of the log
            resp = page.goto(base + "/")
            assert resp.status == 401 and "t1" not in page.content()

            page.goto(f"{base}/?token={TOKEN}")
            page.wait_for_selector("tr.row >> nth=2")
            names = page.locator("tr.row td.name").all_inner_texts()
            assert sorted(n.split()[0] for n in names) == ["t1", "t2", "t3"]
            assert page.locator("h1").inner_text() == "フロア: 全テーブル"        # Japanese by default
            assert page.locator("tr.row.stop").count() == 0

            # a new alert at table t2: on the page, red and first, within a second
            db, log = floor["logs"]["t2"]
            log.record({"t": 9.5, "frame": 143, "type": "alert", "hand": 2, "code": "duplicate_card",
                        "zone": "board5", "card": "5h", "message": "5h seen twice: board 5 and the muck",
                        "message_ja": "5hが2か所に: ボード5とマック", "cleared": False})
            start = time.monotonic()
            sync_log(str(db), floor["url"], "t2")
            page.wait_for_selector("tr.row.stop[data-table='t2'] .badge.stop", timeout=1000)
            lag = time.monotonic() - start
            assert lag < 1.0
            assert page.locator("tr.row").first.get_attribute("data-table") == "t2"
            assert "同じカード" in page.locator("tr.row.stop .badge.stop").first.inner_text()

            # open a hand: board, seats, ruling and its explanation, snapshots, events
            page.locator("tr.row[data-table='t1']").click()
            page.wait_for_selector("#hand.open #explanation div")
            text = page.locator("#hand").inner_text()
            assert "Ah" in page.locator("#board").inner_text()
            assert "シート1" in page.locator("#seats").inner_text()
            assert "配当" in page.locator("#explanation").inner_text()
            assert page.locator("#events div").count() >= 3
            assert "フロップ" in text
            # the hand before it, as in the desk's dispute mode: hand 2, the joker's side pot
            page.locator("#prev").click()
            page.wait_for_function("document.querySelector('#hand h2 span').innerText.includes('1:2')", timeout=2000)
            assert "JOKER" in page.locator("#explanation").inner_text()
            page.locator("#next").click()
            page.wait_for_function("document.querySelector('#hand h2 span').innerText.includes('1:3')", timeout=2000)
            # a dispute recorded from the hand: counted on the table's row, pushed to the page
            assert page.locator("tr.row[data-table='t1'] td").nth(6).inner_text() == "0"
            page.locator("#dispute").click()                # no name yet: nothing recorded, the page asks
            assert "名前" in page.locator("#need").inner_text()
            page.locator("#staff").fill("田中")
            page.locator("#dispute").click()
            page.wait_for_function("document.querySelector(\"tr.row[data-table='t1']\").cells[6].innerText == '1'",
                                   timeout=2000)
            # the clip's two hands were paid on provisional rulings: counted, the count opens the latest
            paid = page.locator("tr.row[data-table='t1'] button.unconfirmed")
            assert paid.inner_text() == "2"
            paid.click()
            page.wait_for_function("document.querySelector('#hand h2 span').innerText.includes('1:2')", timeout=2000)
            assert "未確認のまま終了" in page.locator("#doubt").inner_text()
            # the floor checks those cards: recorded with its time, and the count drops, pushed to the page
            page.locator("#mark-checked").click()
            page.wait_for_selector("#checked")
            assert "田中がカードを確認済み" in page.locator("#checked").inner_text()
            page.wait_for_function(
                "document.querySelector(\"tr.row[data-table='t1'] button.unconfirmed\").innerText == '1'", timeout=2000)
            if shots:
                page.locator("tr.row[data-table='t3']").click()
                page.wait_for_selector("#hand.open .withheld")
                page.screenshot(path=os.path.join(shots, "floor-ja.png"))

            # the English switch
            page.locator("#lang").click()
            assert page.locator("h1").inner_text() == "Floor: every table"
            assert page.locator("#conn").inner_text() == "live"
            assert "DUPLICATE" in page.locator("tr.row.stop .badge.stop").first.inner_text().upper() or \
                "SAME CARD" in page.locator("tr.row.stop .badge.stop").first.inner_text()
            if shots:
                page.screenshot(path=os.path.join(shots, "floor-en.png"))

            # a fourth table's hand with two snapshots, one of them changed in the central log after it
            # arrived: the hand's page shows the other and says, in the page's language, that one is damaged
            import cv2
            import numpy as np

            shot = [cv2.imencode(".jpg", np.full((36, 64, 3), v, np.uint8))[1].tobytes() for v in (90, 160)]
            db = floor["logs"]["t2"][0].parent / "t4.sqlite"
            with HandLog(db, source="camera", game="holdem") as log:
                log.record({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 1},
                           snapshot_jpeg=shot[0])
                log.record({"t": 2.0, "frame": 60, "type": "hand_end", "hand": 1, "board": [],
                            "won_without_showdown": 1, "corrections": 0}, snapshot_jpeg=shot[1])
            sync_log(str(db), floor["url"], "t4")
            hid = next(t for t in json.loads(get(base + "/api/tables")[1])["tables"] if t["table"] == "t4")["hand_id"]
            snaps = json.loads(get(f"{base}/api/hand/{hid}")[1])["snapshots"]
            assert len(snaps) == 2 and get(f"{base}/api/snapshot/{hid}/{snaps[0]['id']}") == (200, shot[0])
            with psycopg.connect(floor["url"]) as pg:
                pg.execute("UPDATE snapshots SET jpeg = %s WHERE local_id = %s AND session_id = "
                           "(SELECT session_id FROM hands WHERE id = %s)", (shot[0], snaps[1]["id"], hid))
            page.evaluate(f"showHand({hid}, 't4')")
            page.wait_for_selector("#snaps .snapfail", timeout=3000)
            page.wait_for_function("[...document.querySelectorAll('#snaps img')].every(i => i.complete && i.naturalWidth)",
                                   timeout=3000)
            assert page.locator("#snaps img").count() == 1 and page.locator("#snaps .snapfail").count() == 1
            assert "is damaged" in page.locator("#snaps .snapfail").inner_text()
        finally:
            browser.close()


def test_the_floor_pages_words_are_japanese_by_default_and_english_on_the_switch():
    from dealer_assist.central.floor import page_texts
    from test_japanese import assert_japanese

    texts = page_texts()
    assert set(texts["ja"]) == set(texts["en"])
    sample = {"table": "12", "ref": "2:3", "seat": "4", "amount": "450", "when": "2026/11/29 21:14",
              "staff": "田中", "status": "404", "name": "佐藤"}   # the page fills these in
    assert_japanese([(f"floor {k}", re.sub(r"\{(\w+)\}", lambda m: sample[m.group(1)], v))
                     for k, v in texts["ja"].items()])
    assert texts["en"]["title"] == "Floor: every table" and texts["ja"]["title"] == "フロア: 全テーブル"


def test_a_central_log_out_of_reach_is_said_on_the_page_and_in_one_line(capsys):
    from dealer_assist.central.floor import _Hub
    from dealer_assist.cli import main

    body = json.loads(_Hub("postgresql://nobody@127.0.0.1:9/none").compute())
    assert body["tables"] is None and "refused" in body["error"].lower()   # the page shows "connection lost"
    assert main(["floor", "--central", "postgresql://nobody@127.0.0.1:9/none", "--token", "long-enough",
                 "--lang", "en"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cannot read the central log" in err
    assert main(["floor", "--central", "postgresql://nobody@127.0.0.1:9/none", "--token", "short", "--lang", "en"]) == 2
    assert "at least 8" in capsys.readouterr().err


def test_a_table_whose_showdown_waits_for_the_dealer_is_flagged_on_the_floor(tmp_path, pg_server):
    """A provisional ruling (cards not sure that could change the chips) shows on the table's row
    as the desk's banner says it, with what each doubtful card may be; it goes when the dealer's
    confirmation makes the ruling final."""
    from dealer_assist.central.floor import overview
    from dealer_assist.central.schema import connect
    from dealer_assist.rules.settle import settle

    url = new_database(pg_server)
    table = {"game": "joker-holdem", "board": ["Ks", "Js", "6s", "4d", "2c"], "button": 2,
             "seats": [{"seat": 2, "hole": ["Qh", "Qd"], "committed": 50},
                       {"seat": 4, "hole": ["As", "8c"], "committed": 50}]}
    doubt = [{"zone": "seat4", "card": "8c", "or": "8s"}]
    db = tmp_path / "t9.sqlite"
    log = HandLog(db, source="camera", game="joker-holdem")
    log.record({"t": 0.0, "frame": 1, "type": "hand_start", "hand": 1, "seats": [2, 4], "button": 2})
    log.record({"t": 5.0, "frame": 75, "type": "showdown", "hand": 1, "table": table,
                "ruling": {**settle(table), "provisional": True, "unsure": doubt, "confirmed": []}})
    sync_log(str(db), url, "t9")

    def badges():
        with connect(url) as con:
            (row,) = overview(con)
        return row["level"], [(a["code"], a["severity"], a["message"]["en"], a["message"]["ja"]) for a in row["alerts"]]

    level, shown = badges()
    assert level == "warn"
    assert shown == [("provisional_ruling", "warn", "the dealer confirms seat 4 8c (or 8s?)",
                      "ディーラーが確認: シート4 8c（8s?）")]
    log.record({"t": 6.0, "frame": 90, "type": "confirm", "hand": 1, "cards": doubt})
    log.record({"t": 6.0, "frame": 90, "type": "showdown", "hand": 1, "table": table,
                "ruling": {**settle(table), "provisional": False, "unsure": [], "confirmed": doubt}})
    sync_log(str(db), url, "t9")
    assert badges() == ("", [])
    log.close()


def test_a_joker_not_read_surely_asks_on_the_floor_too(tmp_path, pg_server):
    """The floor's badge for a joker on the board says what the desk's banner says: a joker the
    reader was not sure of is a question, one read surely the plain stop."""
    from dealer_assist.central.floor import overview
    from dealer_assist.central.schema import connect

    url = new_database(pg_server)
    db = tmp_path / "t3.sqlite"
    log = HandLog(db, source="camera", game="joker-holdem")
    log.record({"t": 0.0, "frame": 1, "type": "hand_start", "hand": 1, "seats": [2, 4], "button": 2})
    log.record({"t": 4.0, "frame": 60, "type": "alert", "hand": 1, "code": "joker_on_board", "message": "m",
                "message_ja": "m", "zone": "board4", "card": "JK", "sure": False, "cleared": False})
    sync_log(str(db), url, "t3")
    with connect(url) as con:
        (row,) = overview(con)
    assert [(a["code"], a["title"]) for a in row["alerts"]] == [
        ("joker_on_board", {"en": "JOKER ON THE BOARD? Look at the card", "ja": "ボードにJOKER？ カードを確認"})]
    log.record({"t": 5.0, "frame": 75, "type": "alert", "hand": 1, "code": "joker_on_board", "message": "m",
                "message_ja": "m", "zone": "board5", "card": "JK", "cleared": False})
    sync_log(str(db), url, "t3")
    with connect(url) as con:
        (row,) = overview(con)
    assert [a["title"]["en"] for a in row["alerts"]] == ["JOKER ON THE BOARD? Look at the card",
                                                         "JOKER ON THE BOARD: burn-swap"]
    log.close()


def test_a_camera_moved_off_its_calibration_is_a_stop_on_the_floor_until_it_is_cleared(tmp_path, pg_server):
    """The table whose camera was bumped waits (docs/live.md, "A camera that moved"): the floor's
    row says so in red, in the desk's words, and not once the zones follow the camera."""
    from dealer_assist.central.floor import overview
    from dealer_assist.central.schema import connect

    url = new_database(pg_server)
    db = tmp_path / "t5.sqlite"
    log = HandLog(db, source="camera", game="joker-holdem")
    log.record({"t": 0.0, "frame": 1, "type": "hand_start", "hand": 1, "seats": [2, 4], "button": 2})
    log.record({"t": 7.0, "frame": 105, "type": "alert", "hand": 1, "code": "camera_moved",
                "message": "the camera has moved: ... about 64 mm ...", "message_ja": "カメラが動きました：…約64 mm…",
                "cleared": False})
    sync_log(str(db), url, "t5")
    with connect(url) as con:
        (row,) = overview(con)
    assert row["level"] == "stop"
    assert [(a["code"], a["severity"], a["title"]) for a in row["alerts"]] == [
        ("camera_moved", "stop", {"en": "CAMERA MOVED: ZONES OFF THE CARDS", "ja": "カメラが動いた：ゾーンがカードからずれている"})]
    log.record({"t": 8.0, "frame": 120, "type": "alert", "hand": 1, "code": "camera_moved",
                "message": "the zones follow the camera", "message_ja": "ゾーンをカメラに合わせました", "cleared": True})
    sync_log(str(db), url, "t5")
    with connect(url) as con:
        (row,) = overview(con)
    assert row["alerts"] == [] and row["level"] == ""
    log.close()


def test_a_person_with_their_own_floor_address_records_in_their_own_name(tmp_path, pg_server, capsys):
    """floor-staff add gives 田中 一郎 an address of their own: a check or a dispute made from it
    is recorded in that name (whatever the page sends) and marked signed in; the event's shared
    token then only views (403, nothing recorded). Revoked, the address opens nothing within the
    accounts' refresh, and with no account left the shared token records a typed name again."""
    from dealer_assist.cli import main
    from dealer_assist.rules.settle import settle

    url = new_database(pg_server)
    table = {"game": "joker-holdem", "board": ["Ks", "Js", "6s", "4d", "2c"], "button": 2,
             "seats": [{"seat": 2, "hole": ["Qh", "Qd"], "committed": 50},
                       {"seat": 4, "hole": ["As", "8c"], "committed": 50}]}
    left = {**settle(table), "provisional": True, "unsure": [{"zone": "seat4", "card": "8c", "or": "8s"}],
            "confirmed": []}
    db = tmp_path / "t5.sqlite"
    log = HandLog(db, source="camera", game="joker-holdem")
    log.record({"t": 0.0, "frame": 1, "type": "hand_start", "hand": 1, "seats": [2, 4], "button": 2,
                "dealer": "佐藤 花子"})
    log.record({"t": 9.0, "frame": 135, "type": "hand_end", "hand": 1, "ruling": left, "board": table["board"],
                "provisional": True, "confirmed": []})
    log.close()
    sync_log(str(db), url, "t5")

    assert main(["floor-staff", "--central", url, "--lang", "en", "list"]) == 0
    assert "no floor addresses" in capsys.readouterr().out
    assert main(["floor-staff", "--central", url, "--lang", "en", "--address", "http://10.0.0.5:8700/",
                 "add", " 田中 一郎 "]) == 0
    said = capsys.readouterr().out
    assert "田中 一郎's own floor address (shown once" in said
    own = re.search(r"http://10\.0\.0\.5:8700/\?token=(\S+)$", said.strip()).group(1)
    assert main(["floor-staff", "--central", url, "--lang", "en", "add", "田中 一郎"]) == 2
    assert "already has a floor address" in capsys.readouterr().err
    assert main(["floor-staff", "--central", url, "--lang", "en", "add"]) == 2
    assert "wants the person's name" in capsys.readouterr().err
    assert main(["floor-staff", "--central", url, "--lang", "en", "add", "a\u0000b"]) == 2
    assert "say who records it" in capsys.readouterr().err
    with psycopg.connect(url) as con:      # the log keeps no token, only its digest
        assert own not in json.dumps(con.execute("SELECT * FROM floor_staff").fetchall(), default=str)

    with serving(create_app(url, TOKEN, accounts_every=0)) as base:
        def me(token):
            return json.loads(get(base + "/api/me", token)[1])

        def t5():
            return json.loads(get(base + "/api/tables")[1])["tables"][0]

        paid = t5()["unconfirmed_hand"]
        assert me(own) == {"staff": "田中 一郎", "accounts": True}
        assert me(TOKEN) == {"staff": None, "accounts": True}
        assert get(base + "/", own)[0] == 200 and get(base + "/api/tables", own + "x")[0] == 401
        # the shared token only views now
        for what in ("checked", "dispute"):
            assert post_to(f"{base}/api/hand/{paid}/{what}", '{"staff": "Sato"}'.encode()) == 403
        assert t5()["unconfirmed"] == 1 and json.loads(get(f"{base}/api/hand/{paid}")[1])["disputes"] == []
        # the person's own address: their name, whatever the page sends (or none)
        assert post_to(f"{base}/api/hand/{paid}/checked", '{"staff": "Sato"}'.encode(), own) == 200
        assert post_to(f"{base}/api/hand/{paid}/dispute", None, own) == 200
        page = json.loads(get(f"{base}/api/hand/{paid}", own)[1])
        assert (page["checked"]["staff"], page["checked"]["signed"]) == ("田中 一郎", True)
        assert page["dealer"] == "佐藤 花子"          # who dealt it, as its start named them
        assert t5()["dealer"] == "佐藤 花子"          # and who deals at the table now
        assert [(d["staff"], d["signed"]) for d in page["disputes"]] == [("田中 一郎", True)]
        assert t5()["unconfirmed"] == 0
        texts = json.loads(re.search(r"const TEXTS = (.*);", get(base + "/")[1].decode()).group(1))
        assert texts["ja"]["checked_signed"] == "{staff}（本人のアドレス）がカードを確認済み（{when}）"
        assert texts["ja"]["dealt_by"] == "ディーラー {name}"

        assert main(["floor-staff", "--central", url, "--lang", "en", "revoke", "田中 一郎"]) == 0
        assert "no longer opens the floor view" in capsys.readouterr().out
        assert get(base + "/api/tables", own)[0] == 401
        assert main(["floor-staff", "--central", url, "revoke", "田中 一郎"]) == 2
        assert main(["floor-staff", "--central", url, "--lang", "en", "list"]) == 0
        assert re.fullmatch(r"田中 一郎: since \d{4}-\d\d-\d\d \d\d:\d\d UTC, revoked \d{4}-\d\d-\d\d \d\d:\d\d UTC\n",
                            capsys.readouterr().out)
        # no account left: the page asks for a typed name again
        assert me(TOKEN) == {"staff": None, "accounts": False}
        assert post_to(f"{base}/api/hand/{paid}/dispute", '{"staff": "Sato"}'.encode()) == 200
        assert [(d["staff"], d["signed"]) for d in json.loads(get(f"{base}/api/hand/{paid}")[1])["disputes"]] == [
            ("田中 一郎", True), ("Sato", False)]
    # review --central says which were signed in
    assert main(["review", "--central", url, "--table", "t5", "--lang", "en", "1:1"]) == 0
    told = capsys.readouterr().out
    assert "cards checked by 田中 一郎, signed in (" in told and "dispute recorded by Sato (" in told


def test_a_hand_paid_on_a_provisional_ruling_stays_counted_on_the_floor(tmp_path, pg_server):
    """A hand that ended with its doubtful cards never confirmed: between hands its row says which
    cards were paid unconfirmed; after that the table keeps the count and the latest such hand,
    whose page says what was not confirmed. A hand whose doubt the dealer confirmed adds nothing."""
    from dealer_assist.central.floor import hand_view, overview
    from dealer_assist.central.reader import CentralLog
    from dealer_assist.central.schema import connect
    from dealer_assist.rules.settle import settle

    url = new_database(pg_server)
    table = {"game": "joker-holdem", "board": ["Ks", "Js", "6s", "4d", "2c"], "button": 2,
             "seats": [{"seat": 2, "hole": ["Qh", "Qd"], "committed": 50},
                       {"seat": 4, "hole": ["As", "8c"], "committed": 50}]}
    doubt = [{"zone": "seat4", "card": "8c", "or": "8s"}]
    left = {**settle(table), "provisional": True, "unsure": doubt, "confirmed": []}
    db = tmp_path / "t7.sqlite"
    log = HandLog(db, source="camera", game="joker-holdem")
    log.record({"t": 0.0, "frame": 1, "type": "hand_start", "hand": 1, "seats": [2, 4], "button": 2})
    log.record({"t": 5.0, "frame": 75, "type": "showdown", "hand": 1, "table": table, "ruling": left})
    log.record({"t": 9.0, "frame": 135, "type": "hand_end", "hand": 1, "ruling": left, "board": table["board"],
                "provisional": True, "confirmed": []})
    sync_log(str(db), url, "t7")

    def row():
        with connect(url) as con:
            (r,) = overview(con)
        return r

    r = row()
    assert r["level"] == "warn" and r["unconfirmed"] == 1
    assert [(a["code"], a["message"]["en"], a["message"]["ja"]) for a in r["alerts"]] == [
        ("ruling_unconfirmed", "hand 1 ended with seat 4 8c (or 8s?) not confirmed",
         "ハンド1は未確認のまま終了: シート4 8c（8s?）")]
    paid = r["unconfirmed_hand"]
    assert paid == r["hand_id"]
    # the next hand starts: the badge goes, the count and the link stay; a confirmed doubt adds nothing
    log.record({"t": 20.0, "frame": 300, "type": "hand_start", "hand": 2, "seats": [2, 4], "button": 4})
    log.record({"t": 25.0, "frame": 375, "type": "confirm", "hand": 2, "cards": doubt})
    final = {**settle(table), "provisional": False, "unsure": [], "confirmed": doubt}
    log.record({"t": 25.0, "frame": 375, "type": "showdown", "hand": 2, "table": table, "ruling": final})
    log.record({"t": 29.0, "frame": 435, "type": "hand_end", "hand": 2, "ruling": final, "board": table["board"],
                "provisional": False, "confirmed": doubt})
    sync_log(str(db), url, "t7")
    r = row()
    assert (r["level"], r["alerts"], r["unconfirmed"], r["unconfirmed_hand"]) == ("", [], 1, paid)
    assert r["hand_id"] != paid
    with CentralLog(url) as central:
        page = hand_view(central, paid)
        assert page["doubt"] == {"en": "hand 1:1 ended with seat 4 8c (or 8s?) not confirmed",
                                 "ja": "ハンド1:1は未確認のまま終了: シート4 8c（8s?）"}
        assert hand_view(central, r["hand_id"])["doubt"] == {"en": "", "ja": ""}
        # each seat's hand in words, as the commentary says it (not the engine's category name)
        assert [s["category"]["en"] for s in page["seats"]] == ["one pair, Q-Q-K-J-6", "high card, A-K-J-8-6"]
        assert page["seats"][0]["category"]["ja"] == "ワンペア Q-Q-K-J-6"
        assert page["checked"] is None
    # hand 3 is paid unconfirmed too; the floor checks its cards from the snapshots: between hands
    # its badge goes at once, and the table's count leaves it out; a hand not paid so cannot be checked
    log.record({"t": 40.0, "frame": 600, "type": "hand_start", "hand": 3, "seats": [2, 4], "button": 2})
    log.record({"t": 45.0, "frame": 675, "type": "showdown", "hand": 3, "table": table, "ruling": left})
    log.record({"t": 49.0, "frame": 735, "type": "hand_end", "hand": 3, "ruling": left, "board": table["board"],
                "provisional": True, "confirmed": []})
    sync_log(str(db), url, "t7")
    r = row()
    assert (r["unconfirmed"], r["unconfirmed_hand"], r["level"]) == (2, r["hand_id"], "warn")
    from dealer_assist.central.floor import record_check

    with connect(url) as con:
        assert record_check(con, r["hand_id"], "鈴木") and not record_check(con, hand_2 := r["hand_id"] - 1, "鈴木")
        con.commit()
    assert hand_2 != paid
    r = row()
    assert (r["unconfirmed"], r["unconfirmed_hand"], r["level"], r["alerts"]) == (1, paid, "", [])
    with CentralLog(url) as central:
        checked = hand_view(central, r["hand_id"])["checked"]
        assert checked["staff"] == "鈴木" and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", checked["when"])
    log.close()


def test_a_damaged_snapshot_is_an_error_on_the_floor_not_a_picture(tmp_path, pg_server):
    """The floor's snapshot address answers a snapshot whose bytes are no longer those the table
    recorded (changed on the table's disk before it was sent, or in the central log since) with an
    error that says so in both languages, never the changed bytes; the others as they were."""
    url = new_database(pg_server)
    shots = [b"\xff\xd8 frame zero \xff\xd9", b"\xff\xd8 frame thirty \xff\xd9", b"\xff\xd8 frame sixty \xff\xd9"]
    db = tmp_path / "t4.sqlite"
    with HandLog(db, source="camera", game="holdem") as log:
        log.record({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 1},
                   snapshot_jpeg=shots[0])
        log.record({"t": 1.0, "frame": 30, "type": "board", "hand": 1, "street": "flop",
                    "cards": ["Ks", "Js", "6s"]}, snapshot_jpeg=shots[1])
        log.record({"t": 2.0, "frame": 60, "type": "hand_end", "hand": 1, "board": ["Ks", "Js", "6s"],
                    "won_without_showdown": 1, "corrections": 0}, snapshot_jpeg=shots[2])
    con = sqlite3.connect(db)          # the table's disk changes the end's snapshot before it is sent
    con.execute("UPDATE snapshots SET jpeg = ? WHERE frame = 60", (b"\xff\xd8 frame s1xty \xff\xd9",))
    con.commit()
    con.close()
    said: list[str] = []
    sync_log(str(db), url, "t4", lang="en", say=said.append)
    assert len(said) == 1 and "is damaged" in said[0]
    with psycopg.connect(url) as pg:
        (hid,) = pg.execute("SELECT id FROM hands").fetchone()
    with serving(create_app(url, TOKEN)) as base:
        status, body = get(f"{base}/api/hand/{hid}")
        ids = [s["id"] for s in json.loads(body)["snapshots"]]
        assert status == 200 and len(ids) == 3

        def refused(sid: int) -> None:
            status, body = get(f"{base}/api/snapshot/{hid}/{sid}")
            assert status == 404 and b"\xff\xd8" not in body
            answer = json.loads(body)
            assert f"snapshot {sid} of hand {hid} in the central log is damaged" in answer["error"]
            assert "壊れています" in answer["error_ja"]

        assert [get(f"{base}/api/snapshot/{hid}/{sid}") for sid in ids[:2]] == [(200, shots[0]), (200, shots[1])]
        refused(ids[2])
        with psycopg.connect(url) as pg:         # the flop's image changed in the central log after it arrived
            pg.execute("UPDATE snapshots SET jpeg = %s WHERE local_id = %s", (b"\xff\xd8 frame th1rty \xff\xd9",
                                                                               ids[1]))
        refused(ids[1])
        assert get(f"{base}/api/snapshot/{hid}/{ids[0]}") == (200, shots[0])
        assert get(f"{base}/api/snapshot/{hid + 1000}/{ids[0]}")[0] == 404      # no such hand: no traceback

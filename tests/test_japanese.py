"""Japanese output carries no English words (issue 21, item 3).

Every text a person reads comes from the Japanese message catalogue, so a Japanese line is
Japanese throughout.  This test collects what a Japanese-speaking dealer or floor manager reads:

(a) ``dealer-assist run --lang ja`` on the bundled sample clip: the commentary, every event's
    ``message_ja``, the rulings' ``explanation_ja``, the pots' ``name_ja``, the hands'
    ``description_ja`` / ``category_ja``;
(b) ``settle`` on tables of every game (the docs' examples and a few more), ``bet`` and
    ``daifugo check`` / ``payout`` answers: every Japanese field of their JSON;
(c) every bad dealer action through the pipeline (the ``bad_action`` alert) and refused
    corrections (``correction_refused``, as the desk raises it);
(d) ``review --lang ja``: the hand list and each hand;
(e) the desk's own texts in Japanese, placeholders filled, and every alert title;

and checks each line word by word against a short allow-list (:data:`ALLOWED`).
"""
from __future__ import annotations

import json
import shutil
import re
from pathlib import Path
from typing import Any, Iterable

import pytest

from dealer_assist.cli import main
from dealer_assist.commands import LANG_ENV

ROOT = Path(__file__).resolve().parent.parent
CLIP = ROOT / "sample_frames" / "clip"
needs_clip = pytest.mark.skipif(not (CLIP / "joker-nlh.mp4").is_file(), reason="no sample clip")

# ------------------------------------------------------------------------------ the allow-list
#: What may stand in Latin letters in a Japanese line.  Each entry is what the rulebooks or the
#: dealer's own tools write that way; nothing else.
_RANK = "[2-9TJQKA]"
ALLOWED_TOKENS = [
    # a card code (As, Td, 7c, JK; 10h as a dealer types it): the project's card notation, the
    # same in both languages (docs/rules.md 2)
    rf"(?:{_RANK}|10)[shdc]", "JK",
    # ranks and rank sequences (K-K-Q-9-6, A-K-Q-J-T, a lone Q): how the rulebooks write hands
    rf"{_RANK}(?:-{_RANK})*",
    # a suit letter, where the notation is explained (スート s h d c)
    "[shdc]",
    # JOKER: rulebook 000 writes the card so (「JOKER保有者」)
    "JOKER",
    # BTN: the dealer button's marker on a seat panel, as the button itself is printed
    "BTN",
    # BP / RP: Half Texas's black and red points, as rulebook 001 writes them
    "BP", "RP",
    # ID: a hand's row id in the hand log, as Japanese writes an identifier (ユーザーID)
    "ID",
    # key caps: the desk names the key to press as it is printed on the keyboard
    "Esc", "Enter", "Del", "F11", "L", "H", "C", "D", "Z", "B",
    # the names of file formats, programs and units that Japanese technical writing keeps in
    # Latin letters (an error about a file says 「JSONとして読めません」, a calibration 「60 mm」)
    "JSON", "YAML", "ONNX", "ArUco", "RTSP", "URL", "HTTP", "SQLite", "PostgreSQL", "PySide6", "Qt",
    "OpenCV", "CSV", "PNG", "JPEG", "UTF-8", "A4", "dpi", "mm", "px", "fps", "ms", "MB", "HEIC", "HEIF",
    # a phone as it is sold, where the words say which of its settings to change
    "iPhone",
]
ALLOWED_PATTERNS = [
    # a TDA rule number (TDA 17A, TDA 20A): the rule's own name
    r"TDA \d+[A-Z]?",
    # figures with a unit the rulebooks write in letters: Daifugo's gold (50G, rulebook 002),
    # Half Texas's black and red points (+6BP, rulebook 001)
    r"\d+(?:G|BP|RP)(?![A-Za-z])",
    # what a person types letter for letter: the program's commands and flags
    # (dealer-assist review 1:1, --snapshots DIR) and the package to install (fonts-noto-cjk)
    r"dealer-assist(?: [a-z][a-z-]*){0,2}", r"--[a-z][a-z-]*(?: [A-Z]+)?", r"fonts-noto-cjk",
    r"pip install \S+", r"python -m [a-z_.]+",
    # an environment variable set as one types it (DEALER_ASSIST_LANG=en)
    r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+=[\w.-]+",
    # a file path (it holds a slash): the user's own file names; a file's name or its extension
    # (hand-log.sqlite, JK.jpg, .phh); a frame size (1920x1080)
    r"\S*/\S*", r"[\w-]+(?:\.[\w-]+)*\.(?:sqlite|jpg|jpeg|png|md|phh|yaml|yml|json|jsonl|onnx|mp4|heic)\b",
    r"(?<![\w.])\.(?:sqlite|jpg|jpeg|png|webp|tif|tiff|bmp|avif|phh|yaml|json|jsonl)\b", r"\b\d+x\d+\b",
    # the dealer's own input echoed back in quotes (「zz」 is not a card), and a JSON field name
    # or value to type (「committed」, 「counterclockwise」); the input as a command line's value
    # shows it ('many' は整数ではありません)
    r"「[ -~]{1,20}」", r"'[!-&(-~]{1,20}'",
]
_ALLOWED_TOKEN = re.compile("(?:" + "|".join(ALLOWED_TOKENS) + ")")
_STRIP = re.compile("|".join(ALLOWED_PATTERNS))
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’_-]*")


def english_words(line: str) -> list[str]:
    """The Latin-letter words of ``line`` that the allow-list does not allow.

    >>> english_words("シート3: ストレート A-K-Q-J-T [JK Kh Qd Jc Th]（ジョーカー＝A♠、TDA 20A）")
    []
    >>> english_words("ディーラー入力を無視しました: committed: seat 2 is not dealt")
    ['committed', 'seat', 'is', 'not', 'dealt']
    """
    bad = []
    for tok in _TOKEN.findall(_STRIP.sub(" ", line)):
        if not re.search("[A-Za-z]", tok) or _ALLOWED_TOKEN.fullmatch(tok):
            continue        # a figure (450, 1:1 after the strip, 9.5) or an allowed token
        bad.append(tok)
    return bad


def japanese_fields(obj: Any) -> Iterable[str]:
    """Every string under a key that holds Japanese (``*_ja``, ``ja``) in a JSON answer."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(k, str) and (k.endswith("_ja") or k == "ja"):
                yield from _strings(v)
            else:
                yield from japanese_fields(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from japanese_fields(v)


def _strings(v: Any) -> Iterable[str]:
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from _strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from _strings(x)


def english_in(lines: Iterable[tuple[str, str]]) -> list[str]:
    """``where: line  <- words`` for each Japanese line with English words in it."""
    out = []
    for where, text in lines:
        for line in str(text).splitlines():
            bad = english_words(line)
            if bad:
                out.append(f"{where}: {line}  <- {' '.join(bad)}")
    return out


def assert_japanese(lines: Iterable[tuple[str, str]]) -> None:
    lines = list(lines)
    assert lines, "nothing was collected"
    bad = english_in(lines)
    assert not bad, f"{len(bad)} Japanese line(s) with English words:\n" + "\n".join(bad[:60])


# ------------------------------------------------------------------------------ (a) the clip
@pytest.fixture(scope="module")
def clip_ja(tmp_path_factory):
    import contextlib
    import io

    out = tmp_path_factory.mktemp("clip-ja")
    events, db = out / "events.jsonl", out / "hands.sqlite"
    talk = io.StringIO()
    with contextlib.redirect_stdout(talk):
        code = main(["run", "--lang", "ja", "--events", str(events), "--db", str(db)])
    assert code == 0
    evs = [json.loads(x) for x in events.read_text(encoding="utf-8").splitlines() if x.strip()]
    return evs, talk.getvalue(), db


@needs_clip
def test_the_run_of_the_sample_clip_speaks_japanese(clip_ja):
    from dealer_assist.live.words import line

    evs, talk, _ = clip_ja
    lines = [("commentary", talk)]
    for ev in evs:
        lines.append((f"event {ev.get('type')} words", line(ev, "ja")))
        lines += [(f"event {ev.get('type')} {ev.get('code', '')}", s) for s in japanese_fields(ev)]
    assert any("ジョーカー" in s or "JOKER" in s for _, s in lines)
    assert_japanese(lines)


# ------------------------------------------------------------------------------ (b) rule commands
def _doc_json_blocks(*names: str) -> list[Any]:
    out = []
    for name in names:
        text = (ROOT / name).read_text(encoding="utf-8")
        for block in re.findall(r"```json\n(.*?)```", text, re.S):
            try:
                out.append(json.loads(block))
            except ValueError:
                pass       # an abridged answer ("...")
    return out


#: Tables the docs do not show: antes, a joker tie, side pots, odd chips, no qualifying low,
#: a stud hand beaten unshown, a hand won without a showdown.
MORE_TABLES = [
    {"game": "joker-holdem", "board": ["Qd", "Jc", "Th", "5s", "5h"], "button": 6, "last_aggressor": 4,
     "seats": [{"seat": 2, "hole": ["Qh", "Qs"], "committed": 80},
               {"seat": 3, "hole": ["JK", "Kh"], "committed": 280},
               {"seat": 4, "hole": ["Kc", "Ac"], "committed": 280},
               {"seat": 6, "hole": None, "committed": 80, "folded": True}]},
    {"game": "joker-holdem", "board": ["Ks", "Js", "6s", "4d", "2c"], "button": 2,
     "seats": [{"seat": 1, "hole": ["JK", "Ts"], "committed": 125, "ante": 25},
               {"seat": 2, "hole": ["As", "8s"], "committed": 125, "ante": 25},
               {"seat": 3, "hole": None, "committed": 5, "ante": 5, "folded": True}]},
    {"game": "joker-holdem", "board": ["Ks", "Js", "6s"], "button": 1,
     "seats": [{"seat": 1, "hole": None, "committed": 100},
               {"seat": 2, "hole": None, "committed": 50, "folded": True}]},
    {"game": "holdem", "board": ["Qc", "Jd", "Ts", "9h", "8c"], "button": 1,
     "seats": [{"seat": 1, "hole": ["2c", "3d"], "committed": 51},
               {"seat": 2, "hole": ["2s", "4d"], "committed": 50},
               {"seat": 3, "hole": ["Ks", "4h"], "committed": 50, "folded": True}]},
    {"game": "holdem-hilo", "board": ["Ah", "Kd", "Qc", "9s", "9d"], "button": 1, "low_qualifier": 8,
     "seats": [{"seat": 1, "hole": ["3c", "Td"], "committed": 50},
               {"seat": 2, "hole": ["Kh", "Jc"], "committed": 51}]},
    {"game": "holdem-hilo", "board": ["Ah", "2d", "7c", "Ks", "Kd"], "button": 1,
     "seats": [{"seat": 1, "hole": ["3c", "4d"], "committed": 50},
               {"seat": 2, "hole": ["3h", "4s"], "committed": 50}]},
    {"game": "holdem-hilo", "board": ["Ah", "2d", "7c", "Ks", "9d"], "button": 1,
     "seats": [{"seat": 1, "hole": ["3c", "4d"], "committed": 50},
               {"seat": 2, "hole": ["Kh", "Kc"], "committed": 50},
               {"seat": 3, "hole": ["3h", "4h"], "committed": 50}]},
    {"game": "lowball-a5", "button": 2,
     "seats": [{"seat": 1, "hole": ["5d", "4c", "3h", "2s", "Ad"], "committed": 30},
               {"seat": 2, "hole": ["7c", "5h", "4d", "3s", "2c"], "committed": 31},
               {"seat": 3, "hole": ["Kc", "Kh", "4s", "3d", "2d"], "committed": 30}]},
    {"game": "lowball-27", "button": 1,
     "seats": [{"seat": 1, "hole": ["8h", "7h", "5h", "4h", "2h"], "committed": 30},
               {"seat": 2, "hole": ["9c", "9h", "4d", "3s", "2c"], "committed": 30}]},
    {"game": "holdem", "wild": ["2"], "board": ["2s", "9h", "9d", "Ts", "Js"], "button": 2,
     "seats": [{"seat": 1, "hole": ["2c", "9c"], "committed": 10},
               {"seat": 2, "hole": ["Ks", "Qs"], "committed": 10}]},
    {"game": "stud7", "wild": ["JK"], "owner": 2,
     "seats": [{"seat": 1, "down": ["7c", "7d", "9s"], "up": ["Ks", "Kh", "4d", "2c"], "committed": 100},
               {"seat": 2, "down": ["Ac", "5s", "8h"], "up": ["Qs", "Qd", "Qc", "JK"], "committed": 100},
               {"seat": 3, "down": ["Js", "Jh", "2d"], "up": ["6s", "6h", "9d", "Td"], "committed": 33}]},
]


def _settle_lines() -> list[tuple[str, str]]:
    from dealer_assist.rules.settle import settle

    tables = [t for t in _doc_json_blocks("README.md", "docs/showdown-games.md", "docs/antes.md",
                                          "docs/half-texas.md") if isinstance(t, dict) and "game" in t]
    tables += MORE_TABLES
    games = {t["game"] for t in tables}
    assert games >= {"holdem", "joker-holdem", "holdem-hilo", "stud7", "lowball-a5", "lowball-27",
                     "half-texas"}
    lines = []
    for t in tables:
        r = settle(t)
        lines += [(f"settle {t['game']}", s) for s in japanese_fields(r)]
    return lines


def test_settle_rulings_of_every_game_speak_japanese():
    assert_japanese(_settle_lines())


def _bet_and_daifugo_lines() -> list[tuple[str, str]]:
    from dealer_assist.errors import UserError
    from dealer_assist.rules.betting import bet_from_json
    from dealer_assist.rules.daifugo import check_json, payout_from_json

    lines = []
    for obj in _doc_json_blocks("docs/betting.md"):
        if isinstance(obj, dict) and ("structure" in obj or "first_dealer" in obj):
            try:
                lines += [("bet", s) for s in japanese_fields(bet_from_json(obj))]
            except UserError as exc:
                if " / " in str(exc):    # an illegal action: its error line says why in both
                    lines.append(("bet error", str(exc).split(" / ", 1)[-1]))
                # else an abridged example that is no valid input (an English input error)
    for obj in _doc_json_blocks("docs/daifugo.md"):
        if isinstance(obj, dict) and "state" in obj and "legal" not in obj:
            lines += [("daifugo check", s) for s in japanese_fields(check_json(obj))]
        elif isinstance(obj, dict) and "winner" in obj and "payouts" not in obj:
            lines += [("daifugo payout", s) for s in japanese_fields(payout_from_json(obj).to_json())]
    return lines


def test_bet_and_daifugo_answers_speak_japanese():
    assert_japanese(_bet_and_daifugo_lines())


# ------------------------------------------------------------------------------ (c) bad input
#: Every way a dealer action can be refused, in the order the pipeline meets them.
BAD_ACTIONS = [
    {"frame": 0, "type": "fold", "seat": 1},                           # no hand in progress
    {"frame": 0, "type": "correct", "zone": "board1", "card": "As", "to": "Ks"},
    {"frame": 3, "type": "teleport"},                                  # unknown action
    {"frame": 3, "type": 5},                                           # no type
    {"frame": 3, "type": "fold", "seat": 1, "chips": 5},               # unknown field
    {"frame": 3, "type": "button", "seat": 99},                        # not a seat
    {"frame": 3, "type": "committed", "seat": 2, "amount": 50},        # not dealt in
    {"frame": 3, "type": "committed", "seat": 1, "amount": -5},        # not chips
    {"frame": 3, "type": "antes", "each": 5, "big_blind": 10},
    {"frame": 3, "type": "antes", "blind": 10},
    {"frame": 3, "type": "correct", "zone": "board9", "card": "As", "to": "Ks"},
    {"frame": 3, "type": "correct", "zone": "seat1", "card": "BACK", "to": "Ks"},
    {"frame": 3, "type": "correct", "zone": "seat1", "card": "Xx", "to": "Ks"},
    {"frame": 3, "type": "correct", "zone": "seat1", "card": "As", "to": "Ks"},
    {"frame": 4, "type": "fold", "seat": 1},
    {"frame": 5, "type": "fold", "seat": 3},                           # the last seat in the hand
]


def test_refused_dealer_actions_and_corrections_speak_japanese(tmp_path):
    from dealer_assist.live.calibration import load_calibration
    from dealer_assist.live.events import Alert
    from dealer_assist.live.pipeline import Pipeline
    from dealer_assist.live.sources import Frame
    from dealer_assist.live.tracker import LiveTable
    from dealer_assist.desk.session import LiveSession
    import numpy as np

    cal = load_calibration(CLIP / "table.yaml")
    backs = []
    for z in ("seat1", "seat3"):
        c = cal.zones_image()[z].mean(axis=0)
        backs += [{"center": [float(c[0] + dx), float(c[1])], "polygon": []} for dx in (-12.0, 12.0)]

    class Detector:
        def detect(self, image):
            return {"cards": [], "backs": backs}

    events: list = []
    pipe = Pipeline(detector=Detector(), calibration=cal, table=LiveTable(seats=cal.seats),
                    sink=events.append, log=None, actions=[dict(a) for a in BAD_ACTIONS])
    img = np.full((720, 1280, 3), 128, np.uint8)     # a picture, neither dark nor washed out
    pipe.run([Frame(i, i / 15.0, img) for i in range(8)])
    bad = [e for e in events if isinstance(e, Alert) and e.code == "bad_action"]
    assert len(bad) == len(BAD_ACTIONS) - 1          # all but the one fold that is fine
    # refused corrections as the desk makes them: asked first (preview), then sent
    session = LiveSession(pipe, iter(()))
    holdem = LiveTable(seats=6, game="holdem")
    for action in ({"type": "correct", "zone": "seat3", "card": "Qs", "to": "Kh"},
                   {"type": "correct", "zone": "muck", "card": "??", "to": "BACK"}):
        session.preview(action)
        session.act(action)
    refused = [e for e in events if isinstance(e, Alert) and e.code == "correction_refused"]
    assert len(refused) == 4
    lines = [(f"{e.code} {e.message}", e.message_ja) for e in bad + refused]
    try:
        holdem.apply({"type": "correct", "zone": "board1", "card": "As", "to": "JK"}, 0, 0.0)
    except Exception as exc:        # no hand: refused before the joker is looked at
        lines.append(("holdem", getattr(exc, "message_ja", None) or str(exc)))
    assert_japanese(lines)


# ------------------------------------------------------------------------------ (d) review
@needs_clip
def test_review_in_japanese(clip_ja, capsys):
    from dealer_assist.live.handlog import list_hands

    _, _, db = clip_ja
    capsys.readouterr()
    assert main(["review", "--db", str(db), "--lang", "ja"]) == 0
    lines = [("review list", capsys.readouterr().out)]
    for h in list_hands(str(db)):
        assert main(["review", f"{h['session']}:{h['hand']}", "--db", str(db), "--lang", "ja"]) == 0
        lines.append((f"review {h['session']}:{h['hand']}", capsys.readouterr().out))
    assert_japanese(lines)


# ------------------------------------------------------------------------------ (e) the desk
def _sample_fields(key: str, lang: str) -> dict:
    """Realistic values for a desk text's placeholders, in ``lang`` where they are words."""
    from dealer_assist.desk.texts import t, zone_text

    values = {"n": 2, "card": "Kc", "to": "Ks", "before": 450, "after": 0, "amount": 450, "blind": 100,
              "zone": zone_text("board4", lang), "seats": "2・4" if lang == "ja" else "2, 4",
              "hand": t("street.showdown", lang), "name": "メインポット" if lang == "ja" else "Main pot",
              "eligible": "シート2・シート4" if lang == "ja" else "seats 2, 4", "who": "シート2 450",
              "text": t("committed", lang, n=100), "items": zone_text("seat2", lang) + " Kc → Ks",
              "path": "/var/log/hand-log.sqlite", "id": 4, "hand_no": 2, "when": "12:04:05",
              "status": t("status.ended", lang), "board": "Ks Js 6s 4d 2c", "i": 1, "frame": 63, "t": 4.2,
              "event": t("street.flop", lang), "source": "/dev/video0", "models": "/opt/models/a.onnx",
              "session": 2, "ref": "2:1", "cards": zone_text("seat2", lang) + " K♠"}
    if key == "picker_bad":
        values["text"] = "zz"        # what the dealer typed, echoed in quotes
    return values


def test_the_desks_texts_in_japanese():
    from dealer_assist.desk import texts

    lines = []
    for key in texts.TEXTS:
        if key == "lang":
            continue    # the language switch names the other language in its own words (English)
        fields = _sample_fields(key, "ja")
        template = texts.t(key, "en")
        wanted = {m for m in re.findall(r"\{(\w+)", template)}
        lines.append((f"desk {key}", texts.t(key, "ja", **{k: fields[k] for k in wanted})))
    for code in texts.ALERT_TITLES:
        lines.append((f"alert title {code}", texts.alert_title(code, "ja")))
    assert_japanese(lines)


def test_every_command_a_person_reads_speaks_japanese_unless_told():
    from dealer_assist.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["run"]).lang == "ja"
    assert parser.parse_args(["review"]).lang == "ja"
    assert parser.parse_args(["desk"]).lang == "ja"


def test_the_language_set_once_for_every_command(monkeypatch, capsys):
    """``DEALER_ASSIST_LANG=en`` makes English every command's language; a command's own --lang
    still wins, and a value that is no language is said, not taken silently."""
    from dealer_assist.cli import build_parser

    monkeypatch.setenv(LANG_ENV, "en_GB.UTF-8")
    assert [build_parser().parse_args([c]).lang for c in ("run", "review", "desk")] == ["en"] * 3
    assert build_parser().parse_args(["desk", "--lang", "ja"]).lang == "ja"
    # the help page says the language this shell gives, and why, not only the default
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert "here English, as DEALER_ASSIST_LANG=en_GB.UTF-8 says" in " ".join(capsys.readouterr().out.split())
    monkeypatch.setenv(LANG_ENV, "fr")
    assert main(["settle", str(ROOT / "none.json")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"{LANG_ENV}=fr: 言語は ja か en です。日本語で表示します"
    assert _JAPANESE.search(err[1]) and err[1].startswith("dealer-assist settle: ")


# ------------------------------------------------------------------------------ (f) errors
_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _bad_input_of_every_command(tmp: Path) -> list[tuple[str, list[str], str]]:
    """(what, argv, stdin): bad input a person gives each command, as it happens at a table."""
    hostile = tmp / "hostile.json"
    hostile.write_text('{"game": "holdem", "board": ["As", ', encoding="utf-8")
    bad_card = tmp / "bad-card.json"
    bad_card.write_text(json.dumps({"game": "holdem", "button": 1, "board": ["Zz", "Kd", "2c"], "seats": [
        {"seat": 1, "hole": ["As", "Ad"], "committed": 10}, {"seat": 2, "hole": ["Ks", "Kh"], "committed": 10}]}),
        encoding="utf-8")
    twice = tmp / "twice.json"
    twice.write_text(json.dumps({"game": "holdem", "button": 1, "board": ["As", "Kd", "2c", "7h", "9s"], "seats": [
        {"seat": 1, "hole": ["As", "Ad"], "committed": 10}, {"seat": 2, "hole": ["Ks", "Kh"], "committed": 10}]}),
        encoding="utf-8")
    no_button = tmp / "no-button.json"
    no_button.write_text(json.dumps({"game": "holdem", "board": ["As", "Kd", "2c", "7h", "9s"], "seats": [
        {"seat": 1, "hole": ["Qs", "Ad"], "committed": 10}, {"seat": 2, "hole": ["Ks", "Kh"], "committed": 10}]}),
        encoding="utf-8")
    check_facing_bet = tmp / "bet.json"
    check_facing_bet.write_text(json.dumps({
        "structure": "no-limit", "blinds": [50, 100], "button": 1,
        "seats": [{"seat": 1, "stack": 1000}, {"seat": 2, "stack": 1000}, {"seat": 3, "stack": 1000}],
        "actions": [{"seat": 1, "action": "check"}]}), encoding="utf-8")
    empty = tmp / "no-frames"
    empty.mkdir()
    phone = tmp / "phone"
    phone.mkdir()
    heic = phone / "IMG_0001.HEIC"
    heic.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")
    garbage_yaml = tmp / "table.yaml"
    garbage_yaml.write_text("zones: [unclosed\n", encoding="utf-8")
    not_an_image = tmp / "frame.png"
    not_an_image.write_bytes(b"\x89PNG not really")
    not_a_db = tmp / "hands.sqlite"
    not_a_db.write_bytes(b"this is not a database " * 200)
    models = tmp / "models"
    shutil.copytree(ROOT / "models", models)
    (models / "cards-obb.onnx").write_bytes(b"garbage" * 100)
    return [
        ("a file that is not there", ["settle", str(tmp / "none" / "table.json")], ""),
        ("JSON cut short", ["settle", str(hostile)], ""),
        ("JSON cut short, on stdin", ["settle"], '{"game": "holdem", '),
        ("a card that is no card", ["settle", str(bad_card)], ""),
        ("a card seen twice", ["settle", str(twice)], ""),
        ("a field missing", ["settle", str(no_button)], ""),
        ("a check facing the big blind", ["bet", str(check_facing_bet)], ""),
        ("a Daifugo play that is no JSON object", ["daifugo", "check"], "[1, 2]"),
        ("a source without its calibration", ["run", "--source", str(empty)], ""),
        ("a folder with no frames", ["run", "--source", str(empty), "--calibration",
                                     str(CLIP / "table.yaml")], ""),
        ("a phone's HEIC photo", ["detect", str(heic)], ""),
        ("a phone's HEIC photo to calibrate on", ["calibrate", "--check", str(CLIP / "table.yaml"), "--image",
                                                  str(heic)], ""),
        ("a folder of HEIC photos alone", ["run", "--source", str(phone), "--calibration", str(CLIP / "table.yaml")], ""),
        ("a calibration that is no YAML", ["run", "--source", str(empty), "--calibration", str(garbage_yaml)], ""),
        ("a frame that is no picture", ["calibrate", "--check", str(CLIP / "table.yaml"), "--image",
                                        str(not_an_image)], ""),
        ("a hand log that is no database", ["review", "--db", str(not_a_db)], ""),
        ("a corrupt model file", ["detect", "--models", str(models), str(ROOT / "sample_frames" / "test_000000.jpg")], ""),
        ("a deck name that is a path", ["enroll-deck", "../decks", str(ROOT / "sample_frames" / "test_000000.jpg")], ""),
        ("the desk on a source without its calibration", ["desk", "--source", str(empty)], ""),
        ("a clip scenario that is not there", ["synth", "--clip", str(tmp / "none" / "scenario.json"),
                                               "--out", str(tmp / "clip")], ""),
        # argparse's own complaints, and a value an option refuses
        ("an option the command does not know", ["run", "--bogus"], ""),
        ("an option without its value", ["review", "--db"], ""),
        ("a count that is no number", ["synth", "--n", "many"], ""),
        ("a choice that is not one", ["synth", "--recipe", "photos"], ""),
        ("a time an option refuses", ["run", "--give-up-after", "soon"], ""),
        ("a hand log address that is no PostgreSQL URL", ["review", "--central", "ftp://floor"], ""),
    ]


def test_every_commands_errors_speak_japanese_unless_told(tmp_path, capsys, monkeypatch):
    """Each command's error is one line, in Japanese by default and in English with ``--lang en``,
    with the same exit code: a dealer who gives a command bad input reads why in their language."""
    import io

    wrong = []
    for what, argv, stdin in _bad_input_of_every_command(tmp_path):
        said = {}
        # English told after the command, before it, or once for all commands by the environment
        for way, line, env in (("ja", argv, None), ("en", argv + ["--lang", "en"], None),
                               ("en first", ["--lang", "en", *argv], None), ("en by env", argv, "en")):
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
            if env is None:
                monkeypatch.delenv(LANG_ENV, raising=False)
            else:
                monkeypatch.setenv(LANG_ENV, env)
            try:
                code = main(line)
            except SystemExit as exc:        # argparse's refusal of the command line
                code = exc.code
            out = capsys.readouterr()
            errors = [x for x in out.err.splitlines() if x.startswith("dealer-assist")]
            said[way] = (code, errors)
        (code_ja, ja), (code_en, en) = said["ja"], said["en"]
        for way in ("en first", "en by env"):
            if said[way] != said["en"]:
                wrong.append(f"{what}: English told {way} said {said[way]}, told after the command {said['en']}")
        prefix = f"dealer-assist {argv[0]}: "
        if code_ja == 0 or code_ja != code_en or len(ja) != 1 or len(en) != 1:
            wrong.append(f"{what}: exit {code_ja}/{code_en}, said {ja} / {en}")
            continue
        ja_words = english_words(ja[0].removeprefix(prefix).removeprefix("dealer-assist: "))
        if ja_words or not _JAPANESE.search(ja[0]):
            wrong.append(f"{what}: Japanese line {ja[0]!r} <- {' '.join(ja_words)}")
        if _JAPANESE.search(en[0]):
            wrong.append(f"{what}: English line {en[0]!r} holds Japanese")
    assert not wrong, "\n".join(wrong)


def _error_classes(files: list[Path]) -> set[str]:
    """The project's error classes a person meets: UserError, CardError (the Worded errors) and
    every class that derives from one of them (by name, through the package's class statements)."""
    import ast

    parents: dict[str, set[str]] = {}
    for f in files:
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                parents.setdefault(node.name, set()).update(
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases)
    known = {"UserError", "CardError", "Worded"}
    grew = True
    while grew:
        grew = False
        for name, bases in parents.items():
            if name not in known and bases & known:
                known.add(name)
                grew = True
    return known


def test_no_error_a_person_meets_is_raised_in_english_words_alone():
    """An error a person meets is raised with a catalogue message (``_()``), never with English
    text alone, and a command prints no English line of its own: what the two tests above check
    for some inputs, this checks for every ``raise`` and ``print`` in the code."""
    import ast

    files = sorted((ROOT / "dealer_assist").rglob("*.py"))
    errors = _error_classes(files)

    def words(text: str) -> bool:         # its own words, less a "dealer-assist detect: " prefix
        return bool(re.search("[A-Za-z]{2}", re.sub(r"^dealer-assist [a-z-]+: ", "", text)))

    def english(node) -> bool:
        if isinstance(node, ast.JoinedStr):
            return words("".join(v.value for v in node.values if isinstance(v, ast.Constant)))
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return words(node.value)
        if isinstance(node, ast.BinOp):
            return english(node.left) or english(node.right)
        return False

    found = []
    for f in files:
        rel = f.relative_to(ROOT)
        command = rel.parts[:2] == ("dealer_assist", "commands")
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = node.exc.func.id if isinstance(node.exc.func, ast.Name) else getattr(node.exc.func, "attr", "")
                if name in errors and node.exc.args and english(node.exc.args[0]):
                    found.append(f"{rel}:{node.lineno}: raise {name}(English text)")
            elif (command and isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id == "print" and node.args and english(node.args[0])):
                found.append(f"{rel}:{node.lineno}: print(English text)")
    assert not found, f"{len(found)} place(s) speak English only:\n" + "\n".join(found[:80])


#: every help page a person opens: the program's, each command's and each sub-command's
HELP_PAGES = [[], ["settle"], ["synth"], ["bet"], ["daifugo"], ["daifugo", "check"], ["daifugo", "payout"],
              ["drill"], ["drill", "check"], ["detect"], ["enroll-deck"], ["run"], ["calibrate"], ["review"],
              ["desk"], ["floor"], ["floor-staff"]]


def _help_page(argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def _help_words(page: str) -> list[str]:
    """A help page's own words less what one types: the usage block, the commands listed, the
    flags, their METAVARS, {choices} and JSON ({"state": ...}, "plays")."""
    lines, in_usage = [], False
    for line in page.splitlines():
        if line.startswith(("使い方:", "usage:")):
            in_usage = True
        if in_usage:
            in_usage = bool(line.strip())
            continue
        lines.append(re.sub(r"^ {2,}[a-z][a-z-]*(?: {2,}|$)", " ", line))     # a command in the list
    text = re.sub(r"(?<=[^\x00-\x7f]) *\n *(?=[^\x00-\x7f])", "", "\n".join(lines))   # a wrapped sentence
    text = _STRIP.sub(" ", " ".join(text.replace("WxH", " ").split()))   # what the allow-list allows
    text = re.sub(r"\{[^}]*\}", " ", text)                         # {ja,en}, {"state": ...}
    text = re.sub(r'"[^"]*"', " ", text)                           # "plays", "x1,y1 ..."
    text = re.sub(r"(?<![\w-])--?[a-zA-Z][\w-]*", " ", text)       # -h, --no-search
    text = re.sub(r"\b[A-Z][A-Z0-9_]*(?:[=|:,-][A-Z][A-Z0-9_]*)*\b", " ", text)   # FILE, CARD=OTHER, WxH
    return english_words(text)


def test_every_help_page_speaks_japanese_unless_told(capsys):
    """``--help`` in Japanese by default: the description and every option's help (what one types
    stays as typed); with ``--lang en``, English."""
    wrong = []
    for argv in HELP_PAGES:
        ja = _help_page(argv, capsys)
        words = _help_words(ja)
        if words or "このヘルプを表示して終了します" not in ja:
            wrong.append(f"dealer-assist {' '.join(argv)} --help: {' '.join(words)}")
        if argv:
            en = _help_page([*argv, "--lang", "en"], capsys)
            if "show this help message and exit" not in en or "使い方" in en:
                wrong.append(f"dealer-assist {' '.join(argv)} --help --lang en is not English")
    assert not wrong, "\n".join(wrong)

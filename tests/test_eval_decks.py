"""Decks someone else drew (benchmarks/eval_decks.py): SVG deck files read into card images, the
ones that are no full French-suited deck left out with the reason, and the reader scored deck by
deck on tables drawn with them. The tests draw their own small SVG decks; Debian's are not needed."""
from __future__ import annotations

import doctest
import json
import os
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import eval_decks as E  # noqa: E402

RANKS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
SUITS = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}


def svg_deck(path: Path, kde: bool = False, leave_out: str | None = None, blank: str | None = None) -> Path:
    """An SVG sheet of 52 cards, a joker and a back, 79x123 each, ids as AisleRiot names them
    (``club_1``, ``heart_king``) or as KDE does (``1_club``, ``king_heart``): a white card, a
    dark index mark in its top-left corner and a coloured shape in its middle (none on the
    ``blank`` card, none at all for ``leave_out``)."""
    cards = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    parts = []
    for k, name in enumerate(cards + ["JK", "BACK"]):
        if name == leave_out:
            continue
        x, y = (k % 13) * 79, (k // 13) * 123
        if name == "JK":
            eid = "joker" if kde else "joker_red"
        elif name == "BACK":
            eid = "back"
        else:
            r, s = RANKS.get(name[0], name[0]), SUITS[name[1]]
            eid = f"{r}_{s}" if kde else f"{s}_{r}"
        colour = "#c00" if name[-1] in "dh" else "#000"
        marks = (f'<rect x="{x + 4}" y="{y + 5}" width="10" height="22" fill="{colour}"/>'
                 f'<circle cx="{x + 40}" cy="{y + 62}" r="{8 + k % 20}" fill="{colour}"/>')
        parts.append(f'<g id="{eid}"><rect x="{x}" y="{y}" width="79" height="123" rx="5" fill="#fff" stroke="#333"/>'
                     f'{"" if name == blank else marks}</g>')
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="{13 * 79}" height="{5 * 123}" '
                    f'viewBox="0 0 {13 * 79} {5 * 123}">{"".join(parts)}</svg>', encoding="utf-8")
    return path


def test_doctests_pass():
    assert doctest.testmod(E).failed == 0


def test_a_deck_file_becomes_one_image_a_card_and_what_is_no_deck_is_said(tmp_path):
    decks = tmp_path / "svg"
    svg_deck(decks / "plain.svg")
    svg_deck(decks / "svg-round" / "round.svg", kde=True)
    svg_deck(decks / "short.svg", leave_out="7h")
    svg_deck(decks / "empty.svg", blank="Qs")
    svg_deck(decks / "svg-xskat-german" / "german.svg")
    svg_deck(decks / "backless.svg", leave_out="BACK")
    out = tmp_path / "out"
    got = {E.deck_name(f): E.rasterise(f, out) for f in E.deck_files([decks])}
    assert got["plain"] == (out / "plain", "") and got["kde-round"] == (out / "kde-round", "")
    assert got["short"][0] is None and "7h" in got["short"][1]
    assert got["empty"] == (None, "Qt draws Qs as a blank face")
    assert got["kde-xskat-german"] == (None, "not French suits")
    assert got["backless"] == (None, "no card-shaped back")
    files = sorted(p.name for p in (out / "plain").iterdir())
    assert len(files) == 55 and "JK.png" in files and "BACK.png" in files and "deck.json" in files
    ace = cv2.imread(str(out / "kde-round" / "As.png"), cv2.IMREAD_UNCHANGED)
    assert ace.shape[1] == 2 * 220 and abs(ace.shape[0] / ace.shape[1] - 123 / 79) < 0.01
    assert tuple(ace[ace.shape[0] // 2, ace.shape[1] // 2, :3]) == (0, 0, 0)          # the middle shape
    assert tuple(ace[ace.shape[0] // 2, 20, :3]) == (255, 255, 255)                  # card stock
    info = json.loads((out / "plain" / "deck.json").read_text())
    assert info["joker"] and info["back"] and info["joker_index"] is True and info["source"].endswith("plain.svg")


def test_each_deck_is_read_on_the_same_tables_and_scored_as_the_held_out_split(tmp_path, capsys):
    decks = tmp_path / "svg"
    svg_deck(decks / "plain.svg")
    svg_deck(decks / "lattmann.svg")          # a deck of other court letters: reported apart
    out_json = tmp_path / "decks.json"
    assert E.main(["--svg", str(decks), "--out", str(tmp_path / "out"), "--n", "2", "--json", str(out_json)]) == 0
    text = capsys.readouterr().out
    assert "2 decks, 2 base frames each" in text and "K Q J A indices (1)" in text and "other letters (1)" in text
    figures = json.loads(out_json.read_text())
    plain, other = figures["decks"]["plain"], figures["decks"]["lattmann"]
    assert plain["frames"] == other["frames"] == 2 and plain["cards_counted"] == other["cards_counted"] > 0
    assert figures["groups"]["K Q J A indices"]["cards_counted"] == plain["cards_counted"]
    for name in ("plain", "lattmann"):
        metas = sorted((tmp_path / "out" / "frames-base" / name / "meta" / "test").glob("*.json"))
        assert [m.name for m in metas] == ["3500000.json", "3500001.json"]
        assert json.loads(metas[0].read_text())["meta"]["deck_style"].endswith(name)
    a = cv2.imread(str(tmp_path / "out" / "frames-base" / "plain" / "images" / "test" / "3500000.jpg"))
    b = cv2.imread(str(tmp_path / "out" / "frames-base" / "lattmann" / "images" / "test" / "3500000.jpg"))
    assert a.shape == (720, 1280, 3) and np.abs(a.astype(int) - b.astype(int)).mean() < 8    # one table, two decks


def test_without_any_deck_it_says_what_to_install(tmp_path, capsys):
    assert E.main(["--svg", str(tmp_path)]) == 2
    assert "apt-get install gnome-cards-data kdegames-card-data-kf5" in capsys.readouterr().err

"""The README and docs/*.md as a reader meets them in a clone of the repository.

* Every markdown link, and every path to a ``.md`` file written in backticks, resolves to a
  file inside the repository (an ``#anchor`` must name a heading of the target page).
* docs/rules.md, the house rules, says everything in Japanese and in English: each top-level
  section has a Japanese part, then an English part, with the same points in each.
* The Joker rulebook's worked examples J1-J9, as tabled in docs/rules.md, are what
  :func:`dealer_assist.rules.settle.settle` rules.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from dealer_assist.rules.settle import settle

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.S | re.M)
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_MD = re.compile(r"`([^`\s]+\.md)(?:#[^`\s]*)?`")
JA = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")    # kana, kanji, full-width forms
LATIN = re.compile(r"[A-Za-z]")


def _prose(path: Path) -> str:
    """The page without its fenced code blocks (a path in a code sample is not a reference)."""
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip())
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in _prose(path).splitlines():
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = _slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out


def _inside(target: Path) -> bool:
    try:
        target.resolve().relative_to(ROOT)
    except ValueError:
        return False
    return True


def _references(page: Path):
    text = _prose(page)
    for m in LINK.finditer(text):
        yield "link", m.group(1)
    for m in CODE_MD.finditer(text):
        yield "code", m.group(1)


def _resolve(page: Path, kind: str, ref: str) -> list[Path]:
    """Where a reference may point: links are relative to their page; a path in backticks is
    read relative to the page or to the repository root, as a reader would try both."""
    if kind == "link":
        return [page.parent / ref]
    return [page.parent / ref, ROOT / ref]


def test_pages_found():
    assert RULES in PAGES and ROOT / "README.md" in PAGES and len(PAGES) > 5


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_reference_resolves_inside_the_repository(page):
    bad = []
    for kind, ref in _references(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", ref, re.I):       # https:, mailto: ...
            continue
        path, _, anchor = ref.partition("#")
        candidates = _resolve(page, kind, path) if path else [page]
        hits = [c for c in candidates if _inside(c) and c.exists()]
        if not hits:
            bad.append(f"{ref} ({kind}): no such file inside the repository")
            continue
        if anchor and hits[0].suffix == ".md" and anchor not in _anchors(hits[0]):
            bad.append(f"{ref}: no heading '#{anchor}' in {hits[0].relative_to(ROOT)}")
    assert not bad, f"{page.relative_to(ROOT)}: " + "; ".join(bad)


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_no_page_sends_the_reader_outside_the_clone(page):
    text = page.read_text(encoding="utf-8")
    for gone in ("../shared", "RULINGS.md", "seeds/0"):
        assert gone not in text, f"{page.relative_to(ROOT)} refers to {gone}, which a clone lacks"


def test_readme_and_game_pages_point_to_the_house_rules():
    for name in ("README.md", "docs/half-texas.md", "docs/daifugo.md", "docs/betting.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert re.search(r"\]\((docs/)?rules\.md[#)]", text), f"{name} does not link docs/rules.md"


# ------------------------------------------------------------------ docs/rules.md in two languages

def _sections() -> list[tuple[str, str]]:
    """(heading, body) of every ``## `` section of docs/rules.md, the intro first as ``""``."""
    parts = re.split(r"^## (.*)$", RULES.read_text(encoding="utf-8"), flags=re.M)
    intro = parts[0].split("\n", 1)[1]                  # without the page's "# " title
    return [("", intro)] + list(zip(parts[1::2], parts[2::2]))


def _blocks(body: str) -> tuple[str, str]:
    """The Japanese and the English part of a section (a shared table after the English part,
    marked ``**表 / Table**``, belongs to neither)."""
    assert body.count("**日本語**") == 1 and body.count("**English**") == 1, \
        "each section has one **日本語** part and one **English** part"
    ja_start, en_start = body.index("**日本語**"), body.index("**English**")
    assert ja_start < en_start, "Japanese comes first"
    end = body.find("**表 / Table**")
    return body[ja_start:en_start], body[en_start:end if end > en_start else len(body)]


def _reading(text: str) -> str:
    """What is read as language: no code spans, link targets, file names or card codes."""
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[\w./-]*[._/][\w./-]*|\b(?:[2-9TJQKA][shdc]|JK|[2-9TJQKA](?:-[2-9TJQKA])+)\b",
                  " ", text)


def _ratio_ja(text: str) -> float:
    text = _reading(text)
    ja, latin = len(JA.findall(text)), len(LATIN.findall(text))
    return ja / max(1, ja + latin)


def _points(block: str) -> int:
    return len(re.findall(r"^\s*(?:[-*]|\d+\.)\s", block, re.M))


SECTIONS = _sections()


def test_title_is_in_both_languages():
    title = RULES.read_text(encoding="utf-8").splitlines()[0]
    assert title.startswith("# ") and JA.search(title) and LATIN.search(title)


@pytest.mark.parametrize("heading,body", SECTIONS, ids=[h or "intro" for h, _ in SECTIONS])
def test_each_section_is_complete_in_japanese_and_english(heading, body):
    if heading:
        assert JA.search(heading) and LATIN.search(heading), "the heading carries both languages"
    ja, en = _blocks(body)
    assert len(JA.findall(ja)) >= 40 and _ratio_ja(ja) > 0.5, "the Japanese part is Japanese"
    assert len(re.findall(r"[A-Za-z]{2,}", en)) >= 25 and _ratio_ja(en) < 0.05, \
        "the English part is English"
    # The same points in each: as many list items, and text of comparable length.
    assert _points(ja) == _points(en), f"{_points(ja)} points in Japanese, {_points(en)} in English"
    ja_len, en_len = len(JA.findall(ja)), len(re.findall(r"[A-Za-z]+", en))
    assert 0.8 < ja_len / en_len < 6, f"one language says much less ({ja_len} vs {en_len})"


def test_the_rules_cover_every_game_and_reading():
    headings = " ".join(h for h, _ in SECTIONS)
    for topic in ("Card notation", "Joker NLH", "J1 to J9", "TDA 17A", "TDA 21", "TDA 20A",
                  "Antes", "Half Texas", "Daifugo", "Seven-card stud", "General poker"):
        assert topic in headings, topic
    text = RULES.read_text(encoding="utf-8")
    for rule in ("Robert's Rules", "TDA rule 47", "big blind first", "low_qualifier",
                 "burn", "5-4-3-2-A", "7-5-4-3-2", "casino war", "first dealer"):
        assert rule in text, rule


# ------------------------------------------------------------------ the J1-J9 table against settle

SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
RANKS = re.compile(r"\b[2-9TJQKA](?:-[2-9TJQKA]){4}\b")


def _joker_rows() -> list[list[str]]:
    heading, body = next((h, b) for h, b in SECTIONS if "J1" in h)
    table = body[body.index("**表 / Table**"):]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in table.splitlines() if re.match(r"\|\s*J\d\s*\|", line)]
    return rows


ROWS = _joker_rows()


def test_the_table_holds_all_nine_examples():
    assert [r[0] for r in ROWS] == [f"J{i}" for i in range(1, 10)]
    assert all(len(r) == 7 for r in ROWS)


def _check_hand(cell: str, hand: dict) -> None:
    category, ranks = hand["description"].split(", ", 1)
    assert RANKS.findall(cell) == [ranks.split(" ")[0]], (cell, hand["description"])
    assert category in cell and hand["category_ja"] in cell, (cell, category, hand["category_ja"])


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_joker_example_agrees_with_the_engine(row):
    _, board, j_hole, o_hole, j_cell, o_cell, winner = row
    table = {"game": "joker-holdem", "board": board.split(), "button": 2,
             "seats": [{"seat": 1, "hole": j_hole.split(), "committed": 100},
                       {"seat": 2, "hole": o_hole.split(), "committed": 100}]}
    assert "JK" in table["seats"][0]["hole"]
    out = settle(table)
    j, o = out["hands"]["1"], out["hands"]["2"]
    _check_hand(j_cell, j)
    _check_hand(o_cell, o)
    # What the joker counts as: a rank, or a rank and a suit; "Q/9" where either serves.
    m = re.search(r"JK=([^)]+)\)", j_cell)
    assert m, j_cell
    options = [(alt[0], SUITS.get(alt[1:], None)) for alt in m.group(1).split("/")]
    rank, suit = j["joker_as"][0], j["joker_as"][1]
    assert any(r == rank and s in (None, suit) for r, s in options), (m.group(1), j["joker_as"])
    # The winner.
    who = winner[0]
    assert who in "JO"
    seat = 1 if who == "J" else 2
    assert out["payouts"] == {str(seat): 200, str(3 - seat): 0}
    assert out["pots"][0]["winners"] == [seat]
    # A tie the joker holder loses reads as one in the table and in the ruling.
    tie = "tie" in winner
    assert tie == (j["description"] == o["description"])
    if tie:
        assert any("joker holder loses ties" in line for line in out["explanation"])

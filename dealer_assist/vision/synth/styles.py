"""Card designs as data: deck styles (index font, pips, court art, colours), joker styles and
back designs, each tagged with the split that may use it.

The ``test`` split draws ONLY from styles tagged ``test``; ``train`` only from ``train``. The held
out styles use index fonts, pip shapes, court art, joker art and back patterns that no training
style uses, so test scores measure reading a deck the model has never seen. The ``unseen``
split (validation decks, :data:`UNSEEN_LIST`) draws only from styles tagged ``unseen``, whose
elements neither training nor test styles use: the doubt is chosen on them too.

>>> sorted({s.split for s in DECK_STYLES.values()})
['test', 'train', 'unseen']
>>> train_fonts = {(s.font.kind, s.font.name) for s in styles_for("train", DECK_STYLES)}
>>> any((s.font.kind, s.font.name) in train_fonts for s in styles_for("test", DECK_STYLES))
False
>>> len(styles_for("train", DECK_STYLES)), len(styles_for("test", DECK_STYLES))
(74, 3)
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dealer_assist.errors import UserError
from dealer_assist.i18n import _, typed
from dealer_assist.vision.synth.draw import FontSpec

RED = (36, 28, 200)
DARK_RED = (40, 30, 160)
BLACK = (25, 22, 20)
BLUE = (170, 80, 20)
GREEN = (50, 130, 30)
WHITE = (250, 250, 250)
CREAM = (228, 242, 248)


@dataclass(frozen=True, slots=True)
class DeckStyle:
    """The look of a deck's 52 faces. Sizes are fractions of the card's height (``*_h``) or
    width (``index_x``); the index (rank over suit) stays inside x 0.03-0.22, y 0.02-0.27 of the
    card so the corner crops of :mod:`dealer_assist.vision.geometry` always hold it."""

    name: str
    split: str
    font: FontSpec
    pips: str                      # classic | fat | slim | glyph | angular | var-N (seeded)
    court: str                     # classic | flat | letter | bust | geo | line | rich-N | toon-N (seeded)
    rank_h: float = 0.12
    suit_h: float = 0.075
    rank_w: float = 0.15           # max rank width, fraction of card width
    index_x: float = 0.05
    index_y: float = 0.035
    four_index: bool = False       # indices in all four corners (casino "4-index" decks)
    ten: str = "10"
    pip_w: float = 0.17            # centre pip width, fraction of card width
    ace: str = "big"               # big | ornate | plain | fancy-N (seeded: ``BASE~ace-N``)
    paper: tuple = WHITE
    border: tuple | None = None    # (colour, inset fraction, thickness px)
    colors: tuple = (BLACK, RED, RED, BLACK)   # clubs, diamonds, hearts, spades
    palette: tuple = ((40, 40, 190), (170, 90, 30), (40, 190, 230), (30, 30, 30))
    jumbo: bool = False            # jumbo-index deck: few/small centre pips


@dataclass(frozen=True, slots=True)
class JokerStyle:
    """A joker design. ``index`` is the corner mark: ``None`` (no corner index at all),
    ``"word"`` (JOKER written down the corner) or ``"star"`` (a star under a J)."""

    name: str
    split: str
    art: str                       # jester | star | mask | word | clown | bigword | harlequin | sun | proc-N (seeded art)
    index: str | None
    font: FontSpec = FontSpec("ttf", "DejaVuSans-Bold.ttf")
    color: tuple = BLACK
    accent: tuple = RED
    paper: tuple = WHITE


@dataclass(frozen=True, slots=True)
class BackStyle:
    """A back design: a pattern in ``colors`` inside a paper margin of ``margin`` (fraction of
    the card width; 0 is a full-bleed back)."""

    name: str
    split: str
    pattern: str                   # lattice | frame | dots | stripes | checker | waves | plaid |
    #                                emblem | rosette | hex
    colors: tuple = ((40, 40, 170), WHITE)
    margin: float = 0.06
    paper: tuple = WHITE
    extra: tuple = field(default=())


_SANS = FontSpec("ttf", "DejaVuSans.ttf")

DECK_LIST: tuple[DeckStyle, ...] = (
    DeckStyle("bicycle-like", "train", FontSpec("ttf", "DejaVuSerif-Bold.ttf"), "classic", "classic",
              rank_h=0.115, rank_w=0.14, ace="ornate"),
    DeckStyle("sans-bold", "train", FontSpec("ttf", "DejaVuSans-Bold.ttf"), "fat", "flat",
              rank_h=0.125, rank_w=0.155, border=((60, 60, 60), 0.035, 1)),
    DeckStyle("jumbo-casino", "train", FontSpec("ttf", "DejaVuSansCondensed-Bold.ttf"), "classic",
              "letter", rank_h=0.15, suit_h=0.08, rank_w=0.16, index_y=0.025, four_index=True,
              jumbo=True, pip_w=0.14),
    DeckStyle("serif-cream", "train", FontSpec("ttf", "DejaVuSerif.ttf"), "slim", "classic",
              paper=CREAM, palette=((30, 30, 150), (120, 60, 20), (60, 170, 210), (20, 20, 20))),
    DeckStyle("four-colour", "train", FontSpec("ttf", "DejaVuSans-Bold.ttf", italic=False), "fat",
              "letter", colors=(GREEN, BLUE, RED, BLACK), rank_h=0.13, four_index=True),
    DeckStyle("mono", "train", FontSpec("ttf", "DejaVuSansMono-Bold.ttf"), "glyph", "flat",
              rank_w=0.13, ace="plain"),
    DeckStyle("hershey-simplex", "train", FontSpec("hershey", "simplex", 0.11), "classic", "flat",
              border=((150, 40, 40), 0.04, 2)),
    DeckStyle("hershey-duplex", "train", FontSpec("hershey", "duplex", 0.12), "slim", "classic",
              rank_h=0.13),
    DeckStyle("hershey-complex", "train", FontSpec("hershey", "complex", 0.1), "glyph", "letter",
              paper=CREAM, ace="ornate"),
    DeckStyle("stroke-plain", "train", FontSpec("stroke", "plain", 0.12), "classic", "flat",
              rank_h=0.125),
    DeckStyle("stroke-round-bold", "train", FontSpec("stroke", "round", 0.17), "fat", "classic",
              rank_h=0.13, rank_w=0.16, colors=(BLACK, DARK_RED, DARK_RED, BLACK)),
    DeckStyle("serif-bust", "train", FontSpec("ttf", "DejaVuSerif-Italic.ttf"), "classic", "bust",
              rank_h=0.12, paper=CREAM),
    DeckStyle("geo-modern", "train", FontSpec("ttf", "DejaVuSansCondensed.ttf", bold=0.02), "fat", "geo",
              rank_h=0.13, palette=((60, 60, 200), (200, 140, 40), (40, 180, 230), (60, 40, 30))),
    DeckStyle("sans-oblique", "train", FontSpec("ttf", "DejaVuSans-BoldOblique.ttf"), "slim", "letter",
              rank_h=0.12, border=((40, 40, 40), 0.03, 1)),
    # held out: fonts, pip shapes and court art that no training deck uses
    DeckStyle("heldout-serif-condensed", "test", FontSpec("ttf", "DejaVuSerifCondensed-Bold.ttf"),
              "angular", "line", rank_h=0.125, ace="ornate",
              palette=((60, 60, 160), (150, 100, 40), (60, 150, 200), (40, 40, 40))),
    DeckStyle("heldout-triplex", "test", FontSpec("hershey", "triplex", 0.1), "angular", "line",
              rank_h=0.12, paper=CREAM, border=((40, 90, 40), 0.04, 2)),
    DeckStyle("heldout-stroke-square", "test", FontSpec("stroke", "square", 0.13, italic=True),
              "angular", "line", rank_h=0.125, four_index=True),
)

JOKER_LIST: tuple[JokerStyle, ...] = (
    JokerStyle("jester-word", "train", "jester", "word"),
    JokerStyle("star-noindex", "train", "star", None, accent=(30, 160, 230)),
    JokerStyle("mask-noindex", "train", "mask", None, color=(120, 40, 120), accent=(40, 40, 200)),
    JokerStyle("word-star", "train", "word", "star", FontSpec("ttf", "DejaVuSerif-Bold.ttf")),
    JokerStyle("jester-red", "train", "jester", "word", FontSpec("hershey", "duplex", 0.12),
               color=RED, accent=(160, 90, 30)),
    JokerStyle("clown-noindex", "train", "clown", None, accent=(30, 120, 230)),
    JokerStyle("bigword-word", "train", "bigword", "word", FontSpec("ttf", "DejaVuSans-Bold.ttf"),
               color=(40, 40, 180), accent=(30, 150, 200)),
    # held out
    JokerStyle("harlequin-noindex", "test", "harlequin", None, accent=(40, 150, 40)),
    JokerStyle("sun-word", "test", "sun", "word", FontSpec("ttf", "DejaVuSerifCondensed-Bold.ttf"),
               color=(30, 60, 140), accent=(20, 180, 240)),
)

BACK_LIST: tuple[BackStyle, ...] = (
    BackStyle("lattice-red", "train", "lattice", ((40, 40, 175), WHITE)),
    BackStyle("lattice-blue", "train", "lattice", ((150, 70, 30), WHITE)),
    BackStyle("frame-green", "train", "frame", ((60, 110, 30), (220, 235, 235))),
    BackStyle("dots-black", "train", "dots", ((35, 35, 35), (200, 200, 200)), margin=0.0),
    BackStyle("stripes-blue", "train", "stripes", ((140, 60, 20), (235, 225, 215))),
    BackStyle("checker-red", "train", "checker", ((50, 50, 190), (30, 30, 120)), margin=0.05),
    BackStyle("waves-green", "train", "waves", ((60, 120, 30), (230, 240, 235))),
    BackStyle("plaid-red", "train", "plaid", ((40, 40, 170), (210, 225, 235)), margin=0.0),
    BackStyle("emblem-navy", "train", "emblem", ((90, 40, 20), (200, 220, 230))),
    # held out
    BackStyle("rosette-purple", "test", "rosette", ((120, 40, 110), (230, 220, 235))),
    BackStyle("hex-teal", "test", "hex", ((120, 120, 20), (225, 235, 225)), margin=0.0),
)

# --- generated training styles: seeded combinations of the TRAINING elements only -------------

#: Index fonts training decks may use (kind, name). Held-out decks use fonts outside this set.
TRAIN_FONTS = (
    ("ttf", "DejaVuSans.ttf"), ("ttf", "DejaVuSans-Bold.ttf"), ("ttf", "DejaVuSans-Oblique.ttf"),
    ("ttf", "DejaVuSans-BoldOblique.ttf"), ("ttf", "DejaVuSansCondensed.ttf"),
    ("ttf", "DejaVuSansCondensed-Bold.ttf"), ("ttf", "DejaVuSansCondensed-Oblique.ttf"),
    ("ttf", "DejaVuSerif.ttf"), ("ttf", "DejaVuSerif-Bold.ttf"), ("ttf", "DejaVuSerif-Italic.ttf"),
    ("ttf", "DejaVuSerif-BoldItalic.ttf"), ("ttf", "DejaVuSansMono.ttf"), ("ttf", "DejaVuSansMono-Bold.ttf"),
    ("hershey", "simplex"), ("hershey", "duplex"), ("hershey", "complex"),
    ("stroke", "plain"), ("stroke", "round"),
)
TRAIN_PIPS = ("classic", "fat", "slim", "glyph")
TRAIN_COURTS = ("classic", "flat", "letter", "bust", "geo")
_PAPERS = (WHITE, CREAM, (240, 246, 246), (235, 238, 242), (245, 240, 235))
_REDS = (RED, DARK_RED, (30, 20, 220), (50, 40, 180), (20, 60, 200))
_BLACKS = (BLACK, (10, 10, 10), (50, 40, 35), (60, 30, 30))


def _generated_decks(n: int, seed: int = 2024) -> tuple[DeckStyle, ...]:
    import random

    rnd = random.Random(seed)
    out = []
    for i in range(n):
        kind, name = rnd.choice(TRAIN_FONTS)
        weight = rnd.uniform(0.08, 0.17) if kind != "ttf" else 0.1
        italic = kind != "ttf" and rnd.random() < 0.25
        stretch = rnd.uniform(0.75, 1.2) if rnd.random() < 0.6 else 1.0
        bold = rnd.choice([0.0, 0.0, 0.02, 0.035, -0.015]) if kind == "ttf" else 0.0
        red, black = rnd.choice(_REDS), rnd.choice(_BLACKS)
        colors = (black, red, red, black)
        if rnd.random() < 0.12:
            colors = (GREEN, BLUE, red, black)
        jumbo = rnd.random() < 0.2
        rank_h = rnd.uniform(0.14, 0.15) if jumbo else rnd.uniform(0.095, 0.135)
        index_y = rnd.uniform(0.022, 0.04)
        suit_h = min(rnd.uniform(0.055, 0.085), 0.262 - index_y - rank_h - 0.012)
        border = None
        if rnd.random() < 0.3:
            border = (rnd.choice(_BLACKS + _REDS + (BLUE,)), rnd.uniform(0.025, 0.045), rnd.choice([1, 2]))
        palette = tuple(tuple(rnd.randrange(20, 235) for _ in range(3)) for _ in range(4))
        pips = rnd.choice(TRAIN_PIPS)   # drawn for every deck: the later fields stay as they were
        if i >= 30:  # decks from the 31st on (2026-11-23) draw their own pips: draw._var_shapes
            pips = f"var-{i}"
        out.append(DeckStyle(
            f"gen-{i:02d}", "train", FontSpec(kind, name, round(weight, 3), italic, round(stretch, 3), bold),
            pips, rnd.choice(TRAIN_COURTS), rank_h=round(rank_h, 3),
            suit_h=round(suit_h, 3), rank_w=round(rnd.uniform(0.12, 0.16), 3),
            index_x=round(rnd.uniform(0.035, 0.06), 3), index_y=round(index_y, 3),
            four_index=rnd.random() < 0.25, pip_w=round(rnd.uniform(0.14, 0.2), 3),
            ace=rnd.choice(["big", "ornate", "plain"]), paper=rnd.choice(_PAPERS), border=border,
            colors=colors, palette=palette, jumbo=jumbo, ten="T" if rnd.random() < 0.12 else "10"))
    return tuple(out)


def _generated_jokers(n: int, seed: int = 2025) -> tuple[JokerStyle, ...]:
    import random

    rnd = random.Random(seed)
    arts = sorted({s.art for s in JOKER_LIST if s.split == "train"})
    out = []
    for i in range(n):
        kind, name = rnd.choice(TRAIN_FONTS)
        out.append(JokerStyle(
            f"gen-joker-{i:02d}", "train", rnd.choice(arts), rnd.choice([None, None, "word", "star"]),
            FontSpec(kind, name, 0.12), color=rnd.choice(_BLACKS + _REDS + (BLUE, GREEN)),
            accent=tuple(rnd.randrange(20, 240) for _ in range(3)), paper=rnd.choice(_PAPERS)))
    return tuple(out)


def _procedural_jokers(n: int, seed: int = 2027) -> tuple[JokerStyle, ...]:
    """Training jokers with seeded art (``proc-N``, faces.py's ``_draw_proc_joker``); half of
    them carry no corner index, like the held-out harlequin."""
    import random

    rnd = random.Random(seed)
    out = []
    for i in range(n):
        kind, name = rnd.choice(TRAIN_FONTS)
        out.append(JokerStyle(
            f"proc-joker-{i:02d}", "train", f"proc-{seed * 100 + i}",
            rnd.choice([None, None, None, "word", "star"]), FontSpec(kind, name, 0.12),
            color=rnd.choice(_BLACKS + _REDS + (BLUE, GREEN)),
            accent=tuple(rnd.randrange(20, 240) for _ in range(3)), paper=rnd.choice(_PAPERS)))
    return tuple(out)


def _procedural_backs(n: int, seed: int = 2028) -> tuple[BackStyle, ...]:
    """Training backs with seeded designs (``proc-N``, faces.py's ``_draw_proc_back``)."""
    import random

    rnd = random.Random(seed)
    out = []
    for i in range(n):
        while True:  # pattern and ground must differ clearly
            fg = tuple(rnd.randrange(10, 220) for _ in range(3))
            bg = rnd.choice(_PAPERS + (tuple(rnd.randrange(60, 250) for _ in range(3)),))
            if abs(sum(fg) - sum(bg)) >= 200:
                break
        out.append(BackStyle(f"proc-back-{i:02d}", "train", f"proc-{seed * 100 + i}", (fg, bg),
                             margin=rnd.choice([0.0, 0.04, 0.06, 0.08]), paper=rnd.choice(_PAPERS)))
    return tuple(out)


def _generated_backs(n: int, seed: int = 2026) -> tuple[BackStyle, ...]:
    import random

    rnd = random.Random(seed)
    pats = sorted({s.pattern for s in BACK_LIST if s.split == "train"})
    out = []
    for i in range(n):
        while True:  # pattern and ground must differ clearly, or the back reads as plain plastic
            fg = tuple(rnd.randrange(10, 220) for _ in range(3))
            bg = rnd.choice(_PAPERS + (tuple(rnd.randrange(60, 250) for _ in range(3)),))
            if abs(sum(fg) - sum(bg)) >= 200:
                break
        out.append(BackStyle(f"gen-back-{i:02d}", "train", rnd.choice(pats), (fg, bg),
                             margin=rnd.choice([0.0, 0.04, 0.06, 0.08]), paper=rnd.choice(_PAPERS)))
    return tuple(out)


# --- unseen: validation decks --------------------------------------------------------------
# The ``unseen`` split's decks are for choosing the ``sure`` thresholds on decks the reader has
# never seen (benchmarks/eval_sure.py) without touching the held-out ``test`` split: every training
# deck is met by the readers, and a threshold chosen on them let a small black card's wrong suit be
# sure on the held-out decks (models/MODEL_CARD.md, "Forty-second session"). Their index typefaces
# (Noto CJK's Latin letters and digits, DejaVu faces and a Hershey face no other deck uses), pips
# (the suit characters of Debian's URW and Noto CJK typefaces, and the round ``blob`` suits),
# court art (``rich-N`` from seeds above every training seed), jokers and backs (seeded art from
# seeds no other style uses) are none of the training and test decks'. The typefaces come from
# fonts-noto-cjk and fonts-urw-base35 (:data:`UNSEEN_FONT_FILES`; :func:`unseen_missing`).
_CJK = "/usr/share/fonts/opentype/noto/"
#: The typeface files the unseen decks' indices and pips need
UNSEEN_FONT_FILES = (_CJK + "NotoSansCJK-Bold.ttc", _CJK + "NotoSerifCJK-Regular.ttc")
_CJK_SANS = FontSpec("ttf", _CJK + "NotoSansCJK-Bold.ttc")
_CJK_SERIF = FontSpec("ttf", _CJK + "NotoSerifCJK-Regular.ttc")
UNSEEN_LIST: tuple[DeckStyle, ...] = (
    DeckStyle("unseen-cjk-sans", "unseen", _CJK_SANS, "glyph-NotoSansCJK-Bold", "rich-9000001",
              rank_h=0.12, rank_w=0.15),
    DeckStyle("unseen-cjk-serif", "unseen", _CJK_SERIF, "glyph-C059-Roman", "rich-9000002",
              rank_h=0.125, paper=CREAM, ace="ornate"),
    DeckStyle("unseen-extralight", "unseen", FontSpec("ttf", "DejaVuSans-ExtraLight.ttf", bold=0.02), "blob",
              "rich-9000003", rank_h=0.13, border=((40, 40, 40), 0.03, 1)),
    DeckStyle("unseen-mono-oblique", "unseen", FontSpec("ttf", "DejaVuSansMono-BoldOblique.ttf"),
              "glyph-URWGothic-Book", "rich-9000004", rank_w=0.13, four_index=True),
    DeckStyle("unseen-hershey-plain", "unseen", FontSpec("hershey", "plain", 0.13), "glyph-NimbusSans-Regular",
              "rich-9000005", rank_h=0.125, paper=(240, 246, 246)),
    DeckStyle("unseen-cjk-blob", "unseen", _CJK_SANS, "blob", "rich-9000006", rank_h=0.145, suit_h=0.08,
              rank_w=0.16, index_y=0.025, jumbo=True, pip_w=0.14),
    DeckStyle("unseen-serif-bookman", "unseen", _CJK_SERIF, "glyph-URWBookman-Light", "rich-9000007",
              rank_h=0.115, colors=(BLACK, DARK_RED, DARK_RED, BLACK), ace="plain"),
    DeckStyle("unseen-condensed-oblique", "unseen", FontSpec("ttf", "DejaVuSansCondensed-BoldOblique.ttf"),
              "glyph-P052-Roman", "rich-9000008", rank_h=0.125, border=((150, 40, 40), 0.04, 2)),
)
UNSEEN_JOKERS: tuple[JokerStyle, ...] = tuple(
    JokerStyle(f"unseen-joker-{i}", "unseen", f"proc-{9_100_000 + i}", (None, "word", None, "star")[i % 4],
               (_CJK_SANS, _CJK_SERIF)[i % 2], color=(BLACK, RED, BLUE, GREEN)[i % 4],
               accent=((30, 150, 220), (160, 60, 40), (40, 40, 190), (30, 120, 60))[i % 4])
    for i in range(8))
UNSEEN_BACKS: tuple[BackStyle, ...] = tuple(
    BackStyle(f"unseen-back-{i}", "unseen", f"proc-{9_200_000 + i}",
              (((30, 30, 150), WHITE), ((120, 60, 20), (230, 225, 215)), ((40, 90, 30), CREAM),
               ((20, 20, 20), (200, 200, 205)))[i % 4], margin=(0.0, 0.05, 0.07, 0.04)[i % 4])
    for i in range(8))

DECK_LIST = DECK_LIST + _generated_decks(60) + UNSEEN_LIST
JOKER_LIST = JOKER_LIST + _generated_jokers(12) + _procedural_jokers(48) + UNSEEN_JOKERS
BACK_LIST = BACK_LIST + _generated_backs(12) + _procedural_backs(40) + UNSEEN_BACKS

DECK_STYLES: dict[str, DeckStyle] = {s.name: s for s in DECK_LIST}
JOKER_STYLES: dict[str, JokerStyle] = {s.name: s for s in JOKER_LIST}
BACK_STYLES: dict[str, BackStyle] = {s.name: s for s in BACK_LIST}

SPLITS = ("train", "test", "unseen")


class SynthError(UserError, ValueError):
    """A request the renderer cannot serve (a split, a recipe, typefaces that are not installed):
    a :class:`~dealer_assist.errors.UserError` (one line in the CLI's language) and a
    :class:`ValueError` (what the renderer's callers catch).

    >>> e = SynthError(_("split must be 'train' or 'test', not {split}", split=typed("val")))
    >>> isinstance(e, ValueError), str(e)
    (True, "split must be 'train' or 'test', not 'val'")
    """


#: Separator of a deck style with its pips redrawn: ``"gen-12~var-123456"`` (:func:`deck_style`).
PIPS_SEP = "~"

#: Folders of index typefaces beyond DejaVu that the ``fresh-fonts`` data recipe gives training
#: decks (Debian's fonts-liberation, fonts-urw-base35, fonts-quicksand and fonts-noto-mono; their
#: licences are in models/MODEL_CARD.md). ``DEALER_ASSIST_EXTRA_FONT_DIRS`` (folders joined by
#: ``os.pathsep``) replaces the list. No held-out TEST deck uses any of them.
EXTRA_FONT_DIRS = ("/usr/share/fonts/truetype/liberation", "/usr/share/fonts/opentype/urw-base35",
                   "/usr/share/fonts/truetype/quicksand", "/usr/share/fonts/truetype/noto")
#: Files of those folders that hold no letters and digits to draw an index with (symbols, dingbats)
#: or only a script hand
_NOT_INDEX_FONTS = ("StandardSymbolsPS", "D050000L", "Z003-MediumItalic")


def extra_fonts() -> dict[str, str]:
    """The extra index typefaces found on this machine: file stem -> path, sorted by stem (so
    seeded picks repeat where the same packages are installed).

    >>> all(stem not in extra_fonts() for stem in _NOT_INDEX_FONTS)
    True
    """
    import os

    env = os.environ.get("DEALER_ASSIST_EXTRA_FONT_DIRS")
    dirs = tuple(d for d in env.split(os.pathsep) if d) if env is not None else EXTRA_FONT_DIRS
    found: dict[str, str] = {}
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for f in os.listdir(d):
            stem, ext = os.path.splitext(f)
            if ext.lower() in (".ttf", ".otf") and stem not in _NOT_INDEX_FONTS:
                found.setdefault(stem, os.path.join(d, f))
    return dict(sorted(found.items()))


def deck_style(name: str) -> DeckStyle:
    """A deck style by name. ``BASE~var-N`` is the TRAINING deck ``BASE`` with its pips drawn by
    the seeded drawing ``var-N`` (:func:`dealer_assist.vision.synth.draw.pip_mask`): the
    ``fresh-pips`` data recipes give every frame a pip drawing of its own this way.
    ``BASE~rich-N`` (also after a ``~var-N``) gives it the busy seeded court art ``rich-N``
    (:mod:`dealer_assist.vision.synth.courts`; the ``world`` recipe), ``BASE~toon-N`` its open or
    cartoon court art (the ``world-courts`` recipe). ``BASE~font-STEM`` draws its
    indices in the extra typeface ``STEM`` (:func:`extra_fonts`; the ``fresh-fonts`` recipe).

    >>> deck_style("gen-03~var-123456").pips, deck_style("gen-03~var-123456").font == deck_style("gen-03").font
    ('var-123456', True)
    >>> st = deck_style("gen-03~var-7~rich-100005"); st.pips, st.court
    ('var-7', 'rich-100005')
    >>> deck_style("heldout-triplex~var-5")
    Traceback (most recent call last):
    ...
    ValueError: only training decks take fresh pips, not 'heldout-triplex'
    >>> deck_style("gen-03~angular")
    Traceback (most recent call last):
    ...
    ValueError: fresh pips must be var-N, not 'angular'
    """
    from dataclasses import replace

    base, *parts = name.split(PIPS_SEP)
    st = DECK_STYLES.get(base)
    if st is None:
        raise ValueError(f"unknown deck style {base!r}")
    if not parts:
        return st
    if st.split != "train":
        raise ValueError(f"only training decks take fresh pips, not {base!r}")
    changes: dict = {"name": name}
    for part in parts:
        if part[:5] in ("rich-", "toon-") and part[5:].isdigit() and "court" not in changes:
            changes["court"] = part
        elif part.startswith("ace-") and part[4:].isdigit() and "ace" not in changes:
            changes["ace"] = "fancy-" + part[4:]
        elif part.startswith("var-") and part[4:].isdigit() and "pips" not in changes:
            changes["pips"] = part
        elif part.startswith("font-") and "font" not in changes:
            path = extra_fonts().get(part[5:])
            if path is None:
                raise ValueError(f"the typeface {part[5:]!r} is not installed (extra_fonts())")
            changes["font"] = FontSpec("ttf", path)
        elif part[:5] in ("warp-", "bend-") and part[5:].isdigit() and int(part[5:]) > 0 and "warp" not in changes:
            changes["warp"] = (part[:4], int(part[5:]))
        else:
            raise ValueError(f"fresh pips must be var-N, not {part!r}")
    kind, warp = changes.pop("warp", ("", 0))
    if kind == "warp":      # the deck's typeface bent, and made bolder or lighter, narrower or wider, by the seed
        rng = np.random.default_rng([warp, 0xF0])
        font = changes.get("font", st.font)
        changes["font"] = replace(font, warp=warp, bold=font.bold + float(rng.uniform(-0.01, 0.04)),
                                  stretch=font.stretch * float(rng.uniform(0.8, 1.15)),
                                  italic=font.italic or bool(rng.random() < 0.15))
    elif kind == "bend":    # bent half as far, never bolder (bolder ink fills a 9's loop), a little narrower or wider
        rng = np.random.default_rng([warp, 0xF1])
        font = changes.get("font", st.font)
        changes["font"] = replace(font, warp=warp, warp_amp=0.5, bold=font.bold - float(rng.uniform(0.0, 0.012)),
                                  stretch=font.stretch * float(rng.uniform(0.9, 1.1)),
                                  italic=font.italic or bool(rng.random() < 0.15))
    return replace(st, **changes)


def check_split(split: str) -> None:
    """Refuse a split that is not ``train``, ``test`` or ``unseen`` (:class:`SynthError`), and
    the ``unseen`` split where its typefaces are not installed.

    >>> check_split("val")
    Traceback (most recent call last):
    ...
    dealer_assist.vision.synth.styles.SynthError: split must be 'train', 'test' or 'unseen', not 'val'
    """
    if split not in SPLITS:
        raise SynthError(_("split must be 'train', 'test' or 'unseen', not {split}", split=typed(split)))
    missing = unseen_missing() if split == "unseen" else []
    if missing:
        raise SynthError(_("the unseen split's decks need typefaces this machine does not have: {files} "
                           "(apt-get install fonts-noto-cjk fonts-urw-base35)", files=", ".join(missing)))


def unseen_missing() -> list[str]:
    """The typeface files the ``unseen`` decks need that this machine does not have (none: it can
    render them)."""
    import os

    from dealer_assist.vision.synth.draw import glyph_font_path

    files = [f for f in UNSEEN_FONT_FILES if not os.path.isfile(f)]
    stems = {s.pips[6:] for s in UNSEEN_LIST if s.pips.startswith("glyph-")}
    return files + sorted(f"{stem}.otf" for stem in stems if glyph_font_path(stem) is None)


def styles_for(split: str, table: dict) -> list:
    """The styles of ``table`` a split may use, in a fixed order (so seeded picks repeat)."""
    check_split(split)
    return [s for s in table.values() if s.split == split]

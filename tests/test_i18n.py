"""The message catalogues (dealer_assist/i18n.py): the shipped ``.mo`` files are what the ``.po``
sources compile to, and every message the code says is in both catalogues, translated."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from dealer_assist.i18n import DOMAIN, LANGS, LOCALE_DIR, messages_in

babel = pytest.importorskip("babel")
from babel.messages.mofile import read_mo, write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

PACKAGE = Path(__file__).resolve().parent.parent / "dealer_assist"
_FIELD = re.compile(r"\{(\w+)\}")


def catalogue(lang: str):
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as fh:
        return read_po(fh, locale=lang)


def code_messages() -> set:
    return messages_in(sorted(PACKAGE.rglob("*.py")))


def compiled(data: bytes) -> tuple:
    """What the runtime reads from a ``.mo``: every message and its translation, and the plural
    rule (not the header's ``Generated-By: Babel x.y``, which names the compiler's version)."""
    cat = read_mo(io.BytesIO(data))
    return cat.plural_expr, sorted((repr(m.id), repr(m.string), repr(m.context)) for m in cat if m.id)


@pytest.mark.parametrize("lang", LANGS)
def test_the_shipped_mo_is_what_the_po_compiles_to(lang):
    buf = io.BytesIO()
    write_mo(buf, catalogue(lang))
    shipped = (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").read_bytes()
    assert compiled(shipped) == compiled(buf.getvalue()), f"run scripts/i18n.sh: {lang} .mo is stale"


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_of_the_code_is_in_the_catalogue(lang):
    cat = catalogue(lang)
    missing = []
    for context, msgid, plural in sorted(code_messages(), key=str):
        key = (msgid, plural) if plural is not None else msgid
        m = cat.get(key, context=context)
        if m is None:
            missing.append((context, msgid))
        elif lang == "ja":
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            if not all(strings) or m.fuzzy:
                missing.append((context, msgid))
    assert not missing, f"{len(missing)} message(s) missing in {lang} (run scripts/i18n.sh and translate):\n" \
        + "\n".join(map(repr, missing[:40]))


def test_the_catalogues_hold_nothing_the_code_does_not_say():
    said = {(c, m) for c, m, _ in code_messages()}
    for lang in LANGS:
        extra = [(m.context, m.id if not isinstance(m.id, tuple) else m.id[0]) for m in catalogue(lang) if m.id]
        stale = [e for e in extra if e not in said]
        assert not stale, f"{lang}: entries no code uses (run scripts/i18n.sh): {stale[:20]}"


def test_a_translation_uses_only_the_fields_its_message_has():
    """A Japanese line may leave a field out (an English detail it says in its own words), never
    name one the message does not fill."""
    for m in catalogue("ja"):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        have = set().union(*(_FIELD.findall(i) for i in ids))
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in strings:
            assert set(_FIELD.findall(s)) <= have, (m.id, s)


#: words the Japanese catalogue says one way: the variant a dealer would stumble on -> the product's word
_ONE_WORD = {"プレーヤー": "プレイヤー", "番席": "シート"}
#: an annotation in a Japanese sentence takes full-width brackets; key caps and coordinates keep ASCII ones
_ASCII_ANNOTATION = re.compile(
    r"[\u3040-\u30ff\u4e00-\u9fff]\((?![\d,{}x ]*\)|[A-Za-z0-9→←\- ]{1,4}\))")


def test_the_japanese_catalogue_says_each_thing_one_way():
    """A Half Texas error said 「プレーヤー」 where every other game said 「プレイヤー」; a seat was
    「3番席」 in one place and 「シート3」 in the rest; 「…({why})」 in one sentence, 「…（{why}）」 in another."""
    found = []
    for m in catalogue("ja"):
        if not m.id:
            continue
        for s in m.string if isinstance(m.string, tuple) else (m.string,):
            found += [(s, f"{bad} -> {good}") for bad, good in _ONE_WORD.items() if bad in s]
            if _ASCII_ANNOTATION.search(s):
                found.append((s, "( ) -> （ ）"))
    assert not found, found[:20]

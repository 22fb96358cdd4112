"""Events told in plain words, English or Japanese: the commentary of ``run``, ``review`` and the desk.

>>> describe({"type": "board", "street": "turn", "cards": ["Ks", "Js", "6s", "4d"]})
'turn: board Ks Js 6s 4d'
>>> line({"t": 4.2, "frame": 63, "type": "board", "hand": 1, "street": "flop",
...       "cards": ["Ks", "Js", "6s"]}, "ja")
'[   4.2s] 第1ハンド フロップ: ボード Ks Js 6s'
"""
from __future__ import annotations

import json
from typing import Any, Optional

STREETS_JA = {"flop": "フロップ", "turn": "ターン", "river": "リバー"}


def cards_text(cards: Any) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def seat_text(s: Any, ja: bool) -> str:
    return f"シート{s}" if ja else f"seat {s}"


def pays_text(payouts: Optional[dict], ja: bool) -> str:
    paid = [(s, v) for s, v in (payouts or {}).items() if v]
    if not paid:
        return ""
    if ja:
        return "配当 " + "、".join(f"シート{s} {v}" for s, v in paid)
    return "pays " + ", ".join(f"seat {s} {v}" for s, v in paid)


def _hands_shown(ruling: dict, ja: bool) -> str:
    hands = ruling.get("hands") or {}
    order = [str(s) for s in ruling.get("showdown_order") or []]
    order += [s for s in hands if s not in order]
    parts = []
    for s in order:
        h = hands.get(s)
        if not h:
            continue
        what = (h.get("description_ja") or h.get("category_ja")) if ja else (h.get("description") or h.get("category"))
        joker = f"（JK={h['joker_as']}）" if ja and h.get("joker_as") else (
            f" (JK as {h['joker_as']})" if h.get("joker_as") else "")
        parts.append(f"{seat_text(s, ja)} {what}{joker}")
    return ("、" if ja else "; ").join(parts)


def describe(ev: dict, lang: str = "en") -> str:
    """What one logged event means, in plain words.

    >>> describe({"type": "board", "street": "turn", "cards": ["Ks", "Js", "6s", "4d"]})
    'turn: board Ks Js 6s 4d'
    >>> describe({"type": "alert", "code": "duplicate_card", "message": "8c seen twice",
    ...           "message_ja": "8cが2か所に", "card": "8c", "cleared": False}, "ja")
    '！注意 duplicate_card: 8cが2か所に'
    """
    ja = lang == "ja"
    kind = ev.get("type")
    if kind == "hand_start":
        seats = ", ".join(str(s) for s in ev.get("seats") or [])
        if ja:
            return f"ハンド開始: シート {seats} に配札（ボタン シート{ev.get('button')}）"
        return f"hand starts: dealt to seats {seats} (button seat {ev.get('button')})"
    if kind == "board":
        street = str(ev.get("street", ""))
        if ja:
            return f"{STREETS_JA.get(street, street)}: ボード {cards_text(ev.get('cards'))}"
        return f"{street}: board {cards_text(ev.get('cards'))}"
    if kind == "hole":
        if ja:
            return f"シート{ev.get('seat')} がオープン: {cards_text(ev.get('cards'))}"
        return f"seat {ev.get('seat')} shows {cards_text(ev.get('cards'))}"
    if kind == "alert":
        msg = (ev.get("message_ja") if ja else ev.get("message")) or ""
        if ev.get("cleared"):
            return f"{'解消' if ja else 'resolved'} {ev.get('code')}: {msg}".rstrip(": ")
        return f"{'！注意' if ja else 'ALERT'} {ev.get('code')}: {msg}".rstrip(": ")
    if kind == "showdown":
        ruling = ev.get("ruling") or {}
        parts = [p for p in (_hands_shown(ruling, ja), pays_text(ruling.get("payouts"), ja)) if p]
        head = "ショーダウン" if ja else "showdown"
        return head + (": " + ("。".join(parts) if ja else "; ".join(parts)) if parts else "")
    if kind == "hand_end":
        ruling = ev.get("ruling")
        wws = ev.get("won_without_showdown")
        head = "ハンド終了" if ja else "hand over"
        bits = []
        if wws is not None:
            bits.append(f"シート{wws}がショーダウンなしで獲得" if ja else f"seat {wws} wins without a showdown")
        if ruling:
            pays = pays_text(ruling.get("payouts"), ja)
            if pays:
                bits.append(pays)
        else:
            bits.append("裁定なし" if ja else "no ruling")
        n = ev.get("corrections")
        if n:
            bits.append(f"訂正 {n} 件" if ja else f"{n} correction{'s' if n != 1 else ''}")
        return head + ((": " if not ja else "（") + ("、" if ja else ", ").join(bits) + ("）" if ja else "")
                       if bits else "")
    rest = {k: v for k, v in ev.items() if k not in ("t", "frame", "type", "hand")}
    return f"{kind} {json.dumps(rest, ensure_ascii=False)}" if rest else str(kind)


def describe_correction(c: dict, lang: str = "en") -> str:
    """One dealer correction in plain words.

    >>> describe_correction({"zone": "board4", "card": "8c", "to": "8s"})
    'board4: 8c corrected to 8s'
    >>> describe_correction({"zone": "seat2", "card": "??", "to": None}, "ja")
    'seat2: ?? を取り除き'
    """
    ja = lang == "ja"
    zone, card, to = c.get("zone") or "?", c.get("card") or "?", c.get("to")
    if to is None:
        return f"{zone}: {card} を取り除き" if ja else f"{zone}: {card} removed"
    return f"{zone}: {card} を {to} に訂正" if ja else f"{zone}: {card} corrected to {to}"



def line(ev: dict, lang: str = "en", explain: bool = True) -> str:
    """One event with its time and hand, for a running commentary; a showdown also gets the
    ruling's explanation lines (what a floor manager reads aloud)."""
    ja = lang == "ja"
    t = ev.get("t")
    stamp = f"[{t:6.1f}s] " if isinstance(t, (int, float)) else ""
    hand = ev.get("hand")
    if hand is not None:
        stamp += f"第{hand}ハンド " if ja else f"hand {hand} "
    out = stamp + describe(ev, lang)
    if explain and ev.get("type") == "showdown":
        lines = (ev.get("ruling") or {}).get("explanation_ja" if ja else "explanation") or []
        out += "".join("\n    " + x for x in lines)
    return out

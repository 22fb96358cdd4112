"""Every word the desk display shows, in Japanese (the default) and English.

The display's own labels live here; rulings, alerts and explanations come in both languages from
the rules engine and the hand flow and are only picked, never re-worded.

>>> t("hand", "ja", n=2), t("hand", "en", n=2)
('第2ハンド', 'Hand 2')
>>> zone_text("board4", "ja"), zone_text("seat3", "en"), zone_text("muck", "ja")
('ボード4', 'seat 3', 'マック')
>>> card_label("Th"), card_label("JK"), card_label("??"), card_label("BACK")
('10♥', 'JOKER', '?', '')
>>> t("no_such_key", "ja")
Traceback (most recent call last):
...
KeyError: 'no desk text no_such_key'
"""
from __future__ import annotations

from typing import Optional

LANGS = ("ja", "en")

#: key -> (English, Japanese); ``{name}`` fields are filled by :func:`t`.
TEXTS: dict[str, tuple[str, str]] = {
    "title": ("dealer-assist desk", "dealer-assist ディーラー画面"),
    "hand": ("Hand {n}", "第{n}ハンド"),
    "hand_over": ("Hand {n}: over", "第{n}ハンド 終了"),
    "waiting": ("Waiting for a deal", "配札待ち"),
    "street.waiting": ("waiting", "配札待ち"),
    "street.preflop": ("preflop", "プリフロップ"),
    "street.flop": ("flop", "フロップ"),
    "street.turn": ("turn", "ターン"),
    "street.river": ("river", "リバー"),
    "street.showdown": ("showdown", "ショーダウン"),
    "street.won": ("won without showdown", "ショーダウンなしで決着"),
    "button": ("button seat {n}", "ボタン シート{n}"),
    "seat": ("Seat {n}", "シート{n}"),
    "btn": ("BTN", "BTN"),
    "folded": ("folded", "フォールド"),
    "not_dealt": ("not in the hand", "不参加"),
    "in_hand": ("in the hand", "参加中"),
    "committed": ("in {n}", "ベット {n}"),
    "committed_none": ("chips: not entered", "ベット未入力"),
    "with_ante": ("{text} (ante {n})", "{text}（アンティ {n}）"),
    "antes_each": ("antes {n} each", "アンティ 各{n}"),
    "antes_bb": ("big-blind ante {n}", "BBアンティ {n}"),
    "antes_bb_blind": ("big-blind ante {n} (blind {blind}: blind first)", "BBアンティ {n}（ブラインド {blind} を先に）"),
    "antes_title": ("Antes for this level", "このレベルのアンティ"),
    "antes_hint": ("Antes are dead money in the main pot; every seat still in the hand contests them.",
                   "アンティはデッドマネーとして全額メインポットへ。残っている全シートが争います。"),
    "antes_none": ("No antes", "アンティなし"),
    "antes_each_choice": ("Every seat antes", "全員がアンティ"),
    "antes_bb_choice": ("Big-blind ante (the big blind antes for the table)", "BBアンティ（BBが全員分を支払う）"),
    "antes_amount": ("Ante", "アンティ"),
    "antes_blind": ("Big blind (posted first when short)", "ビッグブラインド（不足時はブラインドを先に）"),
    "antes_set": ("Set", "設定"),
    "wins": ("wins {n}", "獲得 {n}"),
    "best_five": ("best five", "ベスト5枚"),
    "joker_as": ("joker = {card}", "JOKER＝{card}"),
    "board": ("Board", "ボード"),
    "burn": ("burn", "バーン"),
    "burn_count": ("burn {n}", "バーン {n}枚"),
    "ruling": ("Ruling", "裁定"),
    "no_ruling": ("No ruling yet: it comes at the showdown", "裁定はショーダウンで表示します"),
    "chips_estimate": ("Chips not entered: the winners are shown as if each seat put in 1 chip",
                       "ベット額未入力: 各シート1チップとして勝者を表示しています"),
    "pot_line": ("{name} {amount}  ({eligible})", "{name} {amount}（{eligible}）"),
    "pot_takes": ("→ {who}", "→ {who}"),
    "seats_list": ("seats {seats}", "シート{seats}"),
    "odd_chip": ("odd chip: seat {seats}", "端数チップ: シート{seats}"),
    "explanation": ("Why", "理由"),
    "events": ("What happened", "経過"),
    "all_clear": ("All clear", "異常なし"),
    "dismiss": ("OK (Esc)", "確認 (Esc)"),
    # toolbar
    "pause": ("Pause (Space)", "一時停止 (Space)"),
    "resume": ("Resume (Space)", "再開 (Space)"),
    "step": ("Next frame (→)", "コマ送り (→)"),
    "lang": ("日本語 (L)", "English (L)"),
    "handlog": ("Hand log (H)", "ハンドログ (H)"),
    "fullscreen": ("Full screen (F11)", "全画面 (F11)"),
    "paused": ("paused", "一時停止中"),
    "playing": ("live", "ライブ"),
    "ended": ("source ended", "映像終了"),
    "frame": ("frame {n}", "フレーム {n}"),
    "log_to": ("hand log {path}", "ハンドログ {path}"),
    "no_log": ("no hand log", "ハンドログなし"),
    # the card picker
    "picker_title": ("Correct {card} in {zone}", "{zone}の{card}を訂正"),
    "picker_hint": ("Click the true card, or type it (Kc, 10h, JK) and press Enter",
                    "正しいカードをクリック、または入力（Kc、10h、JK）してEnter"),
    "picker_remove": ("Remove this card… (Del)", "このカードを削除… (Del)"),
    "picker_cancel": ("Cancel (Esc)", "キャンセル (Esc)"),
    "picker_bad": ("“{text}” is not a card: nothing was changed. Type a rank and a suit (Kc, 10h) or JK",
                   "「{text}」はカードではありません。何も変更していません。ランクとスート（Kc、10h）かJKを入力してください"),
    "picker_empty": ("Type a card (Kc, 10h, JK) or click one", "カード（Kc、10h、JK）を入力するかクリックしてください"),
    "picker_remove_ask": ("Remove {card} from {zone}? It is no longer a card of this hand.",
                          "{zone}の{card}を削除しますか？ このハンドのカードから外します。"),
    "picker_remove_yes": ("Remove it", "削除する"),
    "picker_remove_no": ("Keep it", "削除しない"),
    # a correction that changes the payouts: asked before it is applied
    "confirm_title": ("This correction changes the payouts", "この訂正で配当が変わります"),
    "confirm_what": ("{zone}: {card} → {to}", "{zone}: {card} → {to}"),
    "confirm_head": ("Payouts now → after the correction", "現在の配当 → 訂正後"),
    "confirm_seat": ("Seat {n}:  {before} → {after}", "シート{n}:  {before} → {after}"),
    "confirm_none": ("no ruling", "裁定なし"),
    "confirm_apply": ("Apply the correction", "訂正を適用する"),
    "confirm_cancel": ("Cancel: change nothing (Esc)", "キャンセル: 変更しない (Esc)"),
    # a correction standing in this hand (the banner, the card tiles)
    "corrected_item": ("{zone} {card} → {to}", "{zone} {card} → {to}"),
    "corrected_list": ("{items}: the corrected cards are marked until the hand ends",
                       "{items}（訂正したカードはハンド終了まで印付き）"),
    "corrected_tip": ("corrected by the dealer (read as {card})", "ディーラーが訂正（読み取りは{card}）"),
    # why a seat that showed its cards takes nothing (one line on its panel)
    "loses_to": ("loses to seat {seats}'s {hand}", "シート{seats}の{hand}に負け"),
    "ties_joker": ("ties seat {seats}; the joker loses ties", "シート{seats}と同点、JOKERの負け"),
    # corrections refused / notices made by the desk itself
    "correct_over": ("corrections are for the hand in progress; hand {n} is over (open the hand log, H)",
                     "訂正は進行中のハンドだけです。第{n}ハンドは終了しました（ハンドログ: H）"),
    "correct_none": ("no hand is in progress: nothing to correct", "進行中のハンドがありません。訂正できません"),
    "correct_back": ("a face-down card cannot be corrected: turn it over first",
                     "裏向きのカードは訂正できません。表にしてください"),
    "font_missing": ("No Japanese font on this machine: Japanese would show as empty boxes, so the "
                     "display is in English. Install one (Debian: fonts-noto-cjk) for Japanese.",
                     "日本語フォントがありません（Debian: fonts-noto-cjk）"),
    "font_missing_stay": ("The display stays in English: this machine has no Japanese font, so Japanese "
                          "would show as empty boxes. Install one (Debian: apt-get install fonts-noto-cjk) "
                          "and restart the desk.",
                          "日本語フォントがないため英語のままです（Debian: apt-get install fonts-noto-cjk の後、再起動）"),
    # dispute mode
    "dispute_title": ("Hand log: disputes", "ハンドログ: 裁定の確認"),
    "dispute_hands": ("Hands", "ハンド一覧"),
    "dispute_none": ("The hand log has no hands yet", "ハンドログにハンドがありません"),
    "dispute_row": ("#{id}  hand {hand}  {when}  {status}\n    board {board}",
                    "#{id}  第{hand}ハンド  {when}  {status}\n    ボード {board}"),
    "status.open": ("open", "進行中"),
    "status.ended": ("ended", "終了"),
    "winners": ("won by seat {seats}", "勝者 シート{seats}"),
    "snapshot_of": ("snapshot {i} of {n}: frame {frame}, {t:.1f} s, {event}",
                    "スナップショット {i}/{n}: フレーム {frame}、{t:.1f}秒、{event}"),
    "no_snapshots": ("no snapshots were kept for this hand", "このハンドのスナップショットはありません"),
    "prev": ("◀ Previous (←)", "◀ 前 (←)"),
    "next": ("Next (→) ▶", "次 (→) ▶"),
    "corrections": ("Dealer corrections", "ディーラーの訂正"),
    "no_corrections": ("none", "なし"),
    "correction_line": ("frame {frame}: {zone} {card} → {to}", "フレーム {frame}: {zone} {card} → {to}"),
    "removed": ("removed", "削除"),
    "session_line": ("source {source}; models {models}", "映像 {source}; モデル {models}"),
    "close": ("Close (Esc)", "閉じる (Esc)"),
}

#: alert code -> (English title, Japanese title) for the banner; the message is the alert's own.
ALERT_TITLES: dict[str, tuple[str, str]] = {
    "joker_on_board": ("JOKER ON THE BOARD: burn-swap", "ボードにJOKER: バーン交換"),
    "duplicate_card": ("SAME CARD SEEN TWICE", "同じカードが2か所"),
    "unreadable_card": ("CARD CANNOT BE READ", "読めないカード"),
    "sixth_board_card": ("EXTRA CARD ON THE BOARD", "ボードのカードが多すぎます"),
    "wrong_street": ("BOARD OUT OF ORDER", "ボードの順番"),
    "chips_missing": ("CHIPS NOT ENTERED", "ベット額が未入力"),
    "ruling_error": ("NO RULING", "裁定できません"),
    "no_showdown_seen": ("NO SHOWDOWN SEEN", "ショーダウンなし"),
    "camera_lost": ("CAMERA LOST", "カメラ切断"),
    "camera_back": ("CAMERA BACK", "カメラ復帰"),
    "frame_unreadable": ("FRAME UNREADABLE", "フレームを読めません"),
    "source_ended": ("RECORDING ENDED", "映像終了"),
    "pipeline_stopped": ("STOPPED: NO MORE READINGS", "停止: 読み取りできません"),
    "bad_action": ("INPUT REFUSED", "入力を受け付けません"),
    "correction_refused": ("CORRECTION REFUSED", "訂正できません"),
    "correction_stands": ("CORRECTED BY THE DEALER", "ディーラー訂正あり"),
    "font_missing": ("NO JAPANESE FONT", "日本語フォントなし"),
    "falling_behind": ("FALLING BEHIND: RULING WAITS", "処理遅延: 裁定保留"),
}

#: How loud each alert is: "stop" (the dealer's hands are needed now: red), "warn" (amber),
#: "info" (blue).
SEVERITY: dict[str, str] = {
    "joker_on_board": "stop", "duplicate_card": "stop", "unreadable_card": "stop",
    "sixth_board_card": "stop", "wrong_street": "stop", "ruling_error": "stop", "camera_lost": "stop",
    "pipeline_stopped": "stop", "falling_behind": "stop",
    "chips_missing": "warn", "no_showdown_seen": "warn", "bad_action": "warn",
    "correction_refused": "warn", "frame_unreadable": "warn", "font_missing": "warn",
    "source_ended": "info", "camera_back": "info", "correction_stands": "info",
}

#: event type -> (English, Japanese), for the dispute timeline
EVENT_NAMES: dict[str, tuple[str, str]] = {
    "hand_start": ("hand start", "ハンド開始"), "board": ("board", "ボード"), "hole": ("cards shown", "オープン"),
    "alert": ("alert", "注意"), "showdown": ("showdown", "ショーダウン"), "hand_end": ("hand end", "ハンド終了"),
}

_ZONES: dict[str, tuple[str, str]] = {"burn": ("burn", "バーン"), "muck": ("muck", "マック")}
SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def t(key: str, lang: str = "ja", **fields) -> str:
    """The text ``key`` in ``lang`` ("ja" or "en") with ``fields`` filled in."""
    try:
        en, ja = TEXTS[key]
    except KeyError:
        raise KeyError(f"no desk text {key}") from None
    text = ja if lang == "ja" else en
    return text.format(**fields) if fields else text


def alert_title(code: str, lang: str) -> str:
    """The banner's headline for an alert code (the code itself if it is unknown)."""
    en, ja = ALERT_TITLES.get(code, (code.replace("_", " ").upper(), code))
    return ja if lang == "ja" else en


def zone_text(zone: Optional[str], lang: str) -> str:
    """A calibration zone in words: ``board3`` -> ``ボード3`` / ``board 3``."""
    if not zone:
        return "-"
    if zone.startswith("board") and zone[5:].isdigit():
        return f"ボード{zone[5:]}" if lang == "ja" else f"board {zone[5:]}"
    if zone.startswith("seat") and zone[4:].isdigit():
        return f"シート{zone[4:]}" if lang == "ja" else f"seat {zone[4:]}"
    en, ja = _ZONES.get(zone, (zone, zone))
    return ja if lang == "ja" else en


def card_label(code: Optional[str]) -> str:
    """How a card tile names a card: the rank as printed on cards (10, not T) and the suit symbol."""
    if code is None or code == "BACK":
        return ""
    if code == "JK":
        return "JOKER"
    if code == "??" or len(code) != 2:
        return "?"
    rank = "10" if code[0] == "T" else code[0]
    return rank + SUIT_SYMBOL.get(code[1], code[1])


def seats_text(seats, lang: str) -> str:
    """``[2, 3, 4]`` -> ``2・3・4`` (ja) / ``2, 3, 4`` (en)."""
    return ("・" if lang == "ja" else ", ").join(str(s) for s in seats)


def event_name(kind: str, lang: str) -> str:
    """An event type in words (``hand_end`` -> ``ハンド終了``)."""
    en, ja = EVENT_NAMES.get(kind, (kind, kind))
    return ja if lang == "ja" else en

"""Every word the desk display shows, in Japanese (the default) and English.

The display's own labels are named here by key; their words are in the message catalogues
(:mod:`dealer_assist.i18n`), one per language.  Rulings, alerts and explanations come in both
languages from the rules engine and the hand flow and are only picked, never re-worded.

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

from typing import Any, Optional

from dealer_assist.i18n import Msg, N_, _p, join, render
from dealer_assist.i18n import zone as zone_words
from dealer_assist.live.words import ALERT_TITLES as WORDS_ALERT_TITLES
from dealer_assist.live.words import alert_title as words_alert_title

LANGS = ("ja", "en")

#: key -> the message id (English, in the catalogues); ``{name}`` fields are filled by :func:`t`.
TEXTS: dict[str, str] = {
    "title": N_("dealer-assist desk"),
    "hand": N_("Hand {n}"),
    "hand_over": N_("Hand {n}: over"),
    "waiting": N_("Waiting for a deal"),
    "street.waiting": N_("waiting"),
    "street.preflop": N_("preflop"),
    "street.flop": N_("flop"),
    "street.turn": N_("turn"),
    "street.river": N_("river"),
    "street.showdown": N_("showdown"),
    "street.won": N_("won without showdown"),
    "street.dealing": N_("dealing"),
    "street.deal1": N_("deal 1"),
    "street.deal2": N_("deal 2"),
    "acts": N_("acts first"),
    "up_cards": N_("up {cards}"),
    "street.predraw": N_("before the draw"),
    "street.draw": N_("after the draw"),
    "street.play": N_("game in play"),          # Daifugo: a game being refereed
    "draws": N_("draws {n}"),
    "button": N_("button seat {n}"),
    "next_button": N_("next hand's button seat {n}"),
    "seat": N_("Seat {n}"),
    "btn": N_("BTN"),
    "folded": N_("folded"),
    "not_dealt": N_("not in the hand"),
    "in_hand": N_("in the hand"),
    "committed": N_("in {n}"),
    "committed_none": N_("chips: not entered"),
    "with_ante": N_("{text} (ante {n})"),
    "antes_each": N_("antes {n} each"),
    "antes_bb": N_("big-blind ante {n}"),
    "antes_bb_blind": N_("big-blind ante {n} (blind {blind}: blind first)"),
    "antes_title": N_("Antes for this level"),
    "dealer_title": N_("Dealer change (D)"),
    "follow_camera": N_("Follow camera (Z)"),
    "dealer_label": N_("The dealer taking the table (named in every hand the log keeps):"),
    "dealer_now": N_("dealer {name}"),
    "dialog_ok": N_("OK (Enter)"),
    "button_title": N_("Button (B)"),
    "button_label_hand": N_("The button of hand {n} (the blinds and an odd chip follow it):"),
    "button_label_next": N_("The button of the next hand (in place of the seat the rotation would give):"),
    "antes_hint": N_("Antes are dead money in the main pot; every seat still in the hand contests them."),
    "antes_none": N_("No antes"),
    "antes_each_choice": N_("Every seat antes"),
    "antes_bb_choice": N_("Big-blind ante (the big blind antes for the table)"),
    "antes_amount": N_("Ante"),
    "antes_blind": N_("Big blind (posted first when short)"),
    "antes_set": N_("Set"),
    "wins": N_("wins {n}"),
    "best_five": N_("best five"),
    "joker_as": N_("joker = {card}"),
    "board": N_("Board"),
    "burn": N_("burn"),
    "burn_count": N_("burn {n}"),
    "ruling": N_("Ruling"),
    "no_ruling": N_("No ruling yet: it comes at the showdown"),
    "chips_estimate": N_("Chips not entered: the winners are shown as if each seat put in 1 chip"),
    "pot_line": N_("{name} {amount}  ({eligible})"),
    "pot_takes": N_("→ {who}"),
    "seats_list": N_("seats {seats}"),
    "odd_chip": N_("odd chip: seat {seats}"),
    "explanation": N_("Why"),
    "events": N_("What happened"),
    "all_clear": N_("All clear"),
    "dismiss": N_("OK (Esc)"),
    "pause": N_("Pause (Space)"),
    "resume": N_("Resume (Space)"),
    "step": N_("Next frame (→)"),
    "lang": N_("日本語 (L)"),
    "handlog": N_("Hand log (H)"),
    "fullscreen": N_("Full screen (F11)"),
    "paused": N_("paused"),
    "playing": N_("live"),
    "ended": N_("source ended"),
    "frame": N_("frame {n}"),
    "log_to": N_("hand log {path}"),
    "no_log": N_("no hand log"),
    "picker_title": N_("Correct {card} in {zone}"),
    "picker_hint": N_("Click the true card, or type it (Kc, 10h, JK) and press Enter"),
    "picker_remove": N_("Remove this card… (Del)"),
    "picker_cancel": N_("Cancel (Esc)"),
    "picker_bad": N_("“{text}” is not a card: nothing was changed. Type a rank and a suit (Kc, 10h) or JK"),
    "picker_empty": N_("Type a card (Kc, 10h, JK) or click one"),
    "picker_remove_ask": N_("Remove {card} from {zone}? It is no longer a card of this hand."),
    "picker_remove_yes": N_("Remove it"),
    "picker_remove_no": N_("Keep it"),
    "confirm_title": N_("This correction changes the payouts"),
    "confirm_what": N_("{zone}: {card} → {to}"),
    "confirm_head": N_("Payouts now → after the correction"),
    "confirm_seat": N_("Seat {n}:  {before} → {after}"),
    "confirm_none": N_("no ruling"),
    "confirm_apply": N_("Apply the correction"),
    "confirm_cancel": N_("Cancel: change nothing (Esc)"),
    "corrected_item": N_("{zone} {card} → {to}"),
    "corrected_list": N_("{items}: the corrected cards are marked until the hand ends"),
    "corrected_tip": N_("corrected by the dealer (read as {card})"),
    "ruling_provisional": N_("Ruling (provisional)"),
    "provisional_line": N_("final once the marked cards are confirmed (Enter)"),
    "provisional_over": N_("the marked cards were never confirmed"),
    "moot_line": N_("final: no name of the marked cards could change the chips"),
    "provisional_banner": N_("not sure: {cards}. Enter (or C) confirms them all as read; click a card to confirm or correct it"),
    "doubtful_tip": N_("not sure: confirm or correct it"),
    "doubtful_or_tip": N_("not sure, or is it {card}? Confirm or correct it"),
    "doubtful_or": N_("or {card}?"),
    "picker_other": N_("It is {card}"),
    "confirm_all": N_("Confirm all (Enter)"),
    "picker_confirm": N_("Confirm {card} as read (it is right)"),
    "loses_to": N_("loses to seat {seats}'s {hand}"),
    "ties_joker": N_("ties seat {seats}; the joker loses ties"),
    "correct_over": N_("corrections are for the hand in progress; hand {n} is over (open the hand log, H)"),
    "correct_none": N_("no hand is in progress: nothing to correct"),
    "correct_back": N_("a face-down card cannot be corrected: turn it over first"),
    "font_missing": N_("No Japanese font on this machine: Japanese would show as empty boxes, so the display is in English. Install one (Debian: fonts-noto-cjk) for Japanese."),
    "font_missing_stay": N_("The display stays in English: this machine has no Japanese font, so Japanese would show as empty boxes. Install one (Debian: apt-get install fonts-noto-cjk) and restart the desk."),
    "dispute_title": N_("Hand log: disputes"),
    "dispute_hands": N_("Hands"),
    "dispute_none": N_("The hand log has no hands yet"),
    "dispute_row": N_("#{id}  hand {hand}  {when}  {status}\n    board {board}"),
    "status.open": N_("open"),
    "status.ended": N_("ended"),
    "winners": N_("won by seat {seats}"),
    "snapshot_of": N_("snapshot {i} of {n}: frame {frame}, {t} s, {event}"),
    "no_snapshots": N_("no snapshots were kept for this hand"),
    "prev": N_("◀ Previous (←)"),
    "next": N_("Next (→) ▶"),
    "corrections": N_("Dealer corrections"),
    "no_corrections": N_("none"),
    "correction_line": N_("frame {frame}: {zone} {card} → {to}"),
    "confirmed_line": N_("frame {frame}: {zone} {card} confirmed as read"),
    "removed": N_("removed"),
    "session_line": N_("source {source}; models {models}"),
    "close": N_("Close (Esc)"),
    # the camera view: the part of a far camera's frame the reader looks at alone
    "read_part": N_("cards are read only inside this frame"),
}

#: alert code -> its title for the banner (the catalogue's, shared with the commentary); the
#: message is the alert's own.
ALERT_TITLES = WORDS_ALERT_TITLES

#: How loud each alert is: "stop" (the dealer's hands are needed now: red), "warn" (amber),
#: "info" (blue).
SEVERITY: dict[str, str] = {
    "joker_on_board": "stop", "duplicate_card": "stop", "unreadable_card": "stop",
    "sixth_board_card": "stop", "wrong_street": "stop", "ruling_error": "stop", "camera_lost": "stop",
    "pipeline_stopped": "stop", "falling_behind": "stop", "wrong_card_count": "stop", "not_in_deck": "stop",
    "chips_missing": "warn", "no_showdown_seen": "warn", "bad_action": "warn",
    "correction_refused": "warn", "frame_unreadable": "warn", "font_missing": "warn",
    "source_ended": "info", "camera_back": "info", "correction_stands": "info",
    "provisional_ruling": "warn", "ruling_unconfirmed": "warn",
    "illegal_play": "stop", "joker_declaration": "stop", "play_error": "warn", "no_game": "warn",
    "picture_frozen": "stop", "picture_dark": "stop", "picture_washed": "stop", "picture_blurred": "warn",
    "fold_undone": "info",
    "camera_moved": "stop", "camera_unwatched": "info", "small_cards": "info",
}

#: event type -> its name, for the dispute timeline
EVENT_NAMES: dict[str, Msg] = {
    "hand_start": _p("event", "hand start"), "board": _p("event", "board"),
    "hole": _p("event", "cards shown"), "alert": _p("event", "alert"),
    "showdown": _p("event", "showdown"), "hand_end": _p("event", "hand end"),
    "confirm": _p("event", "cards confirmed"),
    "up": _p("event", "up cards"), "draw": _p("event", "draw"),
    "play": _p("event", "play"),
}

SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def t(key: str, lang: str = "ja", **fields) -> str:
    """The text ``key`` in ``lang`` ("ja" or "en") with ``fields`` filled in (with no fields: the
    template itself, its ``{name}`` placeholders unfilled)."""
    try:
        msgid = TEXTS[key]
    except KeyError:
        raise KeyError(f"no desk text {key}") from None
    return Msg(msgid, tuple(fields.items())).render(lang)


def alert_title(code: str, lang: str, sure: Any = True) -> str:
    """The banner's headline for an alert code (the code itself, in capitals, if it is unknown);
    ``sure`` False: the alert's card was not read surely (:data:`dealer_assist.live.words.UNSURE_TITLES`)."""
    return words_alert_title(code, lang, sure)


def zone_text(zone: Optional[str], lang: str) -> str:
    """A calibration zone in words: ``board3`` -> ``ボード3`` / ``board 3``."""
    return render(zone_words(zone), lang)


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
    return join([str(s) for s in seats], _p("seat numbers", ", ")).render(lang)


def event_name(kind: str, lang: str) -> str:
    """An event type in words (``hand_end`` -> ``ハンド終了``)."""
    return render(EVENT_NAMES.get(kind, kind), lang)

"""``dealer-assist enroll-deck NAME IMAGES...``: learn a particular deck (its jokers at least).

Photos are named after their card (``JK.jpg``, ``JK-2.jpg``, ``Ah_front.png``), or carry a
label sidecar (``PHOTO.json``), or ``--card CARD`` says what they all show. The deck goes to
``calibration/decks/NAME/`` (or ``--root DIR``); ``dealer-assist detect --deck NAME`` uses it.
"""
from __future__ import annotations

import argparse
import json
import sys

from dealer_assist.commands import add_lang, h
from dealer_assist.i18n import Said, _, _n, join, typed


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "enroll-deck",
        help=h(_("learn a deck's own cards (e.g. its jokers) from a few photos")),
        description=h(_("Learn deck NAME from photos of its cards so that detect --deck NAME reads "
                        "it: whole-card looks (jokers without a corner index) and corner indices. "
                        "Name each photo after its card (JK.jpg, Ah-2.jpg; BACK.jpg for the deck's back, "
                        "which with the jokers finds a joker whose art passes for a back), or after a suit "
                        "(spades.jpg, clubs.jpg, hearts.jpg, diamonds.jpg) for a photo of that suit's "
                        "13 cards laid out A 2 ... K left to right, row by row: a whole deck in four "
                        "photos (its spades and clubs are what the generic reader confuses most).")),
    )
    p.add_argument("name", metavar="NAME", help=h(_("deck name (letters, digits, - _ .)")))
    p.add_argument("images", nargs="+", metavar="IMAGE",
                   help=h(_("photos of the deck's cards, named after the card (JK.jpg) or the suit "
                            "(spades.jpg)")))
    p.add_argument("--card", metavar="CARD",
                   help=h(_("every photo shows this card (e.g. JK, or BACK for the deck's back)")))
    p.add_argument("--append", action="store_true", help=h(_("add to the deck instead of replacing it")))
    p.add_argument("--root", metavar="DIR", help=h(_("decks folder (default calibration/decks)")))
    p.add_argument("--models", metavar="DIR", default=None, help=h(_("model folder (default models/)")))
    add_lang(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_assist.commands.detect import model_dir
    from dealer_assist.live.sources import quiet_native_logs
    from dealer_assist.vision.decks import check_doubts, doubts_listed
    from dealer_assist.vision.enroll import enroll_deck

    quiet_native_logs()

    summary = enroll_deck(args.name, args.images, model_dir(args.models), root=args.root,
                          card=args.card, append=args.append)
    for s in summary["skipped"]:
        why = Said(s["reason"], s["reason_ja"])
        print("dealer-assist enroll-deck: " + _("skipped {image}: {why}", image=s["image"], why=why).render(args.lang),
              file=sys.stderr)
    views = join([_("{card} x{n}", card=k, n=v) for k, v in summary["views"].items()], ", ")
    print(_("enrolled deck {name} in {folder}: {views}", name=typed(summary["name"]), folder=summary["folder"],
            views=views).render(args.lang))
    check = summary["photos_check"]
    if check["cards"]:
        print(_("read without the deck in these photos: {right} of {cards} cards right, {sure} of them sure",
                right=check["right"], cards=check["cards"], sure=check["right_sure"]).render(args.lang))
    if check["wrong"]:
        wrong = join([_("{card} as {read} (sure)", card=w["card"], read=w["read"]) if w["sure"]
                      else _("{card} as {read}", card=w["card"], read=w["read"]) for w in check["wrong"]], ", ")
        print(_("read wrong: {cards}", cards=wrong).render(args.lang))
    if check["unreadable"]:
        print(_("unreadable: {cards}", cards=", ".join(check["unreadable"])).render(args.lang))
    if check["missed"]:
        print(_("not found: {cards}", cards=", ".join(check["missed"])).render(args.lang))
    doubts = check_doubts(summary["check"])
    if doubts:
        print(_n("with this deck the reader never shows this name as sure (in these photos it misread or could "
                 "not read a card like it); the dealer confirms it: {cards}",
                 "with this deck the reader never shows these {n} names as sure (in these photos it misread or "
                 "could not read cards like them); the dealer confirms them: {cards}", len(doubts), n=len(doubts),
                 cards=doubts_listed(doubts)).render(args.lang))
    risky = sum(w["sure"] for w in check["wrong"])
    if risky:
        print("dealer-assist enroll-deck: " + _n(
            "warning: in these close photos the reader alone is sure of {n} name that is not the card the photo "
            "is named after; check that photo's name. If it is right, the reader misreads this deck: "
            "enrolled, it never shows that name as sure, and a deck it reads well is safer at the table",
            "warning: in these close photos the reader alone is sure of {n} names that are not the cards the photos "
            "are named after; check those photos' names. If they are right, the reader misreads this deck: "
            "enrolled, it never shows those names as sure, and a deck it reads well is safer at the table",
            risky, n=risky).render(args.lang),
            file=sys.stderr)
    print(json.dumps({"views": summary["views"], "skipped": len(summary["skipped"]), "read_right": check["right"],
                      "read_cards": check["cards"], "read_wrong_sure": risky, "never_sure": len(doubts)}))
    return 2 if summary["skipped"] else 0

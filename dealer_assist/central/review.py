"""``dealer-assist review --central URL [--table NAME] [HAND]``: the central log read as ``review``
reads a table's own log (the same list and the same telling of a hand, by
:mod:`dealer_assist.commands.review`), every table's hands, or one table's."""
from __future__ import annotations

import json
import os
import sys

from dealer_assist.errors import UserError
from dealer_assist.i18n import _, _n

__all__ = ["run_central"]


def run_central(args) -> int:
    from dealer_assist.central.reader import CentralLog
    from dealer_assist.commands.review import format_hand, format_list, snapshot_names

    if args.salvage:
        raise UserError("--salvage works on a table's own log (--db), not on --central")
    lang = args.lang
    with CentralLog(args.central) as log:
        if args.hand is None:
            if args.export or args.snapshots:
                raise UserError("--export and --snapshots need a HAND (SESSION:HAND such as 2:3; "
                                "dealer-assist review --central URL lists them)")
            hands = log.list_hands(args.table)
            if args.session is not None:
                hands = [h for h in hands if h["session"] == args.session]
            if args.json:
                print(json.dumps(hands, ensure_ascii=False, indent=2))
                return 0
            if not hands:
                none = (_("the central log has no hands yet") if args.table is None
                        else _("the central log has no hands of table {table} yet", table=args.table))
                print(none.render(lang))
                return 0
            names = [args.table] if args.table is not None else sorted({h["table"] for h in hands})
            blocks = []
            for name in names:
                mine = [h for h in hands if h["table"] == name]
                head = _("table {table} ({n} hands; review --central URL --table {table} HAND tells one)",
                         table=name, n=len(mine)).render(lang)
                blocks.append(head + "\n" + format_list(mine, lang))
            print("\n\n".join(blocks))
            return 0

        hand = log.load_hand(args.hand, args.table)
        text = json.dumps(hand, ensure_ascii=False, indent=2)
        talk = sys.stderr if args.json else sys.stdout
        if args.json:
            print(text)
        elif not (args.export or args.snapshots):
            print(format_hand(hand, lang))
        if args.export:
            try:
                with open(args.export, "w", encoding="utf-8") as fh:
                    fh.write(text + "\n")
            except OSError as exc:
                raise UserError(f"cannot write {args.export}: {exc.strerror or exc}") from None
            print(_("wrote hand {ref} to {path}", ref=hand["ref"], path=args.export).render(lang), file=talk)
        if args.snapshots:
            names = snapshot_names(hand["snapshots"])
            try:
                os.makedirs(args.snapshots, exist_ok=True)
                for snap, name in zip(hand["snapshots"], names):
                    with open(os.path.join(args.snapshots, name), "wb") as fh:
                        fh.write(log.load_snapshot(hand, snap["id"]))
            except OSError as exc:
                raise UserError(f"cannot write snapshots to {args.snapshots}: {exc.strerror or exc}") from None
            print(_n("wrote {n} snapshot of hand {ref} to {path}", "wrote {n} snapshots of hand {ref} to {path}",
                     len(names), n=len(names), ref=hand["ref"], path=args.snapshots).render(lang), file=talk)
    return 0

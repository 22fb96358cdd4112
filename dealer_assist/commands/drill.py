"""``dealer-assist drill``: drills for new dealers, made and answered by the rules engine (docs/trainer.md).

* ``drill --json [--topic T] [--level N] [--n N] [--seed S]``: one drill per line, as JSON;
* ``drill --topics``: the topics;
* ``drill check [FILE]``: ``{"drill": ..., "answer": ...}`` (or an array of them) in, for each
  ``{"right", "expected", "wrong", "explanation", "explanation_ja"}`` out; exit 0 whether the
  answer is right or wrong, 2 for malformed input;
* ``drill`` alone: drills in the terminal, Japanese unless ``--lang en``;
* ``drill --from-log FILE [--hand SESSION:N] [--json] [--n N]``: the hands of a hand log as drills,
  their ruling hidden, disputed hands first (:mod:`dealer_assist.trainer.fromlog`).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time

from dealer_assist.commands import add_json_io, add_lang, h
from dealer_assist.errors import UserError
from dealer_assist.i18n import _, message_of, render, typed


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "drill",
        help=h(_("trainer: drills from the rules engine (showdowns, pots, burn-swap, stud, Daifugo ...)")),
        description=h(_("Drills for new dealers: a table, a question and the rules engine's answer. "
                        "With --json, one drill per line; without, drills in the terminal. "
                        "'drill check' checks answers (see docs/trainer.md).")),
    )
    p.add_argument("--json", action="store_true", help=h(_("print the drills as JSON, one per line")))
    p.add_argument("--topics", action="store_true", help=h(_("list the topics and exit")))
    p.add_argument("--topic", help=h(_("only this topic (see --topics); default every topic in turn")))
    p.add_argument("--level", type=int, choices=(1, 2, 3),
                   help=h(_("1: two seats, one pot; 2: up to six seats, all-ins; 3: up to nine seats, "
                            "four all-ins, the joker. Default: 1, 2, 3 in turn")))
    p.add_argument("--n", type=int, default=None,
                   help=h(_("how many drills (default 10; 5 in the terminal)")))
    p.add_argument("--seed", type=int, default=None,
                   help=h(_("the same seed gives the same drills (default 0 with --json, random in the "
                            "terminal)")))
    add_lang(p, _("language of the text (default Japanese)"))
    p.add_argument("--trainer", metavar="NAME",
                   help=h(_("record the answers for this trainee (terminal drills)")))
    p.add_argument("--db", default="trainees.sqlite", help=h(_("the trainee store (default trainees.sqlite)")))
    p.add_argument("--from-log", metavar="FILE", default=None,
                   help=h(_("drills from the real hands of this hand log (hand-log.sqlite), their ruling "
                            "hidden: disputed hands first, then the newest (default: every hand that reached "
                            "a ruling)")))
    p.add_argument("--hand", metavar="SESSION:N", default=None,
                   help=h(_("with --from-log: only this hand, as dealer-assist review names it (2:3)")))
    p.set_defaults(func=run, action=None)
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    c = actions.add_parser(
        "check",
        help=h(_("check answers: {\"drill\", \"answer\"} in, right or wrong and why out")),
        description=h(_("Read {\"drill\": <a drill>, \"answer\": <the trainee's answer>} or an array of "
                        "them from FILE or stdin and write, for each, {\"right\", \"expected\", \"wrong\", "
                        "\"explanation\", \"explanation_ja\"}. A wrong answer is a normal answer (exit 0); "
                        "malformed input is exit 2.")),
    )
    # --lang also after "check" (drill check FILE --lang en); not given there, drill's own stands
    add_json_io(c, lang_default=argparse.SUPPRESS)
    c.set_defaults(func=run_check)


def _check_n(n):
    if n is not None and not 1 <= n <= 100_000:
        raise UserError(_("--n {n}: give 1 to 100000 drills", n=n))


def run(args: argparse.Namespace) -> int:
    from dealer_assist.trainer.drills import TOPICS, generate

    if args.topics:
        for name, t in TOPICS.items():
            print(f"{name}\t{render(t.title, args.lang)}")
        return 0
    _check_n(args.n)
    if args.topic is not None and args.topic not in TOPICS:
        raise UserError(_("unknown topic {topic}; the topics are {topics}", topic=typed(args.topic),
                          topics=", ".join(TOPICS)))
    if args.from_log is not None:
        return _from_log(args)
    if args.hand is not None:
        raise UserError(_("--hand {hand} goes with --from-log FILE (a hand of the hand log)", hand=args.hand))
    if args.json:
        seed = 0 if args.seed is None else args.seed
        for d in generate(args.n or 10, seed, args.topic, args.level):
            sys.stdout.write(json.dumps(d.to_json(), ensure_ascii=False) + "\n")
        return 0
    seed = random.randrange(1 << 30) if args.seed is None else args.seed
    return _terminal(generate(args.n or 5, seed, args.topic, args.level), args)


def _from_log(args: argparse.Namespace) -> int:
    """``drill --from-log FILE [--hand SESSION:N]``: the hand log's hands as drills (docs/trainer.md)."""
    from dealer_assist.trainer.fromlog import drills_from_log, no_drills

    if args.seed is not None:
        raise UserError(_("--seed does not go with --from-log: the drills are the hands of the log"))
    skipped: list = []
    drills = drills_from_log(args.from_log, args.hand, args.topic, args.level, skipped)
    for _ref, exc in skipped:
        note = exc.message_ja if args.lang == "ja" and exc.message_ja else str(exc)
        print(render(_("dealer-assist drill: skipped: {why}", why=note), args.lang), file=sys.stderr)
    if not drills:
        raise no_drills(args.from_log, args.topic)
    if args.n is not None:
        drills = drills[:args.n]
    if args.json:
        for d in drills:
            sys.stdout.write(json.dumps(d.to_json(), ensure_ascii=False) + "\n")
        return 0
    return _terminal(iter(drills), args)


def _terminal(drills, args) -> int:
    """Drills one by one in the terminal: the table, the question, a typed answer, the verdict."""
    from dealer_assist.trainer.drills import TOPICS, check
    from dealer_assist.trainer.typed import read_reply, reply_help, table_lines

    lang = args.lang
    store = None
    if args.trainer:
        from dealer_assist.trainer.store import Store
        store = Store(args.db)
    say = lambda m: print(render(m, lang))   # noqa: E731
    right = total = 0
    for i, d in enumerate(drills, 1):
        say(_("Drill {i}: {topic} (level {level})", i=i, topic=TOPICS[d.topic].title, level=d.level))
        for line in table_lines(d, lang):
            print("  " + line)
        say(d.question)
        say(reply_help(d))
        start = time.monotonic()
        while True:
            try:
                text = input("> ")
            except EOFError:
                print()
                say(_("{right} of {total} right.", right=right, total=total))
                return 0
            try:
                answer = read_reply(d, text)
                break
            except UserError as exc:
                print(exc.message_ja if lang == "ja" and exc.message_ja else str(exc))
        seconds = time.monotonic() - start
        result = check(d, answer)
        total += 1
        right += result.right
        for line in (result.explanation_ja if lang == "ja" else result.explanation):
            print("  " + line)
        if store is not None:
            store.record(args.trainer, d, result.right, seconds)
        print()
    say(_("{right} of {total} right.", right=right, total=total))
    return 0


def run_check(args: argparse.Namespace) -> int:
    from dealer_assist.commands.settle import read_json
    from dealer_assist.trainer.drills import check_json


    data = read_json(args.file)
    if isinstance(data, list):
        if not data:
            raise UserError(_("an empty array: nothing to check"))
        out = []
        for i, item in enumerate(data):
            try:
                out.append(check_json(item))
            except UserError as exc:
                raise UserError(_("item {n}: {why}", n=i + 1, why=message_of(exc))) from None
    else:
        out = check_json(data)
    json.dump(out, sys.stdout, ensure_ascii=False, indent=None if args.compact else 1)
    sys.stdout.write("\n")
    return 0

"""``dealer-assist synth OUT --n N --split train|test --seed S [--workers W]``: render a
synthetic dataset of labelled table frames (see docs/synth.md).

``dealer-assist synth --clip SCENARIO --out DIR``: render a scripted clip (a video, its per-frame
labels and its exact calibration) from a scenario YAML (docs/synth.md, "Sample clip")."""
from __future__ import annotations

import argparse
import sys
import time

from dealer_assist.commands import add_lang, h
from dealer_assist.errors import UserError
from dealer_assist.i18n import _, os_reason

#: the data recipes (``synth.dataset.RECIPES``; named here so that the command line needs no
#: renderer to start: tests/test_synth.py checks the two agree)
RECIPE_NAMES = ("base", "joker-rich", "fresh-pips", "fresh-pips-val", "world", "world-edge", "world-decoy",
                "world-aces", "world-courts", "fresh-fonts", "world-fonts", "fresh-warp", "world-warp", "fresh-bend", "world-bend")
#: the recipes that redraw training decks (``fresh_pips`` / ``fresh_fonts`` in ``RECIPES``): train split only
TRAIN_ONLY_RECIPES = ("fresh-pips", "fresh-pips-val", "fresh-fonts", "world-fonts", "fresh-warp", "world-warp",
                      "fresh-bend", "world-bend")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "synth",
        help=h(_("render a synthetic, labelled dataset of table frames for the card detector")),
        description=h(_("Render frames with seeds S .. S+N-1 into OUT/images/SPLIT, YOLO OBB labels into "
                        "OUT/labels/SPLIT, full JSON labels into OUT/meta/SPLIT and OUT/data.yaml. "
                        "Frames already there are kept (resumable). The test split uses only held-out "
                        "card designs; the unseen split only the validation decks, which neither training "
                        "nor the test split uses.")),
    )
    p.add_argument("out", metavar="OUT", nargs="?", help=h(_("dataset folder (or the clip's folder)")))
    p.add_argument("--n", type=int, help=h(_("number of frames (required for a dataset)")))
    p.add_argument("--split", choices=("train", "test", "unseen"), default="train")
    p.add_argument("--seed", type=int, default=0, help=h(_("first seed (frame i has seed S+i)")))
    p.add_argument("--workers", type=int, default=1, help=h(_("processes (default 1)")))
    p.add_argument("--recipe", choices=RECIPE_NAMES, default="base",
                   help=h(_("base; joker-rich: a joker in 9 frames of 10 (the look classifier's data); "
                            "fresh-pips: each frame's deck with a pip drawing of its own; fresh-pips-val: the "
                            "same from drawings fresh-pips never uses (validation), these two: train split; "
                            "world: the cards among photographic surfaces, clutter and close-ups; world-edge: "
                            "the same with cards cut by the frame's edge; world-decoy: with card-sized pictures "
                            "that are not cards; world-aces: with fancy aces of spades; world-courts: with open and "
                            "cartoon court art too; fresh-fonts, world-fonts: "
                            "indices in many typefaces, on tables or among photographs (docs/synth.md)")))
    p.add_argument("--quiet", action="store_true", help=h(_("no progress lines")))
    p.add_argument("--clip", metavar="SCENARIO",
                   help=h(_("render the scripted clip of this scenario YAML instead: "
                            "OUT/<video>, OUT/labels.jsonl and OUT/table.yaml")))
    p.add_argument("--out", dest="out_opt", metavar="DIR", help=h(_("output folder (same as OUT)")))
    add_lang(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.out and args.out_opt and args.out != args.out_opt:
        raise UserError(_("give the output folder once (OUT or --out)"))
    args.out = args.out or args.out_opt
    if not args.out:
        raise UserError(_("name the output folder (OUT or --out DIR)"))
    if args.clip:
        return run_clip(args)
    if args.n is None:
        raise UserError(_("--n is required (the number of frames to render)"))
    if args.n < 0:
        raise UserError(_("--n must be 0 or more"))
    if args.workers < 1:
        raise UserError(_("--workers must be 1 or more"))
    if args.seed < 0:
        raise UserError(_("--seed must be 0 or more"))
    if args.recipe in TRAIN_ONLY_RECIPES and args.split != "train":
        raise UserError(_("--recipe {recipe} redraws training decks: use it with --split train "
                          "(the test split's held-out decks are fixed)", recipe=args.recipe))
    from dealer_assist.vision.synth import write_dataset

    t0 = time.time()

    def progress(done: int, n: int) -> None:
        if not args.quiet:
            el = time.time() - t0
            print(_("synth: {done}/{n} frames, {s} s", done=done, n=n, s=f"{el:.0f}").render(args.lang),
                  file=sys.stderr, flush=True)

    try:
        written = write_dataset(args.out, args.n, args.split, seed0=args.seed, workers=args.workers,
                                progress=progress, recipe=args.recipe)
    except OSError as exc:
        raise UserError(_("cannot write to {path}: {why}", path=args.out, why=os_reason(exc))) from None
    el = time.time() - t0
    if written:
        summary = _("synth: {written} new frames ({old} already there) in {out} [{split}] in {s} s, {ms} ms per frame",
                 written=written, old=args.n - written, out=args.out, split=args.split, s=f"{el:.1f}",
                 ms=f"{el / written * 1000:.0f}")
    else:
        summary = _("synth: {written} new frames ({old} already there) in {out} [{split}] in {s} s",
                 written=written, old=args.n - written, out=args.out, split=args.split, s=f"{el:.1f}")
    print(summary.render(args.lang))
    return 0


def run_clip(args: argparse.Namespace) -> int:
    from dealer_assist.vision.synth.clip import load_scenario, write_clip

    t0 = time.time()
    sc = load_scenario(args.clip)

    def progress(done: int, n: int) -> None:
        if not args.quiet:
            print(_("synth: {done}/{n} frames, {s} s", done=done, n=n, s=f"{time.time() - t0:.0f}").render(args.lang),
                  file=sys.stderr, flush=True)

    try:
        info = write_clip(sc, args.out, progress=progress)
    except OSError as exc:
        raise UserError(_("cannot write to {path}: {why}", path=args.out, why=os_reason(exc))) from None
    print(_("synth: {frames} frames ({length} s at {fps} fps) -> {video} ({mb} MB), {labels}, {calibration} "
            "in {s} s", frames=info["frames"], length=f"{info['frames'] / sc.fps:.1f}", fps=f"{sc.fps:g}",
            video=info["video"], mb=f"{info['bytes'] / 1e6:.2f}", labels=info["labels"],
            calibration=info["calibration"], s=f"{time.time() - t0:.1f}").render(args.lang))
    return 0

"""Does each run-time rule of the card reader earn its place? (issue 20, item 4)

    .venv/bin/python benchmarks/eval_rules.py                          # the shipped models
    .venv/bin/python benchmarks/eval_rules.py --models DIR --json runs/rules.json
    .venv/bin/python benchmarks/eval_rules.py --only rescue,search --limit 100   # a quick look

Reads the real photos (``benchmarks/eval_real.py``'s yardstick, ``../shared/real/edje-train``)
and the three rendered validation sets of ``benchmarks/eval_detect.py`` (``val-train``,
``val-train2``, ``val-pips``; rendered when missing) once with every step of the reader's
pipeline (:data:`dealer_assist.vision.detector.STEPS`), then once without each optional step in
turn, and prints what each step is worth: on the real photos the cards named right and the wrong
names, backs and jokers reported; on the rendered frames the cards missed, the wrong names and
the frames not all right. A step whose removal costs nothing on any set has not earned its place.
The figures are counts of cards (not shares) so that a step moving three cards reads as three.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import eval_detect  # noqa: E402
import eval_real  # noqa: E402

from dealer_assist.vision.detector import OPTIONAL_STEPS, CardDetector, DetectorSettings  # noqa: E402

RENDERED = ("val-train", "val-train2", "val-pips")


def real_counts(det: CardDetector, folder: Path, limit: int | None) -> dict:
    r = eval_real.evaluate(det, folder, limit)
    return {"right": r["right_names"], "labels": r["labelled_cards"],
            "wrong": r["scored_names"] - r["right_names"], "backs": r["backs"], "jokers": r["jokers"],
            "recall": r["rank_recall"], "precision": r["rank_precision"], "right_not_sure": r["right_not_sure"],
            "wrong_sure": r["wrong_sure"], "median_ms": r["median_ms"]}


def rendered_counts(det: CardDetector, frame_set: str, limit: int | None) -> dict:
    folder, split, seed0, recipe = eval_detect.EVAL_SETS[frame_set]
    data = ROOT / "runs" / folder
    r = eval_detect.evaluate(det, data, split, limit or 300)
    cards = r["cards_counted"]
    named = r["precision"]
    wrong_names = sum(1 for f in r["failures"] if "extra" in f)
    return {"missed": round(cards * (1.0 - (r["recall"] or 0.0))), "cards": cards, "wrong": wrong_names,
            "frames_wrong": round(r["frames"] * (1.0 - (r["frames_all_correct"] or 0.0))),
            "recall": r["recall"], "precision": named, "joker_recall": r["joker_recall"],
            "right_not_sure": r["right_not_sure"], "wrong_sure": r["wrong_sure"], "median_ms": r["median_ms"]}


def measure(models: str, steps: tuple[str, ...], folder: Path, limit: int | None, sets: tuple[str, ...]) -> dict:
    det = CardDetector(models, settings=DetectorSettings(steps=steps))
    out = {"real": real_counts(det, folder, limit)}
    for s in sets:
        out[s] = rendered_counts(det, s, limit)
    return out


def row(name: str, m: dict, base: dict | None, sets: tuple[str, ...]) -> str:
    def d(now: int, was: int | None) -> str:
        return f"{now}" if was is None or now == was else f"{now} ({now - was:+d})"

    b = base or {}
    real, breal = m["real"], b.get("real", {})
    cells = [f"{name:<16}", f"real right {d(real['right'], breal.get('right'))}",
             f"wrong {d(real['wrong'], breal.get('wrong'))}", f"backs {d(real['backs'], breal.get('backs'))}",
             f"JK {d(real['jokers'], breal.get('jokers'))}"]
    for s in sets:
        r, br = m[s], b.get(s, {})
        cells.append(f"{s} missed {d(r['missed'], br.get('missed'))} wrong {d(r['wrong'], br.get('wrong'))}"
                     f" frames {d(r['frames_wrong'], br.get('frames_wrong'))}")
    return " | ".join(cells)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=str(ROOT / "models"))
    ap.add_argument("--dir", default=str(eval_real.DEFAULT_DIR), help="real photos with VOC .xml beside each")
    ap.add_argument("--limit", type=int, default=None, help="only the first N photos / frames of each set")
    ap.add_argument("--only", default=None, help="comma-separated steps to try without (default: every optional one)")
    ap.add_argument("--sets", default=",".join(RENDERED), help="rendered validation sets (comma-separated; '' for none)")
    ap.add_argument("--json", dest="json_out", default=None)
    args = ap.parse_args(argv)
    sets = tuple(s for s in args.sets.split(",") if s)
    unknown = [s for s in sets if s not in eval_detect.EVAL_SETS]
    if unknown:
        ap.error(f"unknown set(s): {', '.join(unknown)}")
    every = tuple(DetectorSettings().steps)
    todo = tuple(args.only.split(",")) if args.only else OPTIONAL_STEPS
    bad = [s for s in todo if s not in OPTIONAL_STEPS]
    if bad:
        ap.error(f"not an optional step: {', '.join(bad)} (optional: {', '.join(OPTIONAL_STEPS)})")
    t0 = time.time()
    from dealer_assist.vision.synth import write_dataset
    for s in sets:      # rendered before any model is loaded (a forked worker must not inherit its threads)
        folder_name, split, seed0, recipe = eval_detect.EVAL_SETS[s]
        write_dataset(ROOT / "runs" / folder_name, args.limit or 300, split, seed0=seed0, workers=2, recipe=recipe)
    folder = Path(args.dir)
    results = {"all steps": measure(args.models, every, folder, args.limit, sets)}
    print(row("all steps", results["all steps"], None, sets), flush=True)
    for step in todo:
        name = "without " + step
        results[name] = measure(args.models, tuple(s for s in every if s != step), folder, args.limit, sets)
        print(row(name, results[name], results["all steps"], sets), flush=True)
    print(f"({time.time() - t0:.0f} s; models {args.models}; steps {', '.join(every)})")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The ``sure`` threshold of the card reader (issue 20, item 3): chosen on the validation sets so
that no wrong name there is sure, and measured on the real photos.

    .venv/bin/python benchmarks/eval_sure.py                  # measure, print the threshold
    .venv/bin/python benchmarks/eval_sure.py --write          # ... and record it in models.json
    .venv/bin/python benchmarks/eval_sure.py --limit 30       # a quick look (not for --write)

Every named card (``??`` is no name) of the rendered validation sets of
``benchmarks/eval_detect.py`` (``val-train``, ``val-train2``, ``val-pips``, ``val-world``, 300
frames each, and ``val-base-more``, ``val-world-more``, ``val-pips-more``, 1,500, 1,500 and 600:
frames of the TRAIN styles that no training frame uses, the ``world`` ones among photographs,
clutter, close-ups and washed-out light; and ``val-unseen``, ``val-unseen-world``, 600 and 300
frames of the ``unseen`` split's decks, whose typefaces, pips, court art, jokers and backs no
training and no test deck uses; rendered into ``runs/`` when missing) is read with
:meth:`CardDetector.detect` and its ``sureness`` kept (the posterior of its name times the whole
card's look agreeing (:func:`detector.look_agreement`), times the layout's where the folder
has the layout model, times a court card's suit as the court-suit reader sees it where the
folder has that model,
:meth:`CardDetector.sureness`), with whether the name is right: it sits on
a labelled card of that name (``eval_detect.match``; a name on nothing, on a back or on another
card is wrong, as its precision counts). The threshold is the smallest multiple of 0.001 above
the surest wrong name of those sets: with it no wrong name there is sure. A card whose outline is
blurred past the reader's limit (``"blurred"``: ``detector.DetectorSettings.blur_limit``, a lens out
of focus or a camera in motion) is never sure whatever its sureness: it sets no threshold, and a
right one counts as not sure. Court cards and jokers
each have their own, chosen the same way on their own wrong names (``detector.SURE_KINDS``):
their wrong names are far surer than those of 2 to 10 and aces. A court card showing one index
corner (the other under another card or out of the frame: ``covered_court``) has its own too:
the court-suit reader checks one end of it, and both ends of a court showing both corners, so
their wrong names reach different heights. The share of right names NOT
sure at those thresholds is reported per set (the issue's target: at most 10 %). The ``check-*``
sets (1,500 frames each) are never chosen on: their sure wrong names say whether the thresholds
hold on frames they were not chosen on. The held-out decks' 300 frames (:data:`HELD_OUT`,
``eval_detect.py --set test``), at their own size and seen far as a calibrated camera sees them,
are measured only too. The training decks' sets alone chose thresholds that did not hold on decks
the reader has never seen (a small black card's wrong suit was sure on the held-out decks), so the
unseen decks' sets are chosen on as well, and the held-out decks stay the measure of that.

A card under ``detector.SURE_MIN_SIDE`` (60) pixels, its outline's short side, has a threshold
of its own: the four sets' cards are 57 pixels wide and more, and seen from farther away
smaller cards showed surer wrong names (club/spade confusions). It is chosen the same way on
the small cards of the validation sets, of the four 300-frame sets and the two unseen decks' sets
seen from farther away (:data:`FAR`: ``eval_detect.far_view``, each frame shrunk into a 1920x1080
frame and read with the zoom as an uncalibrated camera's), and of all nine validation sets seen so
and read as a calibrated
camera's frames are (``told``: the card size and the part of the frame the cards lie in,
``eval_detect.told_far``; the live product reads a far camera so). The check and held-out sets seen so
are measured only. The main threshold is chosen on the cards of 60 pixels and more.
``--no-far`` leaves the far sets out (most of the run; no threshold for small cards).

The real photos (``../shared/real/edje-train``, ``benchmarks/eval_real.py``: whole names, their
suits read by eye in ``benchmarks/real_suits/``) are
MEASURED, never used to choose: the same threshold's sure wrong names (a name whose rank or suit is
not the labelled card's, a ``JK``, or a 9-A name on no labelled card, as that scorer counts them) and
its right names not sure. Known label faults of that folder count as wrong there (its README:
IMG_2396's ten of diamonds is labelled ``nine``).

``--write`` records the threshold in ``models/models.json`` (``"sure"``) with the figures, the
command and the checksums of the models measured: the detector uses it only for those
very models (a new model must be measured again; until then no card is sure).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

RENDERED = ("val-train", "val-train2", "val-pips", "val-world")
#: More validation frames (1,500, 1,500 and 600: ``eval_detect.EVAL_FRAMES``) the thresholds are
#: chosen on too: the four 300-frame sets alone set thresholds that let wrong court names through
#: on these frames (models/MODEL_CARD.md, "Twenty-fourth session")
MORE = ("val-base-more", "val-world-more", "val-pips-more")
#: Frames of decks the reader never met (``eval_detect``'s ``val-unseen`` sets, the ``unseen``
#: split: typefaces, pips, court art, jokers and backs of no training and no test deck), chosen on
#: like the others: a threshold chosen on the training decks alone let a small black card's wrong
#: suit be sure on the held-out decks (models/MODEL_CARD.md, "Forty-fourth session")
UNSEEN = ("val-unseen", "val-unseen-world")
#: Frames never chosen on: how many wrong names they show sure at the thresholds chosen on the
#: others says whether the thresholds hold on new frames
CHECK = ("check-base", "check-world")
#: Frames of the held-out decks (``eval_detect``'s ``test`` split: deck styles, typefaces, jokers
#: and backs no training or validation frame uses, as a real deck's are), never chosen on: the
#: validation and check sets are all of the training styles, and a threshold that holds there
#: may not hold on decks the reader has never seen (models/MODEL_CARD.md, "Forty-second session")
HELD_OUT = ("test",)
#: Every rendered set read (seen from farther away: :data:`RENDERED` as an uncalibrated camera's
#: frames, all of them as a calibrated camera's)
READ = RENDERED + MORE + UNSEEN + CHECK + HELD_OUT
#: How much farther away the sets are seen (``eval_detect.far_view``: shrunk by these into a
#: 1920x1080 frame), where the cards under ``detector.SURE_MIN_SIDE`` pixels get their own
#: threshold
FAR = (0.5, 0.35)


def choose(wrong: list[float], step: float = 0.001) -> float:
    """The smallest multiple of ``step`` above every sureness of ``wrong`` (so none of them is
    sure at ``>= threshold``); ``step`` when there is none.

    >>> choose([0.5, 0.92695]), choose([]), choose([0.927])
    (0.927, 0.001, 0.928)
    """
    top = max(wrong, default=0.0)
    return round((math.floor(top / step + 1e-9) + 1) * step, 6)


def shares(rows: list[tuple[float, bool]], threshold: float) -> dict:
    """Right names not sure and wrong names sure at ``threshold`` of ``(sureness, right)`` rows;
    a row ``(sureness, right, threshold)`` is judged at its own threshold (a small card's).

    >>> shares([(0.99, True), (0.5, True), (0.95, False), (0.2, False)], 0.9)
    {'names': 4, 'right': 2, 'wrong': 2, 'right_not_sure': 1, 'right_not_sure_share': 0.5, 'wrong_sure': 1}
    >>> shares([(0.99, True, 1.0), (0.95, False, 0.96)], 0.9)["right_not_sure"], shares([(0.95, False, 0.96)], 0.9)["wrong_sure"]
    (1, 0)
    """
    judged = [(r[0], r[1], r[2] if len(r) > 2 else threshold) for r in rows]
    right = [(s, t) for s, ok, t in judged if ok]
    wrong = [(s, t) for s, ok, t in judged if not ok]
    rns = sum(1 for s, t in right if s < t)
    return {"names": len(rows), "right": len(right), "wrong": len(wrong), "right_not_sure": rns,
            "right_not_sure_share": round(rns / len(right), 4) if right else None,
            "wrong_sure": sum(1 for s, t in wrong if s >= t)}


def rendered_rows(det, frame_set: str, limit: int | None, far: float | None = None,
                  told: bool = False) -> list[dict]:
    """``{"frame", "card", "on", "sureness", "right", "side", "small", "kind"}`` per named card of a rendered set
    (``far``: each frame seen from farther away, ``eval_detect.far_view``, and with ``told`` read
    as a calibrated camera's frame: told the card size and the part the cards lie in,
    ``eval_detect.told_far``); ``side``: its outline's short side, pixels; ``small``: it is under
    ``detector.SURE_MIN_SIDE`` pixels."""
    import eval_detect as ED
    from dealer_assist.vision.detector import SURE_MIN_SIDE, read_image
    from dealer_assist.vision.geometry import card_width

    folder, split, seed0, recipe = ED.EVAL_SETS[frame_set]
    data = ROOT / "runs" / folder
    out = []
    for mp in sorted((data / "meta" / split).glob("*.json"))[:limit]:
        meta = json.loads(mp.read_text(encoding="utf-8"))
        image = read_image(data / "images" / split / meta["image"])
        if far is not None:
            shape = image.shape[:2]
            image, meta = ED.far_view(image, meta, far)
            det.expect_card_side(*(ED.told_far(meta, shape, far) if told else (None, None)))
        res = det.detect(image, sureness=True)
        labels = meta["cards"]
        m = ED.match(res["cards"], labels)
        for i, c in enumerate(res["cards"]):
            if c["card"] == "??":
                continue
            j = m.get(i)
            on = labels[j]["card"] if j is not None else None
            side = card_width(c["polygon"])
            out.append({"frame": meta["image"], "card": c["card"], "on": on,
                        "sureness": c["sureness"], "right": on == c["card"],
                        "side": round(side, 1), "small": side < SURE_MIN_SIDE, "kind": c["sure_kind"],
                        "blur": c.get("blur"), "blurred": bool(c.get("blurred"))})
    det.expect_card_side(None)      # the next set is read as an uncalibrated camera's again
    return out


def real_rows(det, folder: Path, limit: int | None) -> list[dict]:
    """The same for the real photos, scored as ``eval_real.score_photo`` scores names: by the
    whole name where the folder's suits are read (``benchmarks/real_suits/``; a right rank of the
    wrong suit is wrong), else by rank."""
    import eval_real as ER
    from dealer_assist.vision.detector import SURE_MIN_SIDE, read_image
    from dealer_assist.vision.geometry import card_width

    suits_file = ER.SUITS_DIR / f"{folder.name}.json"
    suits = ER.read_suits(suits_file) if suits_file.is_file() else {}
    out = []
    for img, xml in ER.photos(folder)[:limit]:
        labels = ER.with_suits(ER.read_labels(xml, img), suits.get(img.stem), img.stem)
        res = det.detect(read_image(img), sureness=True)
        m = ER.match(res["cards"], labels, 0.5, ER.NESTED)
        for i, c in enumerate(res["cards"]):
            r, j = ER.rank_of(c["card"]), m.get(i)
            if r == ER.UNKNOWN or not (r in ER.LABELLED or r == ER.JOKER or j is not None):
                continue
            on = labels[j]["rank"] + (labels[j].get("suit") or "") if j is not None else None
            right = j is not None and labels[j]["rank"] == r and labels[j].get("suit") in (None, c["card"][-1])
            side = card_width(c["polygon"])
            out.append({"frame": img.name, "card": c["card"], "on": on, "sureness": c["sureness"],
                        "right": right, "side": round(side, 1), "small": side < SURE_MIN_SIDE,
                        "kind": c["sure_kind"], "blur": c.get("blur"), "blurred": bool(c.get("blurred"))})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=str(ROOT / "models"))
    ap.add_argument("--real", default=None, help="labelled real photos (default: eval_real's folder)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N frames / photos of each set")
    ap.add_argument("--write", action="store_true", help="record the threshold in MODELS/models.json")
    ap.add_argument("--json", dest="json_out", default=None, help="also write every named card's row here")
    ap.add_argument("--no-far", dest="far", action="store_false",
                    help="leave out the sets seen from farther away (no threshold for small cards; quicker)")
    args = ap.parse_args(argv)
    if args.write and (args.limit is not None or not args.far):
        ap.error("--write needs every frame of every set: leave out --limit and --no-far")
    import eval_real as ER
    from dealer_assist.vision.detector import (META_FILE, SURE_KEY, SURE_KINDS, SURE_MIN_SIDE, SURE_SCORE,
                                               CardDetector, model_checksums)

    import eval_detect as ED
    from dealer_assist.vision.synth import write_dataset

    for s in READ:   # rendered where missing, before ONNX Runtime starts its threads
        folder, split, seed0, recipe = ED.EVAL_SETS[s]
        write_dataset(ROOT / "runs" / folder, ED.EVAL_FRAMES.get(s, 300), split, seed0=seed0, workers=2, recipe=recipe)
    det = CardDetector(args.models)
    if det.look is None:
        print("the look model is missing: no card can be sure without it", file=sys.stderr)
        return 2
    t0 = time.time()
    rows = {s: rendered_rows(det, s, args.limit) for s in READ}
    far_sets = []
    for f in (FAR if args.far else ()):
        for s in RENDERED + UNSEEN:
            far_sets.append(f"{s} far {f}")
            rows[far_sets[-1]] = rendered_rows(det, s, args.limit, far=f)
        for s in READ:                                 # as a calibrated camera reads them (the live product)
            if s not in CHECK + HELD_OUT:               # the check and held-out sets are measured only
                far_sets.append(f"{s} far {f} told")
            rows[f"{s} far {f} told"] = rendered_rows(det, s, args.limit, far=f, told=True)
    real = Path(args.real) if args.real else ER.DEFAULT_DIR
    if real.is_dir() and ER.photos(real):
        rows["real"] = real_rows(det, real, args.limit)
    else:
        print(f"no labelled real photos in {real}: measured on the rendered sets only", file=sys.stderr)
    validation = RENDERED + MORE + UNSEEN
    chosen_on = list(validation) + far_sets
    def wrong(r: dict) -> bool:
        """A wrong name that a threshold must stay above: not one on a card blurred past the
        reader's limit (detector.DetectorSettings.blur_limit), which is never sure, whatever its
        sureness."""
        return not r["right"] and not r.get("blurred")

    large = [r for s in validation for r in rows[s] if wrong(r) and not r["small"]]
    threshold = choose([r["sureness"] for r in large if r["kind"] is None])
    kinds = {k: choose([r["sureness"] for r in large if r["kind"] == k]) for k in SURE_KINDS}
    small = choose([r["sureness"] for s in chosen_on for r in rows[s] if wrong(r) and r["small"]]) \
        if args.far else None

    def judged(r: dict) -> tuple:
        """(sureness, right, the threshold this card is judged at)"""
        t = (small if small is not None else 2.0) if r["small"] else kinds.get(r["kind"], threshold)
        return r["sureness"], r["right"], 2.0 if r.get("blurred") else t

    figures = {s: shares([judged(r) for r in rs], threshold) for s, rs in rows.items()}
    kind_figures = {k: shares([judged(r) for s in validation for r in rows[s] if not r["small"] and r["kind"] == k],
                              threshold) for k in (None,) + SURE_KINDS}
    print(f"threshold {threshold} (2 to 10 and aces), court cards {kinds['court']} (one index corner in view "
          f"{kinds['covered_court']}), jokers {kinds['joker']} "
          f"(chosen on {', '.join(validation)}: above their surest wrong name of that kind of a card "
          f"{SURE_MIN_SIDE:.0f} pixels wide or more; {time.time() - t0:.0f} s)")
    for k, f in kind_figures.items():
        print(f"{k or 'number':>11}: {f['right']} right names of 60 px and more on the validation sets, "
              f"{f['right_not_sure']} not sure ({f['right_not_sure_share']}); {f['wrong']} wrong, sure {f['wrong_sure']}")
    if "real" in rows:     # the rates benchmarks/bench_doubt.py takes for the real photos
        cells = []
        for name, ks in (("2 to 10 and aces", (None,)), ("courts", ("court", "covered_court")), ("jokers", ("joker",))):
            f = shares([judged(r) for r in rows["real"] if r["kind"] in ks], threshold)
            if f["right"]:
                cells.append(f"{name} {f['right_not_sure']} of {f['right']} ({f['right_not_sure_share']})")
        print("real photos, right names not sure by kind (every size): " + ", ".join(cells))
    if small is not None:
        print(f"threshold of cards under {SURE_MIN_SIDE:.0f} pixels {small} (chosen on the same sets, on "
              f"{', '.join(RENDERED + UNSEEN)} seen from farther away (far {', '.join(map(str, FAR))}), and on all "
              f"{len(validation)} seen so and read as a calibrated camera reads them ('told'): above their surest wrong "
              f"name of such a card; the check and held-out sets seen so are measured only)")
    for s, f in figures.items():
        print(f"{s:>11}: {f['names']} names, {f['wrong']} wrong; sure wrong {f['wrong_sure']}; right not sure "
              f"{f['right_not_sure']} of {f['right']} ({f['right_not_sure_share']})")
    for s, rs in rows.items():
        worst = sorted(filter(wrong, rs), key=lambda r: -r["sureness"])[:3]
        print(f"{s:>11}: surest wrong names: " + ", ".join(
            f"{r['card']} on {r['on'] or 'nothing'} {r['sureness']:.4f}{' (%.0f px)' % r['side'] if r['small'] else ''} "
            f"({r['frame']}{', blur %.3f' % r['blur'] if r.get('blur') is not None else ''})" for r in worst))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    if args.write:
        path = Path(args.models) / META_FILE
        meta = json.loads(path.read_text(encoding="utf-8"))
        meta[SURE_KEY] = {
            "threshold": threshold,
            "court": {"threshold": kinds["court"], "right_not_sure_share": kind_figures["court"]["right_not_sure_share"],
                      "chosen": "as the threshold, on the wrong names of jacks, queens and kings"},
            "covered_court": {"threshold": kinds["covered_court"],
                              "right_not_sure_share": kind_figures["covered_court"]["right_not_sure_share"],
                              "chosen": "as the threshold, on the wrong names of jacks, queens and kings showing one "
                                        "index corner (detector._one_corner); 'court' is then those showing both"},
            "joker": {"threshold": kinds["joker"], "right_not_sure_share": kind_figures["joker"]["right_not_sure_share"],
                      "chosen": "as the threshold, on the wrong names JK"},
            "score_id": SURE_SCORE,
            "score": "posterior of the name x the look's agreement (its P(face), P(joker) for JK, over its "
                     "likeliest kind's probability, x its share for the named suit: detector.look_agreement)"
                     + (" x the layout's agreement (P_layout(name) / P_layout(its most likely class), from the "
                        "pips with the indices hidden; for a 2 to 10 or an ace its rank in its colour, the two suits "
                        "of a colour together, and with one index corner in view the best of its count and the "
                        "same colour's counts one pip either way, and with both in view as the box's own corners read "
                        "them a count of 2 to 10 seen less than layout.LAYOUT_SEES agreeing not at all: "
                        "layout.number_agreement; for a court card its colour's two court classes "
                        "together: layout.court_agreement)" if det.layout is not None else "")
                     + (" x for a jack, queen or king the court-suit reader's probability of its suit at the "
                        "worse of its two ends whose index is in view (the one in view, the better where neither is: "
                        "court_suit.end_agreement), the look's suit share then left out, on a card under 60 px "
                        "not half under another taken to the power detector.COURT_LOOK_SUIT" if det.court_suit is not None else "")
                     + "; 0 for a JK whose corners show no joker index and for a name that the search's moved "
                       "crops alone read, at one index corner only (steps.named_by_search_alone): "
                       "CardDetector.sureness; a card under "
                       f"{SURE_MIN_SIDE:.0f} pixels is judged at the 'small' threshold",
            "chosen": "the smallest multiple of 0.001 above the surest wrong name 2 to 10 or A of a card "
                      f"{SURE_MIN_SIDE:.0f} pixels wide or more of the rendered validation "
                      "sets " + ", ".join(validation) + " (" + ", ".join(str(ED.EVAL_FRAMES.get(s, 300)) for s in validation)
                      + " frames); court cards and jokers have their own ('court' for those showing both index corners, "
                      "'covered_court' for those showing one, 'joker'); the sets "
                      + ", ".join(CHECK + HELD_OUT) + " and the real photos are measured only; a card blurred past "
                      "the reader's limit (detector.DetectorSettings.blur_limit, "
                      f"{det.settings.blur_limit}) is never sure and sets none",
            "small": {
                "threshold": small,
                "below_px": SURE_MIN_SIDE,
                "chosen": f"the smallest multiple of 0.001 above the surest wrong name of a card under "
                          f"{SURE_MIN_SIDE:.0f} pixels (its outline's short side) of the same sets, of "
                          f"{', '.join(RENDERED + UNSEEN)} seen from farther away (eval_detect.far_view: shrunk by "
                          f"{' and '.join(map(str, FAR))} into a 1920x1080 frame, read with the zoom), and of all "
                          f"{len(validation)} seen so and read as a calibrated "
                          "camera's frames (told the card size and the part the cards lie in: eval_detect.told_far); "
                          "the check and held-out sets seen so are measured only",
            },
            "figures": figures,
            "command": "benchmarks/eval_sure.py --write",
            "date": dt.date.today().isoformat(),
            "models": model_checksums(args.models),
        }
        path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        print(f"recorded in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

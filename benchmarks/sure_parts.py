"""What the ``sure`` score is made of, and other ways of making it (issue 20, item 3): measured,
not chosen here.

    .venv/bin/python benchmarks/sure_parts.py                 # the four validation sets + real photos
    .venv/bin/python benchmarks/sure_parts.py --limit 40      # a quick look

Every named card of the validation sets that ``benchmarks/eval_sure.py`` chooses the threshold on
(and of the real photos, measured only) is read once, keeping the parts of its sureness: the
posterior of its name ``p`` (corners, detector scores, the look's suit term), the look's
P(face), the named suit's share and P(joker), and the layout's (:mod:`dealer_assist.vision.layout`,
the card's pips with its indices hidden) agreement and plain probability of the name; and the
sureness the reader reports (:meth:`CardDetector.sureness_parts`). It prints the parts' quantiles
on right names per set, then for each way of combining them the threshold chosen as ``eval_sure.py`` chooses it (the
smallest multiple of 0.001 above the surest wrong name of the validation sets) and the share of
right names not sure at it per set, with the surest wrong names.

The combinations: the shipped product ``p x kind agreement x suit share x layout agreement``
(the kind agreement is the look's P(face), P(joker) for ``JK``, over its likeliest kind's
probability: ``detector.look_agreement``; ``JK``: 0 with no joker index in view; the layout's
agreement is P_layout(name) / P_layout(its top class), a court card's by colour:
``layout.court_agreement``), the thirteenth session's product with the
look's plain P(face) (``p x P(face) x suit x layout agreement``),
the same without the layout (``p x look``, shipped until the thirteenth session) or with the
layout's plain probability of the name, ``p x suit share``, ``p x sqrt(look agreement)``, and
``p`` gated by the look naming the suit.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

VAL = ("val-train", "val-train2", "val-pips", "val-world")


def parts_detector(det):
    """``det.detect`` that gives each named card's sureness parts (a dict) as its ``sureness``."""
    from dealer_assist.cards import Card
    from dealer_assist.vision.look import kinds, look_patch, suits

    def detect(image, sureness=False):
        cards = det._detect(image)["cards"]
        todo = [k for k, c in enumerate(cards) if c["card"] != "??"]
        patches = {k: look_patch(image, cards[k]["_outline"]) for k in todo}
        probs = dict(zip(todo, det.look(np.stack([patches[k] for k in todo])))) if todo else {}
        names = [c["card"] for c in cards]
        shipped = det.sureness_parts(image, cards)       # what the reader reports, rules included
        named = {}
        if det.layout is not None and todo:              # the layout's plain P(name), for comparison
            from dealer_assist.vision.layout import hide_indices, layout_class
            lp = det.layout(hide_indices(np.stack([patches[k] for k in todo])))
            for j, k in enumerate(todo):
                c = layout_class(cards[k]["card"])      # a 44-class model has no word on a joker
                named[k] = float(lp[j, c]) if c < lp.shape[1] else 1.0
        out = []
        for k, c in enumerate(cards):
            part = None
            if k in probs:
                kd, su = kinds(probs[k][None])[0], suits(probs[k][None])[0]
                part = {"p": float(c.get("_p", 0.0)), "face": float(kd[0]), "joker": float(kd[1]),
                        "dup": c["card"] != "JK" and names.count(c["card"]) > 1,
                        "shipped": shipped[k]["sureness"], "layout": shipped[k]["layout"]}
                if c["card"] != "JK":
                    i = Card.parse(c["card"]).index % 4
                    part["suit"], part["suit_top"] = float(su[i]), bool(su.argmax() == i)
                if k in named:
                    part["layout_named"] = named[k]
            out.append({"card": c["card"], "confidence": c["confidence"], "center": c["center"],
                        "polygon": c["polygon"], "sureness": part})
        return {"cards": out, "backs": []}
    return detect


def combine(kind: str, row: dict) -> float:
    """One way of making a name's sureness from its parts.

    >>> r = {"card": "7h", "sureness": {"p": 0.9, "face": 0.8, "suit": 0.5, "suit_top": True, "joker": 0.0,
    ...      "dup": False, "shipped": 0.18, "layout": 0.5, "layout_named": 0.3}}
    >>> round(combine("p x look", r), 3), round(combine("shipped", r), 3), round(combine("p x suit", r), 3)
    (0.36, 0.18, 0.45)
    >>> combine("p, look names the suit", r), round(combine("p x look x P_layout(name)", r), 3)
    (0.9, 0.108)
    >>> round(combine("p x P(face) x suit x layout agreement", r), 3)
    0.18
    """
    x, card = row["sureness"], row["card"]
    if x is None or x["dup"]:
        return 0.0
    agree = x["joker"] if card == "JK" else x["face"] * x["suit"]
    if kind == "p x look":
        return x["p"] * agree
    if kind == "shipped":                     # CardDetector.sureness itself
        return x["shipped"]
    if kind == "p x P(face) x suit x layout agreement":   # shipped in the thirteenth session
        # a JK the reader gives 0 is one named by its picture alone: 0 under this score too
        return 0.0 if card == "JK" and x["shipped"] == 0.0 else x["p"] * agree * x["layout"]
    if kind == "p x look x P_layout(name)":
        return x["p"] * agree * x.get("layout_named", 1.0)
    if kind == "p x suit":
        return x["p"] * (x["joker"] if card == "JK" else x["suit"])
    if kind == "p x sqrt(agreement)":
        return x["p"] * math.sqrt(agree)
    if kind == "p, look names the suit":
        return x["p"] if ((x["joker"] >= 0.5) if card == "JK" else x["suit_top"]) else 0.0
    raise KeyError(kind)


KINDS = ("shipped", "p x P(face) x suit x layout agreement", "p x look", "p x look x P_layout(name)", "p x suit",
         "p x sqrt(agreement)", "p, look names the suit")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default=str(ROOT / "models"))
    ap.add_argument("--limit", type=int, default=None, help="only the first N frames / photos of each set")
    args = ap.parse_args(argv)
    import eval_real as ER
    import eval_sure as ES
    from dealer_assist.vision.detector import CardDetector

    det = CardDetector(args.models)
    det.detect = parts_detector(det)
    rows = {s: ES.rendered_rows(det, s, args.limit) for s in VAL}
    rows["real"] = ES.real_rows(det, ER.DEFAULT_DIR, args.limit)
    print("parts on right names (10th percentile / median):")
    for s, rs in rows.items():
        ok = [r["sureness"] for r in rs if r["right"] and r["sureness"] and r["card"] != "JK"]
        q = {k: np.quantile([x.get(k, 1.0) for x in ok], [0.1, 0.5]) for k in ("p", "face", "suit", "layout")}
        print(f"  {s:10s} posterior {q['p'][0]:.3f} / {q['p'][1]:.3f}   P(face) {q['face'][0]:.3f} / "
              f"{q['face'][1]:.3f}   suit share {q['suit'][0]:.3f} / {q['suit'][1]:.3f}   "
              f"layout agreement {q['layout'][0]:.3f} / {q['layout'][1]:.3f}")
    for kind in KINDS:
        wrong = [(combine(kind, r), s, r) for s in VAL for r in rows[s] if not r["right"]]
        t = min(1.0, ES.choose([w for w, _, _ in wrong]))
        cells = []
        for s, rs in rows.items():
            right = [combine(kind, r) for r in rs if r["right"]]
            ws = sum(1 for r in rs if not r["right"] and combine(kind, r) >= t)
            cells.append(f"{s} {np.mean([v < t for v in right]):.3f}" + (f" ({ws} wrong sure)" if ws else ""))
        print(f"{kind}: threshold {t:.3f}; right names not sure: " + ", ".join(cells))
        top = sorted(wrong, key=lambda w: -w[0])[:3]
        print("    surest wrong: " + ", ".join(f"{r['card']} on {r['on']} {w:.4f} ({s})" for w, s, r in top))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Synthetic card and table-scene generator: training and test data for the card detector.

The project draws every card itself (fonts from the DejaVu family and OpenCV's Hershey set, its
own stroke glyphs and polygon pips, procedural court art); no third-party card art is used.

>>> from dealer_assist.vision.synth import render_scene, render_card, DECK_STYLES
>>> render_card("As", next(iter(DECK_STYLES)), 63).shape
(88, 63, 4)
"""
from dealer_assist.vision.synth.dataset import write_dataset, yolo_lines
from dealer_assist.vision.synth.faces import render_card
from dealer_assist.vision.synth.scene import render_scene
from dealer_assist.vision.synth.styles import BACK_STYLES, DECK_STYLES, JOKER_STYLES, styles_for

__all__ = ["render_scene", "write_dataset", "render_card", "yolo_lines", "DECK_STYLES",
           "JOKER_STYLES", "BACK_STYLES", "styles_for"]

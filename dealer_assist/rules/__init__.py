"""The rules engine: pure Python, no OpenCV, no Qt, no I/O.

It turns cards and chips into rulings.  ``tests/test_purity.py`` keeps it so:
nothing under ``dealer_assist.rules`` may import cv2, PySide6, onnxruntime,
sqlite3 or touch files.
"""

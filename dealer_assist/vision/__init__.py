"""Card recognition: YOLO oriented boxes, a corner-index classifier and a whole-card look.

The runtime (``detector.py``, ``classifier.py``, ``look.py``) needs only numpy, OpenCV and ONNX
Runtime; training and export (``train.py``, ``train_look.py``, ``export.py``) need the
``[train]`` extra (ultralytics, torch).
"""

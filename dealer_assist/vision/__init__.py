"""Card recognition: two-stage detector (YOLO oriented boxes + corner-index classifier).

The runtime (``detector.py``) needs only numpy, OpenCV and ONNX Runtime; training and export
(``train.py``, ``export.py``) need the ``[train]`` extra (ultralytics, torch).
"""

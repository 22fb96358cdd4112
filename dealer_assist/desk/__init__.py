"""The desk display (PySide6): the dealer's screen for live play, corrections and disputes.

* :mod:`~dealer_assist.desk.view` (no Qt): what the screen shows, from the live table's events and
  state, in Japanese or English;
* :mod:`~dealer_assist.desk.session` (no Qt): the pipeline driven a frame at a time, and the
  dealer's corrections;
* :mod:`~dealer_assist.desk.widgets`, :mod:`~dealer_assist.desk.window` and
  :mod:`~dealer_assist.desk.dispute`: the Qt screens (they show and send, they never decide).
"""

"""The live table: frame sources, calibration, tracking, the Joker NLH hand flow and the hand log."""

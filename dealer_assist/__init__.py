"""dealer-assist: a live dealer assistant for casino-event card tables."""

__version__ = "0.1.0"

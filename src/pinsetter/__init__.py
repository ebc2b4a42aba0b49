"""pinsetter: play and solve four bowling-themed tabletop games."""

__version__ = "0.1.0"

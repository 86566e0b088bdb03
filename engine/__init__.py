"""Ferrovia: an 18xx engine whose games are declared as data."""

__version__ = "0.1.0"

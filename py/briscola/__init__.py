"""Briscola: the engine, the rules of every variant, and the computer players."""
__version__ = "0.1.0"

"""scopa: score sheet, rules engine and command line for Scopa and its family."""

__version__ = "0.1.0"

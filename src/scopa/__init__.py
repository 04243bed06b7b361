"""scopa: score sheet, rules engine and command line for Scopa and its family."""

__version__ = "0.1.0"
"""The release: the package's version (pyproject.toml reads it from here), ``scopa --version``
and CHANGELOG.md's newest heading."""

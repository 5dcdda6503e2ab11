"""The tool's version (kept apart so that every layer can name it without importing the public API)."""

__version__ = "0.1.0"

"""hookmsg: the content build pipeline for AI-assistant hook messages."""

__version__ = "0.1.0"

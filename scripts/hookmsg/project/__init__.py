"""The project's settings: `pyproject.toml` found, `[tool.hookmsg]` checked and typed."""

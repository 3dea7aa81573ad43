"""Plain helpers that the test modules share; the fixtures stay in `tests/conftest.py`.

Imported as `tests.support.<module>`: `pythonpath = ["."]` (pyproject.toml) puts the
repository root on `sys.path`, so this works in pytest's default import mode, in
`--import-mode=importlib` and from any working directory.

- `repository`: this checkout (`REPO`), copies of it, and snapshots of a tree's files;
- `text`: small edits of files and strings;
- `message`: a minimal valid message, to break one thing at a time;
- `diagnostics`: a CLI run's `Result` and the suite's one parser of diagnostic lines;
- `doit`: `python -m doit` in a copy of the repository, and what it reports;
- `overlap`: proof that processes which a test runs "at once" really overlapped;
- `dispatch`, `guards`: the dispatcher's install root and runs, the guards' calls.
"""

"""Shared logic of `install`, `verify` and `uninstall` (the commands live in `cli/commands/`)."""

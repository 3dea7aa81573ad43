"""Harnesses: the built-in facts and overrides, what each registers, how it is delivered."""

"""Renderers: pure functions from the loaded sources to the text of each output."""

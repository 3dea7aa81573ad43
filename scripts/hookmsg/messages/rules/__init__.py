"""The message rules, one module per family; `family` runs them over one message."""

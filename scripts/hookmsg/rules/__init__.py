"""Every finding of every family, one module per family; none renders or writes.

Kept empty on purpose: `rules.settings` is imported by `dodo.py` on every `doit`, so
importing the package must cost nothing. The table of the families run over a loaded
project is `rules.families.FAMILIES`.
"""

"""The catalogue's rules, one module per family, beside the models they judge."""

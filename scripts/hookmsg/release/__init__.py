"""A release: the reproducible archive of an install root and its content version."""

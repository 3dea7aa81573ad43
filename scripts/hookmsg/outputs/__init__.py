"""The generated folder: the declaration of every output, writing and drift, the check cache."""

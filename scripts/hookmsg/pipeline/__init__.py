"""Load the sources once, run every rule family, build the one loaded project."""

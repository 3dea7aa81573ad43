"""The sections of `scripts/bench.py`: the build side, the dispatcher, what they share."""

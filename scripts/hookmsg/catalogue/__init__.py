"""The catalogue: its models and their reading (hooks, guards, skills, harness facts) and rules."""

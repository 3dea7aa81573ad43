"""What a run reads: the memo, the source folders, bytes to text, paths, doit's state file."""

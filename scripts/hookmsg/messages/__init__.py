"""Messages: one parse of a message file, its Advisory template, its rules (`rules/`)."""

"""One module per subcommand; each command function returns an exit code."""

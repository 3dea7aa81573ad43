"""The command line, the doit task graph and one module per subcommand (`commands/`)."""

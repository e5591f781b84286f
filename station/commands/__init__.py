"""One module per ``station`` subcommand group; each has ``register(subparsers)``."""

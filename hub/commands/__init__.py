"""One module per ``hub`` subcommand group; each has ``register(subparsers)``."""

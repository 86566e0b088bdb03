"""Subcommands of ``ferrovia``: one module each, with ``register(subparsers)``.

A command module calls ``subparsers.add_parser(...)`` and sets ``func`` via
``parser.set_defaults(func=run)`` where ``run(args) -> int`` returns the exit code.
"""

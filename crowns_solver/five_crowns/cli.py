"""``crowns five-crowns ...`` subcommands."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    """Declare the ``five-crowns`` subcommands."""
    from .melds_cli import register as register_melds

    register_melds(commands)

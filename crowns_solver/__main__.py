"""``python -m crowns_solver`` runs the ``crowns`` command."""

import sys

from .cli import main

sys.exit(main())

"""``python -m ferrovia`` is the ``ferrovia`` command."""

from ferrovia.cli import main

raise SystemExit(main())

"""``python -m engine`` is the ``ferrovia`` command."""

from engine.cli import main

raise SystemExit(main())

"""``python -m nptf``: the ``nptf`` command line."""
from .cli import main

raise SystemExit(main())

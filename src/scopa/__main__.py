"""``python -m scopa``: the same as the ``scopa`` command."""

import sys

from scopa.cli import main

sys.exit(main())

"""``python -m mapzoo ...``: the same as the ``mapzoo`` command."""

import sys

from mapzoo._cli import main

sys.exit(main())

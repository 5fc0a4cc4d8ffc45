"""``python -m pbem.cli``: the ``pbem`` command."""

import sys

from pbem.cli import main

sys.exit(main())

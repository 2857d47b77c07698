"""Run the standalone verifier: ``python3 verify.py --help`` (or ``python3 -m verifier``).

The zip archive verify.py starts here. Its syntax is old enough for Python 3.6 to read it,
so that a Python older than the core's reaches the message naming the one it needs.
"""

import sys

OLDEST_PYTHON = (3, 11)  # the core's (pyproject.toml, requires-python)

if sys.version_info < OLDEST_PYTHON:  # noqa: UP036 (players run it on any Python)
    sys.stderr.write(f"verify.py needs Python {OLDEST_PYTHON[0]}.{OLDEST_PYTHON[1]} or newer; "
                     f"this is Python {sys.version_info[0]}.{sys.version_info[1]}.\n")
    sys.exit(2)

from verifier.cli import main  # noqa: E402 (after the version check)

sys.exit(main())

"""`python -m puzzlefleet`: the installed `puzzlefleet` command."""

import sys

from puzzlefleet.cli import console

if __name__ == "__main__":
    sys.exit(console())

"""`python -m ai match --seats hard,normal,normal,normal --games N --board 4p --seed S`."""

import sys

from .match import main

if __name__ == "__main__":
    sys.exit(main())

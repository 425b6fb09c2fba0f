import sys

from mantra.cli import main

sys.exit(main())

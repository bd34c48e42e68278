"""`python -m liuren`: the command line (liuren.cli.main)."""
import sys

from liuren.cli.main import main

sys.exit(main())

import sys

from liuren.cli.main import main

sys.exit(main())

import sys

from mam_bench.cli import main

sys.exit(main())

import sys

from mam_bench.cli import console

sys.exit(console())

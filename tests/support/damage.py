"""Damage a record file the way a reader must survive: used by the records tests and bench/fuzz_cli.py."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np


def huge_header(path: Path) -> None:
    """The first array after the first frame's header made to claim 10^11 int64s (its header only:
    the bytes after it stay as they were)."""
    data = path.read_bytes()
    fh = io.BytesIO(data)
    np.load(fh, allow_pickle=False)  # the first frame's header
    start = fh.tell()
    np.lib.format.read_array_header_1_0(fh) if np.lib.format.read_magic(fh) == (1, 0) else None
    fake = io.BytesIO()
    np.lib.format.write_array_header_1_0(fake, {"descr": "<i8", "fortran_order": False, "shape": (10**11,)})
    path.write_bytes(data[:start] + fake.getvalue() + data[fh.tell() :])

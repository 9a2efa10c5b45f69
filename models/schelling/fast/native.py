"""The landscape kernel's `play` as a native extension module, which loads without numba.

Importing numba and loading its cached machine code was most of a `mam-bench landscape` start-up
(about 0.3 s of 0.45 on a 2-core VM, as long as the pilot grid itself). numba's ahead-of-time
compiler (`numba.pycc`) builds the very same `kernel.play` into an extension module that imports
in a millisecond, with numpy alone. It is built once per kernel source, numba, numpy and Python
(seconds, like numba's first compile), into numba's cache folder for the kernel; where it cannot
be built (no C compiler, a numba without pycc), the failure is noted beside it and `play` stays
numba's. Tests hold the two to the same results, run for run.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import stat
import sys
import sysconfig
import tempfile
import warnings
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
MODULE = "schelling_native"
#: what `play` is built from, its frozen globals included (status codes, the rule streams' prefix
#: words): a change to any of them builds it again (numba's own cache looks at kernel.py alone)
SOURCES = tuple(
    f"mam_bench.{name}"
    for name in (
        "models.schelling.fast.kernel",
        "models.schelling.fast.compiled_streams",
        "models.schelling.fast.runs",
        "models.schelling.fast.native",
        "models.schelling.seeding",
        "streams",
        "pcg_stream",
    )
)
SIGNATURE = "Tuple((i8,i8,f8,f8,i8[::1],i8[::1]))(i8,i8,i8,i8,i8,i8,b1,b1,u8[::1],u8[::1],u8[::1],u8[::1],i4[:,::1])"


@cache
def file_name() -> str:
    """The module's file name, keyed by everything its machine code depends on."""
    h = hashlib.sha256()
    for name in SOURCES:  # found, not imported: the kernel's modules import numba
        h.update(Path(importlib.util.find_spec(name).origin).read_bytes())  # type: ignore[union-attr, arg-type]
    h.update(f"{version('numba')} {version('numpy')} {sys.version} {sys.platform}".encode())
    return f"{MODULE}-{h.hexdigest()[:16]}{sysconfig.get_config_var('EXT_SUFFIX')}"


def _ours(folder: str) -> bool:
    """A temp folder is trusted only if this user owns it and nobody else can write it (what is
    cached there is loaded as code); folders numba itself caches in are trusted as numba does."""
    uid = getattr(os, "getuid", None)
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    return uid is not None and stat.S_ISDIR(info.st_mode) and info.st_uid == uid() and not info.st_mode & 0o022


def folders() -> list[Path]:
    """Where the module may be, as numba chooses its cache folder: NUMBA_CACHE_DIR alone when set,
    else the kernel's own `__pycache__`, then the private temp folder of a read-only install
    (`numba_start.cache_where_writable`)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return [Path(os.environ["NUMBA_CACHE_DIR"])]
    out = [HERE / "__pycache__"]
    uid = getattr(os, "getuid", None)
    if uid is not None:
        temp = os.path.join(tempfile.gettempdir(), f"mam-bench-numba-{uid()}")
        if _ours(temp):
            out.append(Path(temp))
    return out


def _load(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(MODULE, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.play


def play() -> Any:
    """The native `play`, built first if it never was; None where it cannot be built."""
    for folder in folders():
        if (folder / file_name()).is_file():
            return _load(folder / file_name())
        if (folder / f"{file_name()}.failed").is_file():
            return None
    return build()


def _build_folder() -> Path:
    for folder in folders():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tempfile.TemporaryFile(dir=folder).close()
            return folder
        except OSError:
            continue
    from mam_bench import numba_start  # a read-only install: numba's private temp folder

    numba_start.cache_where_writable(str(HERE / "kernel.py"))
    return Path(numba_start.config.CACHE_DIR)


def build() -> Any:
    """Compile `kernel.play` ahead of time into the first writable folder (written beside, then
    renamed: processes building at once never see half a module). A failure is noted, not raised."""
    folder = _build_folder()
    work = tempfile.mkdtemp(dir=folder)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pycc is "pending deprecation": the fallback is numba's own
            from numba.pycc import CC

            from mam_bench.models.schelling.fast import kernel

            cc = CC(MODULE)
            cc.output_dir = work
            cc.verbose = False
            cc.export("play", SIGNATURE)(kernel.play.py_func)
            cc.compile()
        built = next(p for p in Path(work).iterdir() if p.name.startswith(MODULE))
        os.replace(built, folder / file_name())
    except Exception as exc:  # no compiler, no pycc, no setuptools: numba's play serves
        (folder / f"{file_name()}.failed").write_text(f"{type(exc).__name__}: {exc}\n")
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return _load(folder / file_name())

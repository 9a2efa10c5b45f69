"""The `mam-bench` command. Each subcommand lives in mam_bench/commands/<name>.py.

Only the chosen subcommand's module is imported (the others appear in `--help` by their summary
below), so `mam-bench --help` does not pay for Mesa, pandas or SciPy.
Bad input fails before any work with `error: FIELD: message` and exit code 2.
"""

from __future__ import annotations

import argparse
import errno
import gc
import importlib
import os
import sys

from mam_bench import startup
from mam_bench.errors import BackendFailed, ConfigError

#: subcommand -> one-line summary, in the order `mam-bench --help` lists them (add yours here;
#: tests/core/test_cli_lazy.py checks each summary against the module's own help)
COMMANDS = {
    "worlds": "list the registered worlds",
    "run": "run one reference/treatment pair and write its records",
    "landscape": "reference landscape: the world's two axes x seeds (worlds that register one)",
    "tasks": "list the tasks of a world that has them",
    "dashboard": "watch reference and treatment fork in a browser (Solara)",
    "animate": "write the paired reference|treatment animation of a run (GIF, MP4)",
    "experiment": "run a suite (cases x seeds x repeats) into a tidy table and summary",
    "benchmark": "rate one controller on the versioned benchmark (scores per world)",
    "ceiling": "compute a v3 benchmark's ceiling: the best known lift and plan per seed",
    "steerability": "how far each benchmark scenario can be steered (oracle headroom)",
    "report": "self-contained HTML report of an experiment folder",
    "export": "write a run (or an experiment's runs) in another tool's log format",
    "new-world": "scaffold a world package (a Mesa model, its declaration, a test)",
    "parity": "step our worlds beside a rules-only re-derivation of another tool's",
}


#: a write the file system refused (full, over quota, read-only, too large): said in one line
WRITE_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """All subcommands (default), or only `only` built in full and the others as summaries."""
    parser = argparse.ArgumentParser(
        prog="mam-bench",
        description="Paired steering experiments: can a few coordinating AI agents steer an agent-based model?",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, summary in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(f"mam_bench.commands.{name.replace('-', '_')}").add_parser(sub)
        else:
            sub.add_parser(name, help=summary)
    return parser


def chosen_command(argv: list[str]) -> str | None:
    """The subcommand named in argv (the first word that is not an option), if it is one of ours."""
    first = next((a for a in argv if not a.startswith("-")), None)
    return first if first in COMMANDS else ""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(only=chosen_command(argv))
    args = parser.parse_args(argv)
    key_env = getattr(args, "api_key_env", None)
    if isinstance(key_env, str) and key_env in os.environ:  # known before any user code can print it
        from mam_bench.secrets import remember

        remember(os.environ[key_env])
    try:
        return int(args.handler(args) or 0)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BackendFailed as exc:
        print(f"error: backend: {exc}; finished records are kept", file=sys.stderr)
        return 3
    except BrokenPipeError:  # `mam-bench worlds | head`: the reader left; nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        if exc.errno not in WRITE_ERRNOS:
            raise
        where = f" {exc.filename}" if exc.filename else ""
        print(f"error: out: cannot write{where}: {exc.strerror}; finished records are kept", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; finished records are kept", file=sys.stderr)
        return 130


def console() -> int:
    """The `mam-bench` command: `main`, then an exit without the collector's last sweep.

    A process that has loaded numba, pydantic or Mesa spends about 0.4 s at exit collecting
    objects the OS reclaims anyway (a third of a short `landscape`). Freezing them skips that.
    It loses nothing: every record and table row is flushed when written, and files are closed.
    Only the command does this; `main` called in a long-lived process keeps its collector.
    A command that only computed and wrote closed files (`landscape`) also skips the interpreter's
    teardown, another 0.15 s of freeing every module's objects one by one.
    """
    startup.as_command()
    code = main()
    gc.freeze()
    if startup.teardown_skippable():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(console())

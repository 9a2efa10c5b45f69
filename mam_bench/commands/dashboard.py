"""`mam-bench dashboard [WORLD] [--run DIR] [--landscape FILE.csv]`: the Solara app on 127.0.0.1.

Runs `solara run --production` (no call home; front-end assets come from `solara-assets`,
so the page renders offline) with the choices passed through environment variables.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

from mam_bench.child_process import die_with_parent
from mam_bench.errors import ConfigError

APP = "mam_bench.dashboards.app"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("dashboard", help="watch reference and treatment fork in a browser (Solara)")
    p.add_argument("world", nargs="?", help="world shown first (default: the featured registered world)")
    p.add_argument("--run", metavar="DIR", help="replay a recorded run directory (no model, no API key)")
    p.add_argument("--landscape", metavar="FILE.csv", help="CSV from `mam-bench landscape` for the landscape page")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument(
        "--allow-key-env",
        action="append",
        default=[],
        metavar="NAME",
        help="a key variable the page may use for the llm controller (repeatable; none by default)",
    )
    p.add_argument(
        "--allow-base-url",
        action="append",
        default=[],
        metavar="URL",
        help="a non-loopback endpoint the page may send a key to (repeatable; none by default)",
    )
    p.add_argument(
        "--replay-dir",
        metavar="DIR",
        default="runs",
        help="the only folder the page may replay runs from (default ./runs)",
    )
    p.add_argument(
        "--controller",
        "--policy",
        dest="controller",
        help="the controller the page starts with; `human`: you play the influence agents (--policy: its old name)",
    )
    p.add_argument("--seed", type=int, help="the pair's seed (default: the world's dashboard seed)")
    p.add_argument("--rounds", type=int, help="the treatment's rounds (default: the world's horizon)")
    p.add_argument("--out", metavar="DIR", help="where a human session records (a stopped one resumes from it)")
    p.add_argument("--time-limit", type=float, metavar="S", help="human: seconds a round, then the rest stay")
    p.set_defaults(handler=handle)


def seat_env(args: argparse.Namespace) -> dict[str, str]:
    """--controller, --seed, --rounds, --out and --time-limit, checked, for the server's environment."""
    from mam_bench.dashboards.config import (
        CONTROLLER_CHOICES,
        ENV_OUT,
        ENV_POLICY,
        ENV_ROUNDS,
        ENV_SEED,
        ENV_TIME_LIMIT,
    )

    controller = getattr(args, "controller", None)
    if controller is not None and controller not in ("auto", *CONTROLLER_CHOICES):
        raise ConfigError(
            "controller", f"unknown controller {controller!r} (known: auto, {', '.join(CONTROLLER_CHOICES)})"
        )
    from mam_bench.commands.run import MAX_ROUNDS, MAX_SEED

    if getattr(args, "seed", None) is not None and not 0 <= args.seed <= MAX_SEED:
        raise ConfigError("seed", f"expected a whole number from 0 to {MAX_SEED}, got {args.seed}")
    if getattr(args, "rounds", None) is not None and not 1 <= args.rounds <= MAX_ROUNDS:
        raise ConfigError("rounds", f"expected 1 to {MAX_ROUNDS} rounds, got {args.rounds}")
    limit = getattr(args, "time_limit", None)
    if limit is not None and not 0 < limit <= 86_400:
        raise ConfigError("time_limit", f"expected a positive number of seconds up to a day (86400), got {limit}")
    out = getattr(args, "out", None)
    if (out or limit is not None) and controller != "human":
        raise ConfigError("out" if out else "time_limit", "only --controller human takes it")
    if out:
        from mam_bench.dashboards.human_session import check_out

        check_out(Path(out))
    values = {
        ENV_POLICY: controller,
        ENV_SEED: getattr(args, "seed", None),
        ENV_ROUNDS: getattr(args, "rounds", None),
        ENV_OUT: str(Path(out).resolve()) if out else None,
        ENV_TIME_LIMIT: limit,
    }
    return {k: str(v) for k, v in values.items() if v is not None}


def server_command(port: int) -> list[str]:
    return [sys.executable, "-m", "solara", "run", APP, "--host", "127.0.0.1", "--port", str(port), "--production"]


def offline_assets() -> Path | None:
    """Where `solara-assets` put the front-end files. Solara looks under its own prefix only, so a
    venv that borrows the system's packages would fetch them from a CDN (and fail offline)."""
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix, sys.exec_prefix)):
        cdn = Path(prefix) / "share" / "solara" / "cdn"
        if (cdn / "requirejs@2.3.6").is_dir() or any(cdn.glob("requirejs@*")):
            return cdn
    return None


def server_env(
    world: str,
    run: str | None,
    landscape: str | None,
    allow_keys: tuple[str, ...] = (),
    allow_urls: tuple[str, ...] = (),
    replay_dir: str = "runs",
) -> dict[str, str]:
    from mam_bench.dashboards.config import (
        ENV_LANDSCAPE,
        ENV_OUT,
        ENV_POLICY,
        ENV_ROUNDS,
        ENV_RUN,
        ENV_SEAT,
        ENV_SEED,
        ENV_TIME_LIMIT,
        ENV_WORLD,
    )
    from mam_bench.dashboards.security import ENV_ALLOW_KEYS, ENV_ALLOW_URLS, ENV_REPLAY_DIR

    env = dict(os.environ)
    env[ENV_WORLD] = world
    env[ENV_ALLOW_KEYS] = ",".join(allow_keys)
    env[ENV_ALLOW_URLS] = ",".join(allow_urls)
    env[ENV_REPLAY_DIR] = str(Path(replay_dir).resolve())
    for key in (ENV_POLICY, ENV_SEED, ENV_ROUNDS, ENV_OUT, ENV_TIME_LIMIT, ENV_SEAT):
        env.pop(key, None)  # only this command's own flags set them
    for key, value in ((ENV_RUN, run), (ENV_LANDSCAPE, landscape)):
        if value:
            env[key] = str(Path(value).resolve())
        else:
            env.pop(key, None)
    env.setdefault("SOLARA_TELEMETRY_MIXPANEL_ENABLE", "False")
    # a closed page's session (its kernel, threads and descriptors) goes after 2 minutes, not Solara's
    # 24 hours: a reload or a dropped connection within them finds it again
    env.setdefault("SOLARA_KERNEL_CULL_TIMEOUT", "120s")
    # Solara's corner banner sits over the feed's last row in a screenshot; the page is ours
    env.setdefault("SOLARA_THEME_SHOW_BANNER", "False")
    env.setdefault("SOLARA_THEME_TITLE", "MAM-Bench")
    assets = offline_assets()
    if assets and "SOLARA_ASSETS_PROXY_CACHE_DIR" not in env:
        env["SOLARA_ASSETS_PROXY_CACHE_DIR"] = str(assets)
    env.setdefault("MPLBACKEND", "Agg")
    return env


def wait_until_serving(proc: subprocess.Popen, port: int, timeout: float = 120.0) -> bool:
    """True once the server answers on the port (so the printed address works); False if it exits."""
    import time
    import urllib.error
    import urllib.request

    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return True
        except urllib.error.HTTPError:  # it answers (an error page is still the server)
            return True
        except OSError:
            time.sleep(0.2)
    return False


def handle(args: argparse.Namespace) -> int:
    from mam_bench.extras import require
    from mam_bench.registry import default_world, world_names

    require("dashboards")
    args.world = args.world or default_world()[0]
    if args.world not in world_names():
        raise ConfigError("world", f"unknown world {args.world!r} (known: {', '.join(world_names())})")
    if args.run and not (Path(args.run) / "treatment.jsonl").exists():
        raise ConfigError("run", f"{args.run} holds no treatment.jsonl (not a run directory)")
    if args.run:  # the checks animate makes (versions, snapshot damage, digests), before serving
        from mam_bench.dashboards.replay import checked_recording

        checked_recording(args.run, "run")
    if args.landscape and not Path(args.landscape).is_file():
        raise ConfigError("landscape", f"no such file: {args.landscape}")
    if not 0 < args.port < 65536:
        raise ConfigError("port", f"{args.port} is not a TCP port")
    from mam_bench.secrets import ENV_NAME

    for name in args.allow_key_env:
        if not ENV_NAME.fullmatch(name):  # (not echoed: it might be a key pasted by mistake)
            raise ConfigError("allow_key_env", "expected the NAME of an environment variable (A-Z, 0-9, _)")
    for url in args.allow_base_url:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError("allow_base_url", f"expected an http(s) URL, got {url!r}")
    if Path(args.replay_dir).exists() and not Path(args.replay_dir).is_dir():
        raise ConfigError("replay_dir", f"{args.replay_dir} is not a directory")
    seat = seat_env(args)
    proc = subprocess.Popen(
        server_command(args.port),
        env=server_env(
            args.world, args.run, args.landscape, tuple(args.allow_key_env), tuple(args.allow_base_url), args.replay_dir
        )
        | seat,
        start_new_session=True,  # its own process group: stopping this command stops all of Solara
        preexec_fn=partial(die_with_parent, os.getpid()),  # and it dies with us, even on kill -9
    )
    previous = {sig: signal.signal(sig, _stopped) for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    try:
        if wait_until_serving(proc, args.port):
            print(f"dashboard: http://127.0.0.1:{args.port}/  (landscape page: /landscape)", flush=True)
        return proc.wait()
    except (KeyboardInterrupt, Stopped) as exc:
        return 128 + (exc.signum if isinstance(exc, Stopped) else signal.SIGINT)
    finally:
        stop_server(proc)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class Stopped(Exception):
    """This command got TERM, INT or HUP: the server is stopped with it."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _stopped(signum: int, frame: object) -> None:
    raise Stopped(signum)


def stop_server(proc: subprocess.Popen, grace: float = 3.0) -> None:
    """TERM the server's whole process group, KILL what is left after `grace` seconds, so the
    port is free when this command exits (a `kill PID` of the command must not leave it serving)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            break
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            continue
        if sig == signal.SIGTERM:  # the leader is gone; anything it left in the group goes too
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            break

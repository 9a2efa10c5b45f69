"""The CLI imports only what the chosen subcommand needs; worlds are discovered once per process;
a missing optional part names the extra that installs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mam_bench import cli, registry

HEAVY = (
    "mesa",
    "numpy",
    "pandas",
    "scipy",
    "pydantic",
    "yaml",
    "matplotlib",
    "solara",
    "numba",
    "langchain",
    "langchain_core",
)


def heavy_loaded(code: str) -> tuple[list[str], str]:
    """Run `code` in a fresh interpreter; the heavy modules it left in sys.modules, and its stdout."""
    probe = f"\nimport sys, json\nprint(json.dumps(sorted(m for m in {list(HEAVY)!r} if m in sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code + probe], capture_output=True, text=True, check=True)
    *out, loaded = done.stdout.strip().splitlines()
    return json.loads(loaded), "\n".join(out)


def test_importing_the_cli_loads_no_heavy_library() -> None:
    assert heavy_loaded("import mam_bench.cli")[0] == []


@pytest.mark.parametrize("command", list(cli.COMMANDS))
def test_each_subcommand_help_loads_no_heavy_library(command: str) -> None:
    """`mam-bench CMD --help` builds CMD's full parser; the libraries its work needs wait for the work."""
    code = f"from mam_bench.cli import main\ntry:\n    main([{command!r}, '--help'])\nexcept SystemExit:\n    pass"
    loaded, out = heavy_loaded(code)
    assert loaded == []
    assert f"usage: mam-bench {command}" in out


def test_help_lists_every_command_without_importing_the_heavy_libraries() -> None:
    code = (
        "import sys, json\nfrom mam_bench.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        f"print(json.dumps(sorted(m for m in {list(HEAVY)!r} if m in sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    *help_lines, loaded = done.stdout.strip().splitlines()
    assert json.loads(loaded) == []
    for name in cli.COMMANDS:
        assert name in "\n".join(help_lines)


def test_summaries_match_each_command_module() -> None:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")  # noqa: SLF001
    helps = {a.dest: a.help for a in sub._choices_actions}  # noqa: SLF001
    assert helps == cli.COMMANDS


def test_a_subcommand_still_parses_in_full() -> None:
    args = cli.build_parser(only="run").parse_args(["run", "schelling", "--seed", "3"])
    assert (args.world, args.seed) == ("schelling", "3")  # checked (and turned into an int) by the handler


def test_worlds_are_discovered_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    real = registry.entry_points

    def counting(**kw):
        if kw.get("group") == registry.GROUP:
            calls.append(kw)
        return real(**kw)  # the real worlds, so that lookups by name still succeed

    monkeypatch.setattr(registry, "entry_points", counting)
    registry.registrations.cache_clear()
    try:
        for _ in range(20):
            registry.get_world("schelling")
        registry.world_names()
        registry.default_world()
        assert len(calls) == 1
    finally:
        registry.registrations.cache_clear()


def test_dashboard_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "solara", None)  # what find_spec sees when solara is absent
    code = cli.main(["dashboard", "--port", "8799"])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1
    assert "[dashboards]" in err and "pip install" in err
    from mam_bench.extras import install_command

    assert err.endswith(install_command("dashboards"))


def test_the_missing_extra_command_fits_a_source_checkout() -> None:
    """The tests run from a checkout (an editable install): the message installs the checkout with
    the extra (`pip install 'mam-bench[...]'` would fetch another copy from an index)."""
    from pathlib import Path

    import mam_bench
    from mam_bench.extras import install_command

    assert "site-packages" not in Path(mam_bench.__file__).resolve().parts
    command = install_command("dashboards")
    assert "-e" in command.split() and "[dashboards]" in command and "mam-bench[" not in command


def test_llm_policy_without_the_extra_names_it(tmp_path) -> None:
    code = (
        "import sys\nfor m in ('langchain_core', 'langchain', 'langchain_openai'):\n    sys.modules[m] = None\n"
        "from mam_bench.cli import main\n"
        f"sys.exit(main(['run', 'schelling', '--policy', 'llm', '--model', 'openai:x', "
        f"'--out', {str(tmp_path / 'r')!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert "[llm]" in done.stderr.strip().splitlines()[-1]
    assert not (tmp_path / "r").exists()


def test_a_landscape_runs_without_importing_mesa(tmp_path) -> None:
    """The registered landscape kernel serves `mam-bench landscape`; the world class (Mesa) is not loaded."""
    out = tmp_path / "l.csv"
    code = (
        "from mam_bench.cli import main\n"
        f"assert main(['landscape', 'schelling', '--thresholds', '3/4', '--vacancies', '1/4', '--seeds', '0-1', "
        f"'--out', {str(out)!r}]) == 0"
    )
    loaded, _ = heavy_loaded(code)
    assert "mesa" not in loaded and "pandas" not in loaded
    assert len(out.read_text().splitlines()) == 3


#: what a landscape never runs: the optional extras, the table and plotting libraries, the parts
#: of scipy numba does not import itself, and the other worlds' packages and the steering side
NOT_FOR_A_LANDSCAPE = (
    "langchain",
    "langchain_core",
    "langchain_openai",
    "llama_cpp",
    "solara",
    "ray",
    "sklearn",
    "pandas",
    "pyarrow",
    "matplotlib",
    "PIL",
    "networkx",
    "mesa",
    "scipy.stats",
    "scipy.optimize",
    "scipy.sparse",
    "scipy.linalg",
    "mam_bench.steering",
    "mam_bench.dashboards",
    "mam_bench.experiment.executors",
    "concurrent.futures",
)


def test_a_landscape_imports_only_what_it_runs(tmp_path) -> None:
    """`mam-bench landscape schelling` on one worker: no optional or unrelated library, no other
    world's package (their registrations are read by name, imported only when asked for), and no
    numba once the kernel's native module is built (the first landscape builds it)."""
    code = (
        "import json, sys\nfrom mam_bench.cli import main\n"
        "assert main(['landscape', 'schelling', '--thresholds', '3/4', '--vacancies', '1/4', '--seeds', '0-1', "
        "'--out', sys.argv[1], '--force']) == 0\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    cmd = [sys.executable, "-c", code, str(tmp_path / "l.csv")]
    runs = [subprocess.run(cmd, capture_output=True, text=True, check=True) for _ in range(2)]
    loaded = set(json.loads(runs[1].stdout.strip().splitlines()[-1]))
    assert sorted(m for m in (*NOT_FOR_A_LANDSCAPE, "numba", "llvmlite") if m in loaded) == []
    worlds = {m.split(".")[2] for m in loaded if m.startswith("mam_bench.models.")}
    assert worlds == {"schelling"}
    assert "mam_bench.models.schelling.fast.runs" in loaded  # it did run the compiled kernel
    assert len((tmp_path / "l.csv").read_text().splitlines()) == 3

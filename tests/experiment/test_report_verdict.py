"""The report answers: one verdict line per case (its lift beyond the best placebo, with the CI
over seeds: steers or does not), and the lift chart shows each case's placebos beside it."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg

from mam_bench.commands.report import build_report
from mam_bench.experiment.charts import panel_bars
from mam_bench.experiment.paper_figures import lift_figure, write_lift_figures
from mam_bench.experiment.run_suite import run_experiment
from mam_bench.experiment.stats import placebo_lifts, summarize, verdicts
from mam_bench.experiment.suite import parse_suite

SUITE = {
    "name": "verdict",
    "seeds": 4,
    "cases": [
        {"name": "voter-heuristic", "world": "voter", "controller": "heuristic", "influence": 3, "rounds": 20},
        {"name": "voter-random", "world": "voter", "controller": "random", "influence": 3, "rounds": 20},
    ],
}


def test_the_report_opens_with_a_verdict_per_case_and_draws_the_placebos(tmp_path) -> None:
    out = tmp_path / "exp"
    suite = parse_suite(SUITE)
    run_experiment(suite, out, jobs=1)
    page = build_report(out)
    said = re.findall(r"<li>([^<]+)</li>", page[page.index("id='verdicts'") : page.index("</ul>")])
    assert [line.split(":")[0] for line in said] == ["voter-heuristic", "voter-random"]
    df = pd.read_csv(out / "table.csv")
    summary = summarize(df, suite)
    placebos = placebo_lifts(df, suite)
    assert sorted(placebos["placebo"]) == ["mimic", "mimic", "stay", "stay"]
    for line, case in zip(said, ("voter-heuristic", "voter-random")):
        mine = placebos[placebos["case"] == case]
        best = mine.loc[mine["mean"].idxmax()]
        vs = summary[(summary["case"] == case) & (summary["test"] == f"vs {best['placebo']}")].iloc[0]
        low = float(vs["ci_low"])
        found = re.search(
            r"lift beyond the best placebo \((\w+) [+-][\d.]+\) ([+-][\d.]+) \[([+-][\d.]+), [^\]]+\]: (.+)$", line
        )
        assert found, line
        assert found.group(1) == best["placebo"]
        assert float(found.group(2)) == round(float(vs["mean"]), 4)
        assert float(found.group(3)) == round(low, 4)
        assert found.group(4) == ("steers" if low > 0 else "does not steer")
    assert page.index("id='verdicts'") < page.index('id="results"')  # the answer comes first
    assert verdicts(summary) == verdicts(summary, placebos)  # summary.csv alone (report --markdown) says the same
    # the chart: every case's bar, then its stay and mimic bars (grey), and no label twice in a row
    assert page.count('class="bar placebo"') == 4 and page.count('class="bar"') == 2
    labels = re.findall(r'class="(?:case|placebo)-label"[^>]*>([^<]+)<', page)
    assert labels == ["voter-heuristic", "stay", "mimic", "voter-random", "stay", "mimic"]


def test_a_placebo_lift_is_the_baseline_pairs_own_mean(tmp_path) -> None:
    out = tmp_path / "exp"
    suite = parse_suite({**SUITE, "cases": SUITE["cases"][:1]})
    run_experiment(suite, out, jobs=1)
    df = pd.read_csv(out / "table.csv")
    placebos = placebo_lifts(df, suite).set_index("placebo")
    for name in ("stay", "mimic"):
        own = df[(df["role"] != "case") & (df["controller"] == name)].groupby("seed")["lift"].mean()
        assert np.isclose(placebos.loc[name, "mean"], own.mean())


def test_a_case_label_does_not_repeat_its_controller() -> None:
    lifts = pd.DataFrame(
        {
            "case": ["heuristic", "voter-random"],
            "controller": ["heuristic", "random"],
            "mean": [0.1, 0.2],
            "ci_low": [0.0, 0.1],
            "ci_high": [0.2, 0.3],
        }
    )
    placebos = pd.DataFrame(
        {"case": ["heuristic"], "placebo": ["stay"], "n": [3], "mean": [0.05], "ci_low": [0.0], "ci_high": [0.1]}
    )
    labels, _, owner = panel_bars(lifts, placebos)
    assert labels == ["heuristic", "stay", "voter-random"] and owner == [-1, 0, -1]


def test_no_verdict_without_a_placebo() -> None:
    summary = pd.DataFrame(
        {"case": ["c"], "test": ["lift"], "reference_status": ["all"], "mean": [0.3], "ci_low": [0.1], "ci_high": [0.5]}
    )
    (line,) = verdicts(summary, pd.DataFrame(columns=["case", "placebo", "n", "mean", "ci_low", "ci_high"]))
    assert line.startswith("c: lift +0.3000 [+0.1000, +0.5000]") and "no verdict" in line


def test_the_figure_keeps_every_label_inside(tmp_path) -> None:
    """The PNG's layout makes room for the y label and the rotated case names (none cut off)."""
    lifts = pd.DataFrame(
        {
            "world": ["boltzmann"] * 2,
            "metric": ["gini"] * 2,
            "case": ["boltzmann-heuristic-7c8cdb", "boltzmann-random-1497e5"],
            "controller": ["heuristic", "random"],
            "mean": [0.001, -0.004],
            "ci_low": [-0.017, -0.021],
            "ci_high": [0.02, 0.011],
        }
    )
    placebos = pd.DataFrame(
        {
            "case": [c for c in lifts["case"] for _ in range(2)],
            "placebo": ["stay", "mimic"] * 2,
            "n": [20] * 4,
            "mean": [-0.33, 0.0045] * 2,
            "ci_low": [-0.35, -0.005] * 2,
            "ci_high": [-0.31, 0.015] * 2,
        }
    )
    labels, values, owner = panel_bars(lifts, placebos)
    fig = lift_figure(labels, *values, title="boltzmann: lift on gini", owner=owner)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()  # the constrained layout runs here, as in savefig
    renderer = canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    ax = fig.axes[0]
    for text in [ax.yaxis.label, *ax.get_xticklabels()]:
        box = text.get_window_extent(renderer)
        assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= width and box.y1 <= height, text.get_text()
    assert [t.get_text() for t in ax.get_xticklabels()] == labels
    files = write_lift_figures(lifts, tmp_path / "figs", placebos)
    assert sorted(f.name for f in files) == ["lift-boltzmann-gini.png", "lift-boltzmann-gini.svg"]


def test_experiment_prints_the_verdicts_before_its_last_line(tmp_path, capsys) -> None:
    import yaml

    from mam_bench.cli import main

    suite = tmp_path / "s.yaml"
    suite.write_text(yaml.safe_dump({**SUITE, "seeds": 3, "cases": SUITE["cases"][:1]}))
    assert main(["experiment", str(suite), "--out", str(tmp_path / "exp"), "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = [i for i, line in enumerate(lines) if line.startswith("reading: voter-heuristic: lift ")]
    assert len(said) == 1 and "lift beyond the best placebo" in lines[said[0]]
    assert said[0] < next(i for i, line in enumerate(lines) if " pairs run, " in line)

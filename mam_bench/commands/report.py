"""`mam-bench report DIR`: one self-contained HTML file that leads with the answer (a compact
results table, the shared columns said once, then the lift charts with CIs; the raw summary
collapsed below), reference vs treatment series for chosen pairs, the landscape when DIR has one."""

from __future__ import annotations

import argparse
import html
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from mam_bench.errors import ConfigError
from mam_bench.records import write_whole
from mam_bench.run_dir import (
    aside_name,
    begins_with,
    check_file_path,
    check_name_lengths,
    claim_file,
    non_empty,
)

# pandas, SciPy (stats) and pydantic (suite) are imported by the functions that use them, so
# that `report --help` answers at once
if TYPE_CHECKING:
    import pandas as pd

STYLE = """body{font-family:system-ui,sans-serif;margin:2em;max-width:1000px}svg{display:block;margin:1em 0}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
th{background:#f0f0f0}td:first-child,td:nth-child(2){text-align:left}
#results{font-size:14px}#results td{white-space:nowrap}#shared{margin:.3em 0}.how{font-size:12px;color:#444}
details{margin:1em 0}details summary{cursor:pointer;font-weight:bold}#raw-summary table{font-size:11px}"""
#: the leaderboard is a wide table (a column per world): the page takes the window's width, cells
#: stay on one line and headers wrap only between words; it fits 1400 px with ten worlds
LEADERBOARD_STYLE = """body{max-width:none;margin:1em}table{font-size:12px}td,th{padding:2px 4px}
td{white-space:nowrap}th{font-size:11px}p{max-width:1000px}"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="self-contained HTML report of an experiment folder")
    p.add_argument("dir", help="experiment folder (from mam-bench experiment)")
    p.add_argument("--out", default=None, help="HTML file (default DIR/report.html)")
    p.add_argument(
        "--pairs", default=None, help="pair ids for time series, comma-separated (default: first of each case)"
    )
    p.add_argument(
        "--markdown",
        action="store_true",
        help="print the summary as a Markdown table (the README's form) instead of writing HTML",
    )
    p.add_argument(
        "--split",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="with --markdown: the rows per reference status (default; --no-split for pooled rows only)",
    )
    p.add_argument("more", nargs="*", help="with --leaderboard: more benchmark folders, side by side")
    p.add_argument(
        "--leaderboard",
        action="store_true",
        help="benchmark folders (mam-bench benchmark): scores per controller and world, Markdown to stdout "
        "(HTML with --html or --out FILE)",
    )
    p.add_argument("--html", action="store_true", help="with --leaderboard: write HTML (default DIR/leaderboard.html)")
    p.add_argument(
        "--force", action="store_true", help="replace an --out file not written by report (moved aside first)"
    )
    p.add_argument(
        "--pilot-score",
        action="store_true",
        help="print each case's score in the pilot's convention beside our lift, and their sum "
        "(the Combined Benchmark Score)",
    )
    p.add_argument("--analysis", default=None, help="print a world's analysis of DIR instead (e.g. swarm, agentworld)")
    p.add_argument(
        "--agentworld",
        dest="analysis",
        action="store_const",
        const="agentworld",
        help="AgentWorld's Table 2 in our form: SR, PSR, CCE, rounds, chats per model and condition",
    )
    p.set_defaults(handler=handle)


#: how the raw summary's and the flips table's numeric columns print (the console's forms)
SIGNED = {"mean", "median", "ci_low", "ci_high", "mean_lift", "mean_reference", "mean_treatment"}
P_VALUES = {"wilcoxon_p", "holm_p", "tost_p"}


def _cell(v: object, column: str = "") -> str:
    from mam_bench.numbers import p_value, plain, signed

    if isinstance(v, float):
        if column in SIGNED:
            return signed(v)
        if column in P_VALUES:
            return p_value(v)
        if column == "dz":
            return signed(v, 2)
        return plain(v) if not v.is_integer() else f"{v:.0f}"
    return html.escape(str(v))


def dose_section(summary: pd.DataFrame) -> str:
    """The dose-response curve: every setting played at two or more doses, per test (lift, vs stay...)."""
    from mam_bench.experiment.charts import dose_response

    pooled = summary[summary["reference_status"] == "all"]
    curves: dict[str, list[tuple[float, float, float, float]]] = {}
    for (group, test), g in pooled.groupby(["dose_group", "test"], sort=False):
        if g["influence"].nunique() < 2:
            continue
        r = g.iloc[0]
        label = f"{str(r['case']).replace(f'-n{r.influence}', '')}: {test}"
        label = label if label not in curves else f"{label} [{group}]"
        curves[label] = [
            (float(d), float(m), float(a), float(b))
            for d, m, a, b in zip(g["influence"], g["mean"], g["ci_low"], g["ci_high"])
        ]
    if not curves:
        return ""
    return "<h2>Dose response</h2>" + dose_response(curves)


def provenance_section(folder: Path) -> str:
    """What produced the pairs (provenance.json of the experiment folder)."""
    path = folder / "provenance.json"
    if not path.exists():
        return ""
    from mam_bench.records import load_record

    block = load_record(path)
    rows = "".join(
        f"<tr><td>{html.escape(str(k))}</td><td>{html.escape(json.dumps(v))}</td></tr>" for k, v in block.items()
    )
    return f'<h2>Provenance</h2><table id="provenance"><tbody>{rows}</tbody></table>'


def _suite_of(folder: Path) -> object | None:
    """The suite the folder was run with (baselines, contrasts, family, margin), if it is there.
    Read as a record: its worlds are not resolved, so no task file's code runs for a report."""
    from pydantic import ValidationError

    from mam_bench.experiment.suite import Suite

    path = folder / "suite.json"
    if not path.exists():
        return None
    try:
        return Suite(**json.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, ValueError, TypeError, ValidationError) as exc:
        reason = str(exc).splitlines()[0][:200]
        raise ConfigError("dir", f"{path} is damaged ({type(exc).__name__}: {reason})") from None


def summary_table(summary: pd.DataFrame) -> str:
    from mam_bench.experiment.stats import SUMMARY_COLUMNS

    head = "".join(f"<th>{c}</th>" for c in SUMMARY_COLUMNS)
    body = "".join(
        "<tr>" + "".join(f"<td>{_cell(r[c], c)}</td>" for c in SUMMARY_COLUMNS) + "</tr>" for _, r in summary.iterrows()
    )
    return f'<table id="summary"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def flips_section(df: pd.DataFrame) -> str:
    """Per case, reference status x treatment status (pairs, mean lift), where runs end in more than one status."""
    from mam_bench.experiment.stats import FLIP_COLUMNS, flips

    table = flips(df)
    if table.empty:
        return ""
    head = "".join(f"<th>{c}</th>" for c in FLIP_COLUMNS)
    body = "".join(
        "<tr>" + "".join(f"<td>{_cell(r[c], c)}</td>" for c in FLIP_COLUMNS) + "</tr>" for _, r in table.iterrows()
    )
    return f'<h2>Flips between basins</h2><table id="flips"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


#: the placebos a verdict is read against, as the report explains them
PLACEBO_TEXT = "stay: the influence agents idle; mimic: they do what the rule would, without deferring"
#: what a row is about: stated once above the results table when every row shares it
SHARED = ("family", "world", "objective", "influence", "horizon", "controller", "model", "metric", "dose_group")
#: the results table: the answer first (the raw summary, every column, is below it)
RESULTS = ("case", "test", "n", "mean", "ci", "wilcoxon_p", "holm_p")
_HEAD = {"ci": "95% CI", "wilcoxon_p": "p", "holm_p": "Holm p"}


def results_table(summary: pd.DataFrame) -> str:
    """Case, test, n, mean, CI, p, Holm p for the pooled rows; columns that are the same on every
    row are said once above it, the ones that vary (world, metric, ...) join the table."""
    from mam_bench.numbers import interval, p_value, signed

    rows = summary[summary["reference_status"] == "all"] if "reference_status" in summary else summary
    shared = [c for c in SHARED if c in rows and rows[c].astype(str).nunique() <= 1]
    varying = [c for c in SHARED if c in rows and c not in shared and c != "dose_group"]
    values = {c: str(rows[c].iloc[0]) for c in shared if len(rows)}
    said = "; ".join(f"{c} <b>{html.escape(v)}</b>" for c, v in values.items() if v not in ("", "nan", "None"))
    cols = ["case", *varying, *RESULTS[1:]]

    def cell(r: pd.Series, c: str) -> str:
        if c == "ci":
            return interval(r["ci_low"], r["ci_high"])
        if c in ("wilcoxon_p", "holm_p"):
            return p_value(r[c])
        if c == "mean":
            return signed(r[c])
        return html.escape(str(r[c]))

    head = "".join(f"<th>{_HEAD.get(c, c)}</th>" for c in cols)
    body = "".join(
        "<tr>" + "".join(f'<td class="col-{c}">{cell(r, c)}</td>' for c in cols) + "</tr>" for _, r in rows.iterrows()
    )
    return (
        f'<p id="shared">Every row: {said or "nothing in common"}.</p>'
        f'<table id="results"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    )


def _series(folder: Path, pair_id: str, metric: str) -> tuple[list[float], list[float]] | None:
    from mam_bench.records import read_jsonl

    d = folder / "pairs" / pair_id
    try:
        ref = [r["metrics"].get(metric) for r in read_jsonl(d / "reference.jsonl")]
        tre = [r["metrics"].get(metric) for r in read_jsonl(d / "treatment.jsonl")]
    except (OSError, KeyError, ValueError):
        return None
    return ref, tre


def landscape_section(folder: Path) -> str:
    import pandas as pd

    from mam_bench.experiment.charts import heatmap

    path = folder / "landscape.csv"
    if not path.exists():
        return ""
    from mam_bench.records import reading

    value = "final_satisfaction"
    with reading(path):
        df = pd.read_csv(path, dtype={"threshold": str, "vacancy": str})
        cells = df.groupby(["threshold", "vacancy"], sort=False)[value].mean().astype(float)
    xs = list(dict.fromkeys(df["threshold"]))
    ys = list(dict.fromkeys(df["vacancy"]))
    z = {(t, v): float(m) for (t, v), m in cells.items()}
    return "<h2>Reference landscape</h2>" + heatmap(xs, ys, z, f"mean {value} by threshold (x) and vacancy (y)")


def lift_panels(summary: pd.DataFrame, placebos: pd.DataFrame) -> str:
    """One lift chart per world and metric (a count and a share never share an axis), each case's
    placebos beside it."""
    from mam_bench.experiment.charts import lift_bars, panel_bars

    panels = []
    for (world, metric), group in summary.groupby(["world", "metric"], sort=False):
        labels, (mean, low, high), owner = panel_bars(group, placebos)
        title, panel = f"{world}: lift on {metric}", f"lift-{world}-{metric}"
        panels.append(lift_bars(labels, mean, low, high, title=title, panel_id=panel, owner=owner))
    return f'<div id="lift-chart">{"".join(panels)}</div>'


def current_rows(folder: Path, df: pd.DataFrame) -> pd.DataFrame:
    """The rows of the suite last run into this folder (suite.json); an earlier suite's stay out."""
    path = folder / "suite.json"
    if not path.exists():
        return df
    from mam_bench.experiment.suite import Suite, pairs_of

    try:
        ids = {p.pair_id for p in pairs_of(Suite(**json.loads(path.read_text(encoding="utf-8"))))}
    except Exception:  # an unreadable suite.json must not hide the table
        return df
    return df[df["pair_id"].isin(ids)]


def build_report(folder: Path, pairs: list[str] | None = None) -> str:
    from mam_bench.experiment.charts import time_series
    from mam_bench.experiment.stats import placebo_lifts, summarize, verdicts
    from mam_bench.experiment.table import read_checked_table

    table_path = folder / "table.csv"
    df = current_rows(folder, read_checked_table(table_path))
    suite = _suite_of(folder)
    summary = summarize(df, suite)
    placebos = placebo_lifts(df, suite)
    lifts = summary[(summary["test"] == "lift") & (summary["reference_status"] == "all")]
    chosen = pairs or list(df.groupby("case", sort=False)["pair_id"].first())
    series = []
    for pid in chosen:
        row = df[df["pair_id"] == pid]
        if row.empty:
            raise ConfigError("pairs", f"no pair {pid!r} in {table_path}")
        r = row.iloc[0]
        got = _series(folder, pid, r["metric"])
        if got:
            series.append(time_series(f"{r['case']} seed {r['seed']} repeat {r['repeat']} ({pid})", *got, r["metric"]))
    chart = lift_panels(lifts, placebos)
    invalid = int((~df["valid"]).sum())
    said = "".join(f"<li>{html.escape(line)}</li>" for line in verdicts(summary, placebos))
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>MAM-Bench report: {html.escape(folder.name)}</title>"
        f"<style>{STYLE}</style></head><body><h1>MAM-Bench report: {html.escape(folder.name)}</h1>"
        f"<p>{len(df)} pairs ({invalid} invalid, left out). Lift = direction x (treatment - reference), "
        f"higher is better for the objective.</p>"
        f"<h2>Verdict</h2><ul id='verdicts'>{said}</ul>"
        f"<p class='how'>Per case: its lift and, against the placebo with the highest mean lift ({PLACEBO_TEXT}), "
        f"the lift beyond it paired by seed, with its 95% CI over seeds; the case steers only where that "
        f"interval lies above 0.</p>"
        f"<h2>Results</h2>{results_table(summary)}"
        f"<p class='how'>Rows per case: its lift against 0 and its paired contrasts (vs stay, vs mimic, named "
        f"contrasts), seed-level (repeats averaged per seed); CI = 95% percentile bootstrap of the mean over seeds "
        f"(seeded; NA for n &lt; 2 or no spread); p = Wilcoxon signed-rank (zeros dropped and "
        f"counted), Holm-adjusted over the suite's family. dz, TOST p and the per-status rows are in the raw "
        f"summary below.</p>"
        f"<h2>Lift per case (one panel per world and metric)</h2>{chart}"
        f"{dose_section(summary)}{flips_section(df)}"
        f"<details id='raw-summary'><summary>Raw summary (summary.csv: every column, per-status rows)</summary>"
        f"{summary_table(summary)}</details>"
        f"<h2>Reference and treatment</h2>{''.join(series)}{landscape_section(folder)}"
        f"{provenance_section(folder)}</body></html>"
    )


#: the file that marks a figures folder as this command's own (it may then be rewritten)
FIGURES_MARK = ".written-by-mam-bench-report"


def claim_figures(out_dir: Path, force: bool) -> Path | None:
    """Make the figures folder free: absent, empty or ours is fine (our old panels are removed, so
    none of a former report is left beside the new); another folder is refused unless `force`,
    which moves it aside (returned)."""
    if not out_dir.exists() and not out_dir.is_symlink():
        return None
    if not out_dir.is_dir():
        raise ConfigError("out", f"{out_dir} (the report's figures folder) exists and is not a folder")
    if (out_dir / FIGURES_MARK).is_file() or not any(out_dir.iterdir()):
        return None
    if not force:
        raise ConfigError(
            "out",
            f"{out_dir} (the report's figures folder) already exists and was not written by report; "
            f"pass --force to move it aside (to {out_dir.name}.replaced-N) or choose another --out",
        )
    target = aside_name(out_dir)
    os.replace(out_dir, target)
    return target


def write_figures(folder: Path, out_dir: Path) -> list[Path]:
    """The lift panels as PNG and SVG files beside the report, for a paper."""
    from mam_bench.experiment.paper_figures import write_lift_figures
    from mam_bench.experiment.stats import placebo_lifts, summarize
    from mam_bench.experiment.table import read_checked_table

    df, suite = current_rows(folder, read_checked_table(folder / "table.csv")), _suite_of(folder)
    summary = summarize(df, suite)
    lifts = summary[(summary["test"] == "lift") & (summary["reference_status"] == "all")]
    for old in out_dir.glob("lift-*") if (out_dir / FIGURES_MARK).is_file() else ():
        old.unlink()
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / FIGURES_MARK).write_text("figures of mam-bench report; rewritten by the next report\n", encoding="utf-8")
    return write_lift_figures(lifts, out_dir, placebo_lifts(df, suite))


#: how every report page begins (a file that begins so is ours, and a rerun may replace it)
PAGE_HEAD = "<!doctype html><html><head><meta charset='utf-8'><title>MAM-Bench report"


ours = begins_with(PAGE_HEAD)


def refuse_conflicts(args: argparse.Namespace) -> None:
    """A flag that the chosen mode would ignore is refused, never silently dropped."""
    non_empty(args.dir, "dir")
    non_empty(args.out, "out")
    non_empty(args.analysis, "analysis")
    non_empty(args.pairs, "pairs")
    if args.analysis is not None:
        given = {
            "--leaderboard": args.leaderboard, "--out": args.out, "--pairs": args.pairs, "--markdown": args.markdown,
            "--html": args.html, "--force": args.force, "--split": args.split is not None, "more folders": args.more,
        }  # fmt: skip
        clash = next((flag for flag, value in given.items() if value), None)
        if clash:
            raise ConfigError("analysis", f"an analysis is printed, for one folder; {clash} does not go with it")


def handle(args: argparse.Namespace) -> int:
    refuse_conflicts(args)
    if args.split is not None and not args.markdown:
        raise ConfigError("split", "only the Markdown summary has split rows; pass --markdown with --split")
    if args.markdown and (args.out or args.pairs):
        flag = "--out" if args.out else "--pairs"
        raise ConfigError(flag[2:], f"--markdown prints the summary; {flag} is for the HTML report")
    if args.leaderboard:
        from mam_bench.commands.leaderboard import handle_leaderboard

        return handle_leaderboard(args, STYLE + LEADERBOARD_STYLE)
    if args.more or args.html:
        raise ConfigError("dir", "several folders and --html go with --leaderboard only")
    folder = Path(args.dir)
    check_name_lengths(folder, "dir")
    if not folder.is_dir():
        raise ConfigError("dir", f"{folder} is not a directory (an experiment folder from mam-bench experiment)")
    if args.analysis:
        from mam_bench.experiment.table import read_checked_table
        from mam_bench.records import reading
        from mam_bench.registry import offered

        analysis_of = offered("analyses", args.analysis)
        if (folder / "table.csv").exists():
            read_checked_table(folder / "table.csv")
        with reading(folder):  # a reader's own checks name the file; this catches what they miss
            text = analysis_of(folder)
        print(text, end="")
        return 0
    if args.pilot_score:
        from mam_bench.experiment.pilot_score import pilot_score_text
        from mam_bench.experiment.table import read_checked_table

        read_checked_table(folder / "table.csv")
        print(pilot_score_text(folder), end="")
        return 0
    if args.markdown:
        from mam_bench.experiment.markdown import summary_markdown

        summary = folder / "summary.csv"
        if not summary.is_file():
            raise ConfigError("dir", f"{folder} has no summary.csv (run mam-bench experiment first)")
        try:
            print(summary_markdown(summary, split=args.split is not False), end="")
        except (KeyError, ValueError, UnicodeDecodeError) as exc:
            raise ConfigError("dir", f"{summary} is damaged ({type(exc).__name__}: {str(exc)[:200]})") from None
        return 0
    pairs = [p.strip() for p in args.pairs.split(",") if p.strip()] if args.pairs else None
    out = Path(args.out) if args.out else folder / "report.html"
    check_name_lengths(out)
    if out.is_dir():
        raise ConfigError("out", f"{out} is a directory; give an .html file")
    check_file_path(out)
    if out.exists() and not args.force:
        claim_file(out, False, ours)  # refused now, before the report is built
    figures_dir = out.parent / f"{out.stem}-figures"
    if not args.force:
        claim_figures(figures_dir, False)
    try:
        page = build_report(folder, pairs)
    except ConfigError:
        raise
    except (ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError) as exc:
        # an empty, binary or incomplete table.csv (pandas raises ValueError subclasses)
        raise ConfigError(
            "dir", f"{folder / 'table.csv'} is damaged or incomplete ({type(exc).__name__}: {str(exc)[:200]})"
        ) from None
    aside = claim_file(out, args.force, ours)
    if aside is not None:
        print(f"moved the old {out.name} aside to {aside}", file=sys.stderr)
    aside = claim_figures(figures_dir, args.force)
    if aside is not None:
        print(f"moved the old {figures_dir.name} aside to {aside}", file=sys.stderr)
    write_whole(out, page)
    try:
        figures = write_figures(folder, figures_dir)
    except OSError as exc:
        raise ConfigError("out", f"cannot write the figures in {figures_dir}: {exc.strerror or exc}") from None
    print(f"report -> {out}")
    if figures:
        print(f"figures (PNG and SVG, greyscale-safe) -> {figures[0].parent}")
    return 0

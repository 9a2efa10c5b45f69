"""`mam-bench report DIR`: one self-contained HTML file (summary table, lift chart with CIs,
reference vs treatment series for chosen pairs, the landscape surface when DIR has one)."""

from __future__ import annotations

import argparse
import csv
import html
import math
from pathlib import Path

import pandas as pd

from mam_bench.errors import ConfigError
from mam_bench.experiment.charts import heatmap, lift_bars, time_series
from mam_bench.experiment.stats import SUMMARY_COLUMNS, summarize
from mam_bench.experiment.table import read_table
from mam_bench.records import read_jsonl
from mam_bench.run_dir import check_out_dir

STYLE = """body{font-family:system-ui,sans-serif;margin:2em;max-width:1000px}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
th{background:#f0f0f0}td:first-child,td:nth-child(2){text-align:left}"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="self-contained HTML report of an experiment folder")
    p.add_argument("dir", help="experiment folder (from mam-bench experiment)")
    p.add_argument("--out", default=None, help="HTML file (default DIR/report.html)")
    p.add_argument("--pairs", default=None, help="pair ids for time series, comma-separated (default: first of each case)")
    p.set_defaults(handler=handle)


def _cell(v: object) -> str:
    if isinstance(v, float):
        return "" if math.isnan(v) else f"{v:.4g}"
    return html.escape(str(v))


def summary_table(summary: pd.DataFrame) -> str:
    head = "".join(f"<th>{c}</th>" for c in SUMMARY_COLUMNS)
    body = "".join("<tr>" + "".join(f"<td>{_cell(r[c])}</td>" for c in SUMMARY_COLUMNS) + "</tr>"
                   for _, r in summary.iterrows())
    return f'<table id="summary"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _series(folder: Path, pair_id: str, metric: str) -> tuple[list[float], list[float]] | None:
    d = folder / "pairs" / pair_id
    try:
        ref = [r["metrics"].get(metric) for r in read_jsonl(d / "reference.jsonl")]
        tre = [r["metrics"].get(metric) for r in read_jsonl(d / "treatment.jsonl")]
    except (OSError, KeyError, ValueError):
        return None
    return ref, tre


def landscape_section(folder: Path) -> str:
    path = folder / "landscape.csv"
    if not path.exists():
        return ""
    df = pd.read_csv(path, dtype={"threshold": str, "vacancy": str})
    value = "final_satisfaction"
    cells = df.groupby(["threshold", "vacancy"], sort=False)[value].mean()
    xs = list(dict.fromkeys(df["threshold"]))
    ys = list(dict.fromkeys(df["vacancy"]))
    z = {(t, v): float(m) for (t, v), m in cells.items()}
    return "<h2>Reference landscape</h2>" + heatmap(xs, ys, z, f"mean {value} by threshold (x) and vacancy (y)")


def build_report(folder: Path, pairs: list[str] | None = None) -> str:
    table_path = folder / "table.csv"
    if not table_path.exists():
        raise ConfigError("dir", f"{folder} has no table.csv (run mam-bench experiment first)")
    df = read_table(table_path)
    summary = summarize(df)
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
    chart = lift_bars([f"{c} / {k}" for c, k in zip(summary["case"], summary["controller"])],
                      summary["mean_lift"].tolist(), summary["ci_low"].tolist(), summary["ci_high"].tolist())
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>MAM-Bench report: {html.escape(folder.name)}</title>"
            f"<style>{STYLE}</style></head><body><h1>MAM-Bench report: {html.escape(folder.name)}</h1>"
            f"<p>{len(df)} pairs. Lift = direction x (treatment - reference); CI = 95% percentile bootstrap of the "
            f"mean (seeded); p = Wilcoxon signed-rank, treatment vs reference.</p>"
            f"<h2>Summary</h2>{summary_table(summary)}<h2>Lift per case</h2>{chart}"
            f"<h2>Reference and treatment</h2>{''.join(series)}{landscape_section(folder)}</body></html>")


def check_report_table(path: Path) -> None:
    """table.csv must be text, carry every column of the tidy table, and hold at least one pair."""
    from mam_bench.experiment.table import COLUMNS

    if not path.is_file():
        raise ConfigError("dir", f"{path.parent} has no table.csv (run mam-bench experiment first)")
    try:
        lines = path.read_bytes().decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise ConfigError("dir", f"{path} is not a UTF-8 text file") from None
    header = set(next(csv.reader(lines[:1]), []))
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise ConfigError("dir", f"{path} is incomplete: no column {missing[0]!r}")
    if len(lines) < 2:
        raise ConfigError("dir", f"{path} holds no pairs")


def handle(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    if not folder.is_dir():
        raise ConfigError("dir", f"{folder} is not a directory (an experiment folder from mam-bench experiment)")
    pairs = [p.strip() for p in args.pairs.split(",") if p.strip()] if args.pairs else None
    out = Path(args.out) if args.out else folder / "report.html"
    if out.is_dir():
        raise ConfigError("out", f"{out} is a directory; give an .html file")
    check_out_dir(out.parent if str(out.parent) else Path("."))
    check_report_table(folder / "table.csv")
    try:
        page = build_report(folder, pairs)
    except ConfigError:
        raise
    except (ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError) as exc:
        # an empty, binary or incomplete table.csv (pandas raises ValueError subclasses)
        raise ConfigError("dir", f"{folder / 'table.csv'} is damaged or incomplete ({type(exc).__name__}: "
                                 f"{str(exc)[:200]})") from None
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise ConfigError("out", f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"report -> {out}")
    return 0

"""The tidy table: one row per finished pair, appended to CSV as it lands, mirrored to Parquet.

A line is written whole and flushed per pair, so a killed experiment leaves only complete rows;
a torn last line (power cut mid-write) is dropped on the next open, and its pair reruns.
"""

from __future__ import annotations

import csv
import io
import math
import os
from pathlib import Path
from typing import Any

import pandas as pd

from mam_bench.provenance import provenance_id
from mam_bench.records import write_whole, writing

COLUMNS = (
    "pair_id",
    "case",
    "case_key",
    "role",
    "world",
    "seed",
    "repeat",
    "draw",
    "controller",
    "model",
    "objective",
    "influence",
    "influence_ids",
    "horizon",
    "metric",
    "reference_initial",
    "reference_final",
    "reference_compared",
    "compared_round",
    "treatment_final",
    "delta",
    "lift",
    "relative",
    "best_lift",
    "lift_area",
    "lift_ordinary",
    "lift_own",
    "secondary_metric",
    "secondary_delta",
    "reference_status",
    "reference_rounds",
    "treatment_status",
    "treatment_rounds",
    "settled_lift",
    "valid",
    "policy_error_share",
    "first_error",
    "provenance_id",
    "calls",
    "requests",
    "input_tokens",
    "output_tokens",
    "cost",
    "wall_seconds",
)
#: columns added after tables were first published: a table written before them still reads (the
#: reader fills them empty); a resume still refuses it, since a table is appended to in one layout
LATER_COLUMNS = ("lift_ordinary", "lift_own")
#: columns that may differ between two runs of the same suite (timing only)
TIMING_COLUMNS = ("wall_seconds",)


def row_from_result(pair: Any, result: dict[str, Any]) -> dict[str, Any]:
    """Flatten runner.run_pair's result dict into one table row."""
    metric = result["metric"]
    llm = result.get("llm") or {}
    sec = result.get("secondary_metric")
    validity = result.get("validity") or {}
    settled = result.get("settled") or {}
    return {
        "pair_id": pair.pair_id,
        "case": pair.case.label(),
        "case_key": pair.case.content_key()[:16],
        "role": pair.role,
        "world": result["world"],
        "seed": pair.seed,
        "repeat": pair.repeat,
        "draw": pair.draw,
        "controller": pair.case.controller_name,
        "model": pair.case.model or "",
        "objective": result["objective"],
        "influence": len(result["influence_ids"]),
        "influence_ids": " ".join(map(str, result["influence_ids"])),
        "horizon": result.get("horizon", result["treatment"]["rounds"]),
        "metric": metric,
        "reference_initial": result["reference"]["initial"][metric],
        "reference_final": result["reference"]["final"][metric],
        "reference_compared": result["reference"].get("compared", result["reference"]["final"])[metric],
        "compared_round": result["reference"].get("compared_round", result["reference"]["rounds"]),
        "treatment_final": result["treatment"]["final"][metric],
        "delta": result["delta"],
        "lift": result["lift"],
        "relative": result["relative"],
        "best_lift": result.get("best_lift"),
        "lift_area": result.get("lift_area"),
        "lift_ordinary": (result.get("lift_split") or {}).get("ordinary"),
        "lift_own": (result.get("lift_split") or {}).get("own"),
        "secondary_metric": sec or "",
        "secondary_delta": result.get("secondary_delta"),
        "reference_status": result["reference"]["status"],
        "reference_rounds": result["reference"]["rounds"],
        "treatment_status": result["treatment"]["status"],
        "treatment_rounds": result["treatment"]["rounds"],
        "settled_lift": settled.get("lift"),
        "valid": validity.get("status", "valid") == "valid",
        "policy_error_share": validity.get("policy_error_share", 0.0),
        "first_error": validity.get("first_error") or "",
        "provenance_id": provenance_id(result.get("provenance") or {}),
        "calls": int(llm.get("calls", 0) or 0),
        "requests": int(llm.get("requests", llm.get("calls", 0)) or 0),
        "input_tokens": int(llm.get("input_tokens", 0) or 0),
        "output_tokens": int(llm.get("output_tokens", 0) or 0),
        "cost": float(llm.get("cost", 0.0) or 0.0),
        "wall_seconds": round(float(result.get("_wall_seconds", 0.0)), 4),
    }


def _num(v: Any) -> Any:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else v


class TidyTable:
    """`table.csv` (append per pair) and `table.parquet` (rewritten) in the experiment folder."""

    def __init__(self, out: Path):
        self.csv = out / "table.csv"
        self.parquet = out / "table.parquet"
        self.rows: dict[str, dict[str, Any]] = {}
        if self.csv.exists():
            self._load()
        self._fh = open(self.csv, "a", newline="", encoding="utf-8")
        if self.csv.stat().st_size == 0:
            self._fh.write(",".join(COLUMNS) + "\n")
            self._fh.flush()

    def _load(self) -> None:
        """Read complete rows back; rewrite the file clean if a torn line or duplicate was found."""
        text = self.csv.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        complete = [ln for ln in lines if ln.endswith("\n")]
        dirty = len(complete) != len(lines)
        for row in csv.DictReader(io.StringIO("".join(complete))):
            if None in row or len(row) != len(COLUMNS) or any(v is None for v in row.values()):
                dirty = True
                continue
            if row["pair_id"] in self.rows:
                dirty = True
            self.rows[row["pair_id"]] = row
        if dirty:
            self._rewrite(list(self.rows.values()))

    def _rewrite(self, rows: list[dict[str, Any]]) -> None:
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: _num(r.get(k)) for k in COLUMNS})
        write_whole(self.csv, buf.getvalue())

    def done(self, pair_id: str) -> bool:
        return pair_id in self.rows

    def append(self, row: dict[str, Any]) -> None:
        buf = io.StringIO()
        csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n").writerow({k: _num(row.get(k)) for k in COLUMNS})
        with writing(self.csv):  # a torn last line is dropped on the next open, and its pair reruns
            self._fh.write(buf.getvalue())
            self._fh.flush()
            os.fsync(self._fh.fileno())
        self.rows[row["pair_id"]] = row

    def frame(self) -> pd.DataFrame:
        """The table as typed columns (CSV round trip, so fresh and resumed rows agree)."""
        self._fh.flush()
        return read_table(self.csv)

    def finish(self, order: list[str]) -> pd.DataFrame:
        """Sort rows into suite order, rewrite the CSV, write Parquet; returns the frame."""
        rank = {pid: i for i, pid in enumerate(order)}
        rows = sorted(self.rows.values(), key=lambda r: rank.get(r["pair_id"], len(rank)))
        self._fh.close()
        self._rewrite(rows)
        self._fh = open(self.csv, "a", newline="", encoding="utf-8")
        df = read_table(self.csv)
        tmp = self.parquet.with_name(f".{self.parquet.name}.tmp")
        try:
            with writing(self.parquet):
                df.to_parquet(tmp, index=False)
                os.replace(tmp, self.parquet)
        finally:
            tmp.unlink(missing_ok=True)
        return df

    def close(self) -> None:
        self._fh.close()


def read_table(path: Path | str) -> pd.DataFrame:
    text = {
        c: str
        for c in (
            "pair_id",
            "case",
            "case_key",
            "model",
            "secondary_metric",
            "influence_ids",
            "first_error",
            "provenance_id",
        )
    }
    df = pd.read_csv(path, dtype=text, keep_default_na=False, na_values=[""])
    df = df.fillna({c: "" for c in text if c != "pair_id"})
    df["valid"] = df["valid"].astype(str).str.lower().isin(("true", "1"))
    for column in LATER_COLUMNS:
        if column not in df.columns:
            df[column] = float("nan")
    return df


#: columns a reader computes with: each must hold numbers in a table it trusts
NUMBER_COLUMNS = ("seed", "repeat", "lift", "treatment_final", "reference_compared", "requests", "cost", "wall_seconds")


def read_checked_table(path: Path, field: str = "dir") -> pd.DataFrame:
    """table.csv as a reader may trust it: UTF-8 text with every column, at least one pair, and
    numbers where numbers belong; anything else is a ConfigError that names the file."""
    from mam_bench.errors import ConfigError

    if not path.is_file():
        raise ConfigError(field, f"{path.parent} has no table.csv (run mam-bench experiment first)")
    try:
        lines = path.read_bytes().decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise ConfigError(field, f"{path} is not a UTF-8 text file") from None
    except OSError as exc:
        raise ConfigError(field, f"cannot read {path}: {exc.strerror or exc}") from None
    header = set(next(csv.reader(lines[:1]), []))
    missing = [c for c in COLUMNS if c not in header and c not in LATER_COLUMNS]
    if missing:
        raise ConfigError(field, f"{path} is damaged or incomplete: no column {missing[0]!r}")
    if len(lines) < 2:
        raise ConfigError(field, f"{path} holds no pairs")
    try:
        width = len(next(csv.reader(lines[:1])))
        for number, row in enumerate(csv.reader(lines[1:]), start=2):
            if row and len(row) != width:  # a row cut short (or run on): every reader would guess
                raise ConfigError(
                    field, f"{path} is damaged: row {number} has {len(row)} fields where the header has {width}"
                )
    except csv.Error as exc:
        raise ConfigError(field, f"{path} is damaged ({exc})") from None
    try:
        df = read_table(path)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise ConfigError(field, f"{path} is damaged ({type(exc).__name__}: {str(exc)[:200]})") from None
    for column in NUMBER_COLUMNS:
        bad = pd.to_numeric(df[column], errors="coerce").isna() & df[column].notna()
        if bad.any():
            raise ConfigError(field, f"{path} is damaged: {column} holds {df[column][bad].iloc[0]!r}, not a number")
    if df["seed"].isna().any():
        raise ConfigError(field, f"{path} is damaged: a row has no seed")
    return df

"""The snapshot record: rows read back exactly as whole JSON lines, frames that grow with what
changed, old runs still read, a cut frame tolerated only where a killed run leaves one."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mam_bench.errors import ConfigError
from mam_bench.records import RunRecords, dumps, read_rounds
from mam_bench.snapshots import SnapshotWriter, read_snapshots

N = 10_000


def _snapshots() -> list[dict]:
    """Rounds whose fields change type, length and order, and a column that moves a little."""
    rng = np.random.default_rng(3)
    pos = rng.permutation(N)
    out = []
    for r in range(6):
        pos = pos.copy()
        pos[rng.integers(N, size=3)] = rng.integers(10**6, size=3)
        snap = {
            "size": 100,
            "positions": pos.tolist() if r % 2 else pos,  # a list or the world's own array
            "flags": [bool(x) for x in pos % 3 == 0],
            "share": [float(x) / 7 for x in pos[:50]],
            "mixed": [1, True, 2.5] if r < 3 else [1, 2],
            "nested": {"a": [r, None], "b": "x"},
            "empty": [],
            "nan": [float("nan"), 1.0] if r == 4 else [0.5],
        }
        if r == 5:
            snap = {"positions": snap["positions"], "size": 101}  # keys dropped and reordered
        out.append(snap)
    return out


def test_rows_read_back_as_the_whole_lines_they_were(tmp_path: Path) -> None:
    records = RunRecords(tmp_path)
    whole = []
    for r, snap in enumerate(_snapshots()):
        row = {"round": r, "status": "running", "metrics": {"m": r / 3}}
        records.append_snapshot("treatment.jsonl", r, snap)
        records.append("treatment.jsonl", row, keep=False)
        whole.append(dumps({**row, **snap}))
    records.close()
    assert set(json.loads((tmp_path / "treatment.jsonl").read_text().splitlines()[0])) == {"round", "status", "metrics"}
    assert [dumps(row) for row in read_rounds(tmp_path, "treatment.jsonl")] == whole


def test_a_round_costs_what_changed_not_the_population(tmp_path: Path) -> None:
    writer = SnapshotWriter(tmp_path / "t.snapshots", dumps)
    pos = np.arange(N)
    sizes = []
    for moved in (0, 5, 5):
        pos = pos.copy()
        pos[:moved] += N
        writer.write(len(sizes), {"positions": pos})
        writer.close()
        sizes.append((tmp_path / "t.snapshots").stat().st_size - sum(sizes))
    assert sizes[0] > 2 * N  # the first frame holds the column whole (int16 holds these ids)
    assert sizes[1] < 2000 and sizes[2] < 2000  # later ones: five indices and values and a header
    assert read_snapshots(tmp_path / "t.snapshots")[2]["positions"] == pos.tolist()


def test_a_run_recorded_with_whole_lines_still_reads(tmp_path: Path) -> None:
    lines = [{"round": 0, "status": "running", "metrics": {"m": 1}, "positions": [3, 1]}]
    (tmp_path / "treatment.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert read_rounds(tmp_path, "treatment.jsonl") == lines


def test_a_cut_frame_is_an_error_unless_a_killed_run_left_it(tmp_path: Path) -> None:
    path = tmp_path / "t.snapshots"
    writer = SnapshotWriter(path, dumps)
    writer.write(0, {"positions": list(range(100))})
    writer.write(1, {"positions": list(range(1, 101))})
    writer.close()
    data = path.read_bytes()
    path.write_bytes(data[:-7])
    assert list(read_snapshots(path, allow_cut_tail=True)) == [0]
    with pytest.raises(ConfigError) as err:
        read_snapshots(path)
    assert err.value.field == "t.snapshots" and "cut short" in err.value.message
    path.write_bytes(b"not a snapshot record")
    with pytest.raises(ConfigError):
        read_snapshots(path)


def _agents(rng: np.random.Generator, opinions: np.ndarray) -> list[dict]:
    """A network world's agents: id, kind, a layout point (None off the layout), a state."""
    return [
        {"id": i, "kind": "Voter", "xy": None if i % 97 == 0 else [i / 7, -i / 3], "opinion": int(o), "tag": None}
        for i, o in enumerate(opinions)
    ]


def test_per_agent_lists_that_are_not_flat_numbers_read_back_and_cost_what_changed(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    opinions = rng.integers(2, size=N)
    moves = ["UP", "DOWN", "LEFT", "RIGHT", None]
    path = tmp_path / "t.snapshots"
    writer = SnapshotWriter(path, dumps)
    whole, sizes = [], []
    for r in range(4):
        if r:
            opinions = opinions.copy()
            opinions[rng.integers(N, size=5)] ^= 1
        snap = {
            "agents": _agents(rng, opinions),
            "positions": [None if i % 11 == 0 else [i // 100, i % 100] for i in range(N)],
            "actions": [moves[(i + (r > 2)) % 5] for i in range(N)],  # round 3: every action changes
            "messages": [None] * (N - 1) + [f"round {r}"],
            "keys": [{"b": 1, "a": 2}, {"a": 2, "b": 1}],  # key order differs: stays JSON
            "mixed": [[1, 2.5], [3, 4.5]],  # ints and floats in one row: stays JSON
        }
        writer.write(r, snap)
        writer.close()
        sizes.append(path.stat().st_size - sum(sizes))
        whole.append(dumps(snap))
    assert [dumps(s) for s in read_snapshots(path).values()] == whole
    assert sizes[1] < 3000 and sizes[2] < 3000  # five opinions and a message changed
    assert sizes[3] > N  # every action changed: its codes are written whole
    assert sizes[0] < len(whole[0]) / 4

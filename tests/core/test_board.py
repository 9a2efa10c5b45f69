"""The coordination board: append-only, windowed, capped, archived."""

from __future__ import annotations

from mam_bench.board import CoordinationBoard
from mam_bench.records import read_jsonl


def test_window_shows_only_recent_rounds():
    board = CoordinationBoard(window=3)
    for r in range(6):
        board.post(r, 1, f"post {r}")
        board.fact(r, f"fact {r}")
    rounds = {e.round for e in board.view(5)}
    assert rounds == {3, 4, 5}
    assert len(board.entries) == 12  # nothing is ever removed


def test_posts_are_capped_and_the_cut_is_recorded(tmp_path):
    board = CoordinationBoard(post_cap=10)
    entry = board.post(0, 7, "x" * 25)
    assert entry.text == "x" * 10 and entry.truncated
    board.to_jsonl(tmp_path / "board.jsonl")
    rows = read_jsonl(tmp_path / "board.jsonl")
    assert rows[0]["actor_id"] == 7 and rows[0]["truncated"] is True


def test_disabled_board_keeps_nothing():
    board = CoordinationBoard(enabled=False)
    assert board.post(0, 1, "hi") is None
    assert board.view(0) == ()

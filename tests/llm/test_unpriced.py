"""A model without a price reads `unpriced`, never `$0.0000` (which would read as free); a priced
model's cost is shown in USD. The leaderboard's cost cell says the same."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mam_bench.cli import main
from mam_bench.pricing import cost_cell
from tests.llm.conftest import KEY_ENV
from tests.llm.scripted import server_reply
from tests.support.cli import llm_pair_args
from tests.support.openai_server import OpenAIServer


def llm_line(capsys: pytest.CaptureFixture, *argv: str) -> str:
    assert main(list(argv)) == 0
    return next(line for line in capsys.readouterr().out.splitlines() if line.startswith("llm: "))


def test_an_unpriced_model_reads_unpriced(tmp_path: Path, api_key: str, capsys) -> None:
    with OpenAIServer(reply=server_reply) as srv:
        line = llm_line(capsys, *llm_pair_args(srv.base_url, tmp_path / "r", "--api-key-env", KEY_ENV))
    assert "cost unpriced" in line and "$" not in line


def test_a_priced_model_reads_its_usd(tmp_path: Path, api_key: str, capsys) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"openai:m": {"input": 1000.0, "output": 1000.0}}))
    with OpenAIServer(reply=server_reply) as srv:
        args = llm_pair_args(srv.base_url, tmp_path / "r", "--api-key-env", KEY_ENV, "--price-table", str(prices))
        line = llm_line(capsys, *args)
    cost = json.loads((tmp_path / "r" / "result.json").read_text())["llm"]["cost"]
    assert cost > 0 and re.search(rf"cost \${cost:.4f}", line), line


def test_the_leaderboard_cell_says_unpriced_only_for_calls_without_a_price() -> None:
    assert cost_cell(0.0, 12, "openai:gpt-unknown") == "unpriced"
    assert cost_cell(0.0, 12, "local:gemma3-270m") == "0.0000"  # priced at 0: free, and said so
    assert cost_cell(0.0, 0, "") == "0.0000"  # no calls (a rule controller)
    assert cost_cell(0.25, 12, "openai:gpt-unknown") == "0.2500"

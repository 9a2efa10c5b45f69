"""The custom-model page's examples run as written: its Python files, saved under the names their
first lines give, drive a pair from Python and, named as FILE.py:FACTORY, from the command line;
`fake:` and broken factories are refused before the run; OpenAI gets strict schemas."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.markdown_blocks import ROOT, blocks

PAGE = ROOT / "docs" / "reference" / "custom-models.md"


def saved_blocks(folder: Path) -> list[str]:
    names = []
    for block in blocks(PAGE):
        if block.lang == "python":
            first = block.text.splitlines()[0]
            assert first.startswith("# ") and first.endswith(".py"), f"line {block.line}: name the file it is"
            (folder / first[2:]).write_text(block.text + "\n")
            names.append(first[2:])
    return names


def cli_argv(command: str) -> list[str]:
    assert command.startswith("mam-bench ")
    return [sys.executable, "-m", "mam_bench", *command.split()[1:]]


def test_the_page_examples_run_from_python_and_from_the_cli(tmp_path: Path) -> None:
    names = saved_blocks(tmp_path)
    assert names == ["my_model.py", "steer_with_my_model.py"]
    done = subprocess.run([sys.executable, names[1]], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("lift ")
    python_run = json.loads((tmp_path / "my_run" / "result.json").read_text())

    [console] = [b for b in blocks(PAGE) if b.lang == "console"]
    [command] = console.commands
    done = subprocess.run(cli_argv(command), cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    cli_run = json.loads((tmp_path / "cli_run" / "result.json").read_text())
    assert cli_run["treatment"]["final"] == python_run["treatment"]["final"]
    calls = [json.loads(line) for line in (tmp_path / "cli_run" / "llm_calls.jsonl").read_text().splitlines()]
    assert calls and all(c["error"] is None and c["model"] == "my_model.py:make_model" for c in calls)


BAD = {
    "fake:x": "test double",
    "missing.py:make": "is not a file",
    "my_model.py:nothing": "no function",
    "broken.py:make": "importing broken.py failed",
    "wrong.py:make": "not a LangChain chat model",
}


@pytest.mark.parametrize("model", sorted(BAD))
def test_a_model_that_cannot_be_built_is_refused_before_the_run(tmp_path: Path, model: str) -> None:
    saved_blocks(tmp_path)
    (tmp_path / "broken.py").write_text("raise RuntimeError('no')\n")
    (tmp_path / "wrong.py").write_text("def make():\n    return 42\n")
    argv = ["run", "voter", "--rounds", "2", "--policy", "llm", "--model", model, "--out", "out"]
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    done = subprocess.run(
        [sys.executable, "-m", "mam_bench", *argv], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: model: ") and BAD[model] in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "out").exists()


def test_openai_itself_gets_a_strict_schema_and_other_servers_the_whole_one() -> None:
    from langchain_openai import ChatOpenAI

    from mam_bench.prompts import json_object
    from mam_bench.steering.llm.chat_models import structured
    from mam_bench.steering.llm.strict_schema import is_strict

    schema = json_object(
        {"action": {"enum": ["UP", "DOWN"]}, "message": {"type": "string", "maxLength": 120}}, ["action"]
    )
    official = ChatOpenAI(model="gpt-x", api_key="none")
    sent = structured(official, schema).kwargs["extra_body"]["response_format"]["json_schema"]
    assert sent["strict"] is True and is_strict(sent["schema"]) and not is_strict(schema)
    assert sent["schema"]["required"] == ["action", "message"]
    local = ChatOpenAI(model="x", api_key="none", base_url="http://127.0.0.1:9/v1")
    sent = structured(local, schema).kwargs["extra_body"]["response_format"]["json_schema"]
    assert sent == {"name": "answer", "schema": schema, "strict": False}
    bare = {"enum": [{"stay": True}, {"row": 1, "col": 2}]}  # no strict form: the root is no object
    assert structured(official, bare).kwargs["extra_body"]["response_format"]["json_schema"]["strict"] is False

"""What a newcomer sees first in the dashboard matches the README: the featured world opens on the
seed the README's first command runs and explains, and the influence field's example names ids of
the chosen world's own actors."""

from __future__ import annotations

import re

import pytest

from mam_bench.dashboards.config import default_config
from mam_bench.dashboards.controls import influence_hint
from mam_bench.registry import get_world, world_names
from tests.docs.markdown_blocks import ROOT, blocks


def test_the_dashboard_opens_on_the_readmes_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MAM_DASHBOARD_WORLD", raising=False)
    first = blocks(ROOT / "README.md")[0].text
    world, seed = re.search(r"mam-bench run (\w+) --seed (\d+)", first).groups()
    cfg = default_config()
    assert (cfg.world, cfg.seed) == (world, int(seed))


@pytest.mark.parametrize("name", world_names())
def test_the_influence_hint_names_the_worlds_own_ids(name: str) -> None:
    cls = get_world(name)
    ids = set(cls(cls.Params(), seed=0).actor_ids())
    shown = re.search(r"e\.g\. ([\d,]+)\)$", influence_hint(name)).group(1)
    assert {int(i) for i in shown.split(",")} <= ids

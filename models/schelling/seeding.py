"""Pilot-compatible seeding (docs/worlds/schelling.md, "Seeding and streams"), so the page's numbers come out.

Every stream is PCG64(SeedSequence(words)) with words = [MAGIC, stream, vacancy word(s),
threshold word(s) (not for placement), seed]. Values in the pilot's landscape lists enter by
their index; any other value enters as (0xFFFF, numerator, denominator): our documented
extension, which cannot collide with an index.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from mam_bench.models.schelling.params import LANDSCAPE_THRESHOLDS, LANDSCAPE_VACANCIES, SchellingParams
from mam_bench.streams import MAGIC, seeded

#: the purpose of an agent's per-round rule stream: it draws (order key, tie key) once (here, not
#: in agents.py, so that the landscape kernel can name it without importing Mesa)
RULE_PURPOSE = "schelling.rule"

PLACEMENT, ORDER, TIES = 0, 1, 2
_OUTSIDE = 0xFFFF  # marks a value outside the pilot's landscape lists in the seeding words


def _value_words(value: Fraction, table: tuple[Fraction, ...]) -> list[int]:
    """Pilot values enter by their list index; others by (marker, numerator, denominator)."""
    if value in table:
        return [table.index(value)]
    return [_OUTSIDE, value.numerator, value.denominator]


def stream_words(stream_id: int, params: SchellingParams, seed: int) -> list[int]:
    """Pilot-compatible seeding (docs/worlds/schelling.md, "Seeding and streams"): placement ignores the threshold."""
    words = [*MAGIC, stream_id, *_value_words(params.vacancy, LANDSCAPE_VACANCIES)]
    if stream_id != PLACEMENT:
        words += _value_words(params.threshold, LANDSCAPE_THRESHOLDS)
    return words + [int(seed)]


def initial_board(params: SchellingParams, seed: int) -> np.ndarray:
    """A size x size grid of actor ids (-1 vacant): a shuffled token array, row-major; under
    rule=pilot_v2 the pilot's current placement, agent i on cell i of one permutation of the cells."""
    if params.rule == "pilot_v2":
        grid = np.full(params.cells, -1, dtype=np.int64)
        cells = np.random.default_rng(seed).permutation(params.cells)[: params.n_agents]
        grid[cells] = np.arange(params.n_agents)
        return grid.reshape(params.size, params.size)
    dtype = np.uint16 if params.cells < 2**16 else np.uint32
    tokens = np.arange(params.cells, dtype=dtype)
    seeded(stream_words(PLACEMENT, params, seed)).shuffle(tokens)
    grid = tokens.astype(np.int64)
    grid[grid >= params.n_agents] = -1
    return grid.reshape(params.size, params.size)

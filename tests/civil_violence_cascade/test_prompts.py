"""The prompts say the role's rules and check a destination or an arrest as the world will."""

from __future__ import annotations

from mam_bench.models.civil_violence_cascade.model import CivilViolenceCascade
from mam_bench.models.civil_violence_cascade.params import CascadeParams
from mam_bench.models.civil_violence_cascade.prompts import CascadePrompts
from mam_bench.protocol import Request


def _request(world: CivilViolenceCascade, aid: int) -> Request:
    return Request(world=world.name, actor_id=aid, round=0, objective="decrease", observation=world.observe(aid))


def test_a_police_prompt_and_its_legality():
    w = CivilViolenceCascade(CascadeParams(controlled_role="police"), seed=53000, influence_ids=(230,))
    req = _request(w, 230)
    prompts = CascadePrompts(CivilViolenceCascade, "decrease")
    assert "a police" in prompts.system(req) and "DECREASE" in prompts.system(req)
    taken = w.location[0]
    parsed = prompts.parse(f'{{"row": {taken[0]}, "col": {taken[1]}}}', req, "decision")
    assert parsed.error and "not free" in parsed.error
    free = req.observation.vacancies[0]
    assert prompts.parse(f'{{"row": {free[0]}, "col": {free[1]}}}', req, "decision").error is None
    assert "no activity" in prompts.parse('{"active": true}', req, "decision").error


def test_a_citizen_may_not_arrest():
    w = CivilViolenceCascade(CascadeParams(), seed=1000, influence_ids=(5,))
    prompts = CascadePrompts(CivilViolenceCascade, "increase")
    parsed = prompts.parse('{"active": true, "target_row": 1, "target_col": 1}', _request(w, 5), "decision")
    assert parsed.error == "citizens do not arrest"

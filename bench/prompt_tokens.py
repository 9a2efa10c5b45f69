"""Each world's round-0 prompt in tokens, per prompt style: what one LLM call sends.

For every world (its first objective, the benchmark's quick tier: seed 1000, 2 influence agents,
one-call answers) the first influence agent's round-0 request is put in each style (`full`,
`menu`, `compact`) and counted with the local model's own tokenizer (gemma-3's, loaded
vocabulary only) where llama_cpp and the GGUF are installed; else at 4 characters a token, an
estimate that undercounts gemma's tokens on board maps 1.6-1.9 times (said in the output). The
board is empty (round 0); a board adds its posts.

    python bench/prompt_tokens.py [--worlds schelling,voter] [--phase one_call|decision]
"""

from __future__ import annotations

import argparse
from typing import Any

from mam_bench.prompts import prompts_for
from mam_bench.protocol import Request
from mam_bench.registry import get_world, world_names
from mam_bench.runner import PairSpec, prepare

QUICK = ("schelling", "flocking", "boltzmann", "voter", "civil_violence")
STYLES = ("full", "menu", "compact")


def counter() -> tuple[Any, str]:
    """(text -> tokens, how they are counted)."""
    try:
        from llama_cpp import Llama

        from mam_bench.steering.llm.local_model import gguf_path

        vocab = Llama(model_path=str(gguf_path()), vocab_only=True, verbose=False)
    except Exception as exc:  # noqa: BLE001 - no local extra: the estimate, said as such
        return (lambda text: len(text) // 4), f"estimated at 4 characters a token ({type(exc).__name__})"
    return (lambda text: len(vocab.tokenize(text.encode("utf-8"), add_bos=True))), "gemma-3 tokenizer"


def request(world: str, phase: str) -> tuple[Any, Request, str]:
    world_cls = get_world(world)
    objective = next(iter(world_cls.scoring.objectives))
    spec = PairSpec.build(world=world, seed=1000, controller="stay", influence=2, rounds=5, objective=objective)
    prep = prepare(spec)
    live = prep.new_world(True)
    aid = prep.influence_ids[0]
    req = Request(world, aid, 0, objective, live.observe(aid), (), phase)
    return world_cls, req, objective


def sizes(world: str, phase: str, count: Any) -> dict[str, int]:
    world_cls, req, objective = request(world, phase)
    out = {}
    for style in STYLES:
        prompts = prompts_for(world_cls, objective, style=style)
        out[style] = count(prompts.system(req) + "\n\n" + prompts.user(req, phase))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worlds", help="comma-separated (default: every registered world)")
    ap.add_argument("--phase", default="one_call", choices=("one_call", "decision"))
    args = ap.parse_args()
    count, how = counter()
    worlds = args.worlds.split(",") if args.worlds else sorted(world_names())
    print(f"round-0 prompt tokens per call, phase {args.phase}, {how}; * = a quick-tier world")
    print(f"{'world':<26}" + "".join(f"{s:>9}" for s in STYLES))
    for world in worlds:
        try:
            row = sizes(world, args.phase, count)
        except Exception as exc:  # noqa: BLE001 - a world that needs params of its own is said, not hidden
            print(f"{world:<26}  (not measured: {type(exc).__name__}: {str(exc)[:80]})")
            continue
        mark = "*" if world in QUICK else " "
        print(f"{mark}{world:<25}" + "".join(f"{row[s]:>9}" for s in STYLES))


if __name__ == "__main__":
    main()

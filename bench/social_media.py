"""The social-media world's reference behaviour and its cost.

    python bench/social_media.py regimes --seeds 10 --rounds 300 --plot docs/results/social-media-regimes.png
    python bench/social_media.py scale --sizes 1000 10000 100000 --rounds 5

regimes: the bare Mesa model (the users' rule alone, no influence accounts, no adapter: ten times
faster than the world's reference and the same rule) of the default platform (Sasahara et al.'s
100 users, 400 links, screen 10, mu 0.5, repost 0.5) over the confidence bound eps, with
unfollowing (q 0.5) and without (q 0): the final opinion variance, opinion clusters and the
assortativity of opinions across follow links, mean and range over seeds. With `--plot`, the
figure of that table and one run's opinion trajectories at a narrow and a wide bound.

scale: the wall-clock seconds of one reference run of `--rounds` rounds per platform size (the
world as the runner plays it: the adapter's per-user streams included), and of one round.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

EPS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0)
QS = (0.0, 0.5)


def reference(seed: int, rounds: int, **params: Any) -> tuple[Any, list[dict]]:
    from mam_bench.runner import PairSpec, prepare, run_reference

    params = {**params, "rounds": rounds}
    spec = PairSpec.build(world="social_media", seed=seed, influence=0, params={k: str(v) for k, v in params.items()})
    return run_reference(prepare(spec))


def regimes(args: argparse.Namespace) -> None:
    table: dict[tuple[float, float], dict[str, list[float]]] = {}
    head = f"{'eps':>5} {'q':>4} {'variance':>17} {'clusters':>14} {'assortativity':>19}"
    print(f"{head}   ({args.seeds} seeds, {args.rounds} rounds)")
    for q in QS:
        for eps in EPS:
            finals = [final(s, args.rounds, eps, q) for s in range(args.seeds)]
            cell = {m: [f[m] for f in finals] for m in ("variance", "clusters", "assortativity")}
            table[(eps, q)] = cell
            print(
                f"{eps:5.1f} {q:4.1f} "
                + " ".join(
                    f"{statistics.mean(v):7.3f} [{min(v):.2f},{max(v):.2f}]"
                    for v in (cell["variance"], cell["clusters"], cell["assortativity"])
                )
            )
    if args.plot:
        plot(table, args)


def final(seed: int, rounds: int, eps: float, q: float) -> dict[str, float]:
    """The measures after `rounds` steps of the bare model, every user scored."""
    import numpy as np

    from mam_bench.models.social_media import metrics
    from mam_bench.models.social_media.model import SocialMediaModel

    model = SocialMediaModel(eps=eps, q_unfollow=q, seed=seed)
    for _ in range(rounds):
        model.step()
    everyone = np.ones(model.n, dtype=bool)
    return {
        "variance": metrics.variance(model.opinion),
        "clusters": float(metrics.clusters(model.opinion, eps)),
        "assortativity": metrics.assortativity(model.opinion, model.follows, everyone),
    }


def plot(table: dict, args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 4, figsize=(17, 3.8))
    for q, style in zip(QS, ("o--", "o-")):
        for ax, metric in zip(axes[:2], ("clusters", "assortativity")):
            ax.plot(EPS, [statistics.mean(table[(e, q)][metric]) for e in EPS], style, label=f"unfollow q={q}")
            ax.set_xlabel("confidence bound eps")
            ax.set_title(f"final {metric} (mean of {args.seeds} seeds)")
    axes[0].set_yscale("log")
    axes[0].legend()
    for ax, eps in zip(axes[2:], (0.2, 0.6)):
        rows = trajectories(eps, args.rounds)
        ax.plot(range(len(rows)), rows, lw=0.4, color="#0072B2")
        ax.set_xlabel("round (a sweep of every user)")
        ax.set_ylabel("opinion")
        ax.set_title(f"bare Mesa model, seed 0, eps={eps}, q=0.5")
    fig.tight_layout()
    fig.savefig(args.plot, dpi=110)
    print(f"wrote {args.plot}")


def trajectories(eps: float, rounds: int) -> list[list[float]]:
    """Every user's opinion after each step of the bare Mesa model (seed 0): the rule alone,
    without the world's per-user streams, so its draws are not the world's seed 0."""
    from mam_bench.models.social_media.model import SocialMediaModel

    model = SocialMediaModel(eps=eps, q_unfollow=0.5, seed=0)
    out = [model.opinion.tolist()]
    for _ in range(rounds):
        model.step()
        out.append(model.opinion.tolist())
    return out


def scale(args: argparse.Namespace) -> None:
    from mam_bench.models.social_media.model import SocialMediaModel

    print(
        f"{'users':>8} {'run s':>8} {'s/round':>8} {'bare s/round':>13}   "
        f"({args.rounds} rounds, seed 0; run: the world's reference as the runner plays it, set-up "
        "included; bare: the Mesa model's step alone)"
    )
    reference(0, 1, n=200)  # warm the imports
    for n in args.sizes:
        started = time.perf_counter()
        reference(0, args.rounds, n=n)
        took = time.perf_counter() - started
        model = SocialMediaModel(n=n, seed=0)
        started = time.perf_counter()
        for _ in range(args.rounds):
            model.step()
        bare = (time.perf_counter() - started) / args.rounds
        print(f"{n:8d} {took:8.2f} {took / args.rounds:8.3f} {bare:13.3f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser("regimes")
    r.add_argument("--seeds", type=int, default=10)
    r.add_argument("--rounds", type=int, default=300)
    r.add_argument("--plot")
    s = sub.add_parser("scale")
    s.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    s.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    regimes(args) if args.what == "regimes" else scale(args)


if __name__ == "__main__":
    main()

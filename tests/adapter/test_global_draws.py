"""The global-generator check runs only where a round runs alone (`global_draws.checked()`: the
runner's pairs, `check_world`). In a dashboard the server's thread draws from `random` (websockets'
keepalive ping) while a round runs in a worker thread: there the check is off and blames nobody."""

from __future__ import annotations

import random
import threading

import pytest

from mam_bench import global_draws
from mam_bench.adapter import IsolationError
from mam_bench.world import play_round
from tests.adapter.test_check_world import CoinModel, Coins


class _ServerThread:
    """Draws from the global generators, as a ping does, exactly once per request."""

    def __init__(self) -> None:
        self.asked, self.done = threading.Event(), threading.Event()
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while self.asked.wait() and not self.stop:
            self.asked.clear()
            random.getrandbits(32)
            self.done.set()

    def draw_now(self) -> None:
        self.done.clear()
        self.asked.set()
        assert self.done.wait(30), "the drawing thread did not answer"

    def close(self) -> None:
        self.stop = True
        self.asked.set()
        self.thread.join(5)


@pytest.fixture
def server():
    srv = _ServerThread()
    yield srv
    srv.close()


def _stepping_with(server: _ServerThread, cheat: bool) -> type[Coins]:
    class BusyModel(CoinModel):
        def step(self) -> None:
            server.draw_now()  # another thread draws while this round runs
            super().step()

    class BusyCoins(Coins):
        name = "busy_coins"
        model_class = BusyModel

    return BusyCoins


def test_another_threads_draw_is_not_the_models(server) -> None:
    world = _stepping_with(server, cheat=False)(seed=0)
    for _ in range(world.rounds):
        play_round(world)


def test_the_models_own_draw_is_caught_where_its_rounds_are_checked(server) -> None:
    world = _stepping_with(server, cheat=True)(seed=0, cheat="true")
    with global_draws.checked(), pytest.raises(IsolationError, match="global `random`"):
        play_round(world)

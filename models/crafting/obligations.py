"""Obligations: what an agent has to produce and deliver, to whom (the plan's, a target share's or
an accepted request's). Both strategies keep them; a transfer or a craft counts against them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Obligation:
    """Produce and deliver `qty` of `item` to `to` (to == self: keep it, or use it)."""

    item: str
    qty: int
    to: int
    source: str = "plan"  # plan | request:<action id>
    delivered: int = 0

    @property
    def outstanding(self) -> int:
        return max(0, self.qty - self.delivered)


def add(obligations: list[Obligation], item: str, qty: int, to: int) -> None:
    for o in obligations:
        if o.item == item and o.to == to and o.source == "plan":
            o.qty += qty
            return
    obligations.append(Obligation(item, qty, to))

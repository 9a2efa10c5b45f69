"""A Mesa discrete space copied cell by cell for a fork, without the rebuild Mesa's own copy does.

Mesa copies a space by unpickling every cell into a class of its own and reconnecting the
neighbours from scratch, which costs more than a round of most worlds. Here the copy's cells are
made up front as empty shells linked like the originals (same coordinates, same connection
order), the world's deep copy links its agents to them through the memo, and a last step fills
them in, with the cells' cached neighbourhoods copied as they are (recomputing them costs a fork's
first round more than copying does, and Mesa's global cache of them would keep every fork alive).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

from mesa.discrete_space import CellCollection, DiscreteSpace
from mesa.discrete_space.property_layer import PropertyDescriptor

#: the space's attributes the copy builds itself; every other one is deep-copied
_BUILT = frozenset({"_cells", "cell_klass", "_mesa_property_layers", "all_cells"})


def prepare_space_copy(space: DiscreteSpace, memo: dict[int, Any]) -> Callable[[], None]:
    """Put the copy of `space` and of each of its cells in `memo` before the world is deep-copied;
    returns the step that fills them in once it has been (agents, streams and all are in memo then)."""
    twin = object.__new__(type(space))
    memo[id(space)] = twin
    layers = {name: copy.deepcopy(layer, memo) for name, layer in vars(space).get("_mesa_property_layers", {}).items()}
    classes: dict[type, type] = {}
    cells = {}
    for coordinate, cell in space._cells.items():
        kind = type(cell)
        own = classes.get(kind) or classes.setdefault(kind, _cell_class(kind, layers))
        shell = own.__new__(own)
        memo[id(cell)] = cells[coordinate] = shell
        memo[id(cell._agents)] = shell._agents = []
    memo[id(space._cells)] = cells

    def fill() -> None:
        for name, value in vars(space).items():
            if name not in _BUILT:
                vars(twin)[name] = copy.deepcopy(value, memo)
        twin._cells = cells
        twin.cell_klass = classes.get(space.cell_klass) or space.cell_klass
        if "_mesa_property_layers" in vars(space):
            vars(twin)["_mesa_property_layers"] = layers
        if "all_cells" in vars(space):
            twin.all_cells = _collection(space.all_cells, memo)
        default = copy.deepcopy(space.random, memo)
        for cell in space._cells.values():
            shell = memo[id(cell)]
            shell.coordinate, shell.capacity = cell.coordinate, cell.capacity
            shell.connections = {key: memo[id(other)] for key, other in cell.connections.items()}
            shell.properties = copy.deepcopy(cell.properties, memo) if cell.properties else {}
            shell.random = default if cell.random is space.random else copy.deepcopy(cell.random, memo)
            if cell._agents:
                shell._agents.extend(copy.deepcopy(agent, memo) for agent in cell._agents)
            for name, value in vars(cell).items():
                vars(shell)[name] = _collection(value, memo) if name == "neighborhood" else copy.deepcopy(value, memo)

    return fill


def _collection(original: CellCollection, memo: dict[int, Any]) -> CellCollection:
    """A cached collection of the space's cells, in its order, over the copy's cells."""
    twin = memo.get(id(original))
    if twin is None:
        twin = memo[id(original)] = object.__new__(type(original))
        twin._cells = {
            memo[id(cell)]: memo[id(agents)] if id(agents) in memo else copy.deepcopy(agents, memo)
            for cell, agents in original._cells.items()
        }
        twin._capacity, twin.random = original._capacity, copy.deepcopy(original.random, memo)
    return twin


def _cell_class(kind: type, layers: dict[str, Any]) -> type:
    """The copy's cell class: a subclass that reads the copy's property layers (Mesa binds each
    layer to the class of a grid's cells) and keeps its neighbourhoods in caches of its own (Mesa
    caches them for every cell in one global cache, which would keep every fork alive)."""
    body: dict[str, Any] = {
        name: PropertyDescriptor(layers[value.layer.name])
        for klass in reversed(kind.__mro__)
        for name, value in vars(klass).items()
        if isinstance(value, PropertyDescriptor) and value.layer.name in layers
    }
    if body:
        body["_mesa_properties"] = set(getattr(kind, "_mesa_properties", ())) | set(body)
    for name in ("get_neighborhood", "_neighborhood"):
        method = getattr(kind, name, None)
        if hasattr(method, "cache_clear"):
            body[name] = functools.cache(method.__wrapped__)
    return type(kind.__name__, (kind,), body)

"""Written for these tests in the shape of AgentWorld's criteria files."""

from verifier_utils import get_final_inventories, has_item_in_any_inventory


def unused_variant(traj):
    return (1, "never called: its items are not targets")


def staff_held(traj):
    held = has_item_in_any_inventory(get_final_inventories(traj), "staff")
    return (1 if held else 0, f"staff held: {held}")


def verify(traj):
    return staff_held(traj)

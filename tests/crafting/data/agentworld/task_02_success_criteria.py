from verifier_utils import get_agent_items_by_username


def verify(traj):
    corn = get_agent_items_by_username(traj).get("b", {}).get("corn", 0)
    return (1 if corn >= 8 else 0, f"corn {corn}/8")

"""The coordination-board feed: each post beside what its author then did, and how it ended."""

from __future__ import annotations

from typing import Any

import solara

OUTCOME_COLOURS = {"accepted": "#2e7d32", "stay": "#616161"}


def action_text(action: Any) -> str:
    if isinstance(action, dict):
        if action.get("stay"):
            return "stay"
        if "row" in action and "col" in action:
            return f"-> {action['row']},{action['col']}"
        return ", ".join(f"{k}={v}" for k, v in action.items())
    return str(action)


@solara.component
def Feed(state: Any, last: int = 3, version: int = 0) -> None:
    """Posts per round by actor id, flagged with that actor's outcome; mismatches marked."""
    show_all, set_show_all = solara.use_state(False)
    rounds = sorted({int(e["round"]) for e in state.feed} | set(state.facts), reverse=True)
    if not show_all:
        rounds = rounds[:last]
    mismatches = sum(1 for e in state.feed if e.get("mismatch"))
    with solara.Card("Coordination board", classes=["mam-feed"]):
        with solara.Row():
            solara.Text(f"{len(state.feed)} decisions, {mismatches} post/action mismatches", classes=["mam-feed-summary"])
            solara.Checkbox(label="all rounds", value=show_all, on_value=set_show_all)
        if not rounds:
            solara.Text("no round played yet")
        for r in rounds:
            solara.HTML(tag="div", unsafe_innerHTML=f"<b>round {r}</b>", style="margin-top:6px")
            for fact in state.facts.get(r, []):
                solara.Text(f"! {fact}", style="font-family:monospace;font-size:11px;color:#555")
            for e in (e for e in state.feed if int(e["round"]) == r):
                outcome = str(e.get("outcome"))
                colour = OUTCOME_COLOURS.get(outcome, "#c62828")
                post = e.get("post")
                flag = " MISMATCH" if e.get("mismatch") else ""
                classes = ["mam-post", "mam-mismatch"] if flag else ["mam-post"]
                with solara.Row(classes=classes, style="font-size:12px;align-items:baseline;gap:6px"):
                    solara.Text(f"#{e['actor_id']}", style="font-weight:bold;min-width:3em")
                    solara.Text(f"\u201c{post}\u201d" if post else "(no post)", style="flex:1")
                    solara.Text(action_text(e.get("action")), style="font-family:monospace")
                    solara.Text(outcome + flag, classes=["mam-outcome"],
                                style=f"color:white;background:{colour if not flag else '#ff6f00'};padding:0 4px;border-radius:3px")

"""The coordination-board feed: each post beside what its author then did, and how it ended."""

from __future__ import annotations

from html import escape
from typing import Any

import solara

OUTCOME_COLOURS = {"accepted": "#2e7d32", "stay": "#616161"}


def action_text(action: Any) -> str:
    if isinstance(action, dict):
        if action.get("stay"):
            return "stay"
        if "row" in action and "col" in action:
            return f"-> {action['row']},{action['col']}"
        return ", ".join(f"{k}={v}" for k, v in action.items() if v is not None and v != "")
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
            solara.Text(
                f"{len(state.feed)} decisions, {mismatches} post/action mismatches", classes=["mam-feed-summary"]
            )
            solara.Checkbox(label="all rounds", value=show_all, on_value=set_show_all)
        if not rounds:
            solara.Text("no round played yet")
        for r in rounds:
            # one HTML block per round: a widget per cell made every frame cost ~1 s at 16 actors
            solara.HTML(tag="div", unsafe_innerHTML=round_html(state, r), classes=["mam-round-feed"])


def reason(entry: dict[str, Any]) -> str:
    """Why a decision did not play as asked: the controller's error, else the world's detail."""
    for key in ("error", "detail"):
        text = entry.get(key)
        if text and str(text) != "None":
            return str(text)
    return ""


def round_html(state: Any, r: int) -> str:
    """A round's engine facts, then one row per decision: actor, post, action, outcome flag."""
    parts = [f"<div style='margin-top:6px'><b>round {r}</b></div>"]
    for fact in state.facts.get(r, []):
        parts.append(f"<div style='font-family:monospace;font-size:11px;color:#555'>! {escape(fact)}</div>")
    for e in (e for e in state.feed if int(e["round"]) == r):
        outcome = str(e.get("outcome"))
        flag = " MISMATCH" if e.get("mismatch") else ""
        colour = "#ff6f00" if flag else OUTCOME_COLOURS.get(outcome, "#c62828")
        post = e.get("post")
        text = f"\u201c{escape(str(post))}\u201d" if post else "(no post)"
        parts.append(
            f"<div class='mam-post{' mam-mismatch' if flag else ''}' "
            "style='display:flex;gap:6px;font-size:12px;align-items:baseline'>"
            f"<span style='font-weight:bold;min-width:3em'>#{e['actor_id']}</span>"
            f"<span style='flex:1'>{text}</span>"
            f"<span style='font-family:monospace'>{escape(action_text(e.get('action')))}</span>"
            f"<span class='mam-outcome' style='color:white;background:{colour};padding:0 4px;border-radius:3px'>"
            f"{escape(outcome + flag)}</span></div>"
        )
        why = reason(e)
        if why and outcome != "accepted":
            parts.append(
                f"<div class='mam-reason' style='font-size:11px;color:#c62828;margin-left:3.5em'>"
                f"{escape(why[:300])}</div>"
            )
    return "".join(parts)

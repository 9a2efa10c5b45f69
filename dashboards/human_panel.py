"""The seat of a person playing the influence agents (`--controller human`): one agent at a time.

For the selected agent it shows what an LLM is given (the prompt's observation, board and
history, the same words) and takes its action: a cell clicked on its board (Schelling), one of
its legal actions (a button or a key), "same as last round" or "stay"; with a board, a post.
A refused choice says why, under the buttons. Keys (outside text fields): arrows move (swarm),
1-9 pick from the menu, s or space stays, l repeats last round's action, n / p next / previous
agent; S (shift+s) makes every agent without an action stay and L repeat its last action (stay
where it has none), so one key plays a round. Choosing moves on to the next agent without an
action; the round is played when every agent has one.
"""

from __future__ import annotations

import json
from typing import Any

import solara

from mam_bench.capabilities import null_action
from mam_bench.dashboards.draft_input import DraftInput
from mam_bench.dashboards.pickers import GridPicker, KeyListener
from mam_bench.prompts import label

ARROWS = {"ArrowUp": "UP", "ArrowDown": "DOWN", "ArrowLeft": "LEFT", "ArrowRight": "RIGHT"}
KEYS = [*ARROWS, " ", "s", "l", "n", "p", "S", "L", *"123456789"]
#: a menu this long or shorter is a row of buttons, a longer one a drop-down
BUTTONS = 24
#: Schelling's cell characters in its board's colours (board_image.COLOURS: A blue, B orange,
#: dissatisfied dimmed 0.45 towards white); influence actors (X, Y) in full colour, ringed red
CELL_COLOURS = {
    ".": "#ffffff",
    "A": "#0072b2",
    "a": "#8cbfdc",
    "B": "#e69f00",
    "b": "#f4d48c",
    "X": "#0072b2",
    "Y": "#e69f00",
}
CSS = """
.mam-seat pre { font-size: 11px; line-height: 1.15; max-height: 330px; overflow: auto; margin: 0;
  background: #f7f7f7; padding: 6px; white-space: pre; }
.mam-seat .mam-refused { color: #b00020; font-weight: bold; }
.mam-seat .v-btn { text-transform: none; }
"""


def _cell_of(action: dict[str, Any] | None) -> list[int]:
    if action and isinstance(action.get("row"), int) and isinstance(action.get("col"), int):
        return [action["row"], action["col"]]
    return []


def for_all(ctl: Any, turn: Any, how: str) -> None:
    """Every agent of the turn without an action stays (`stay`), or repeats its last action
    (`same`; stays where it has none): the last one taken plays the round."""
    for a in [a for a in turn.ids if a not in turn.actions]:
        if how == "stay" or ctl.same_as_last(a) is not None:
            ctl.stay(a)


def _short(action: dict[str, Any] | None) -> str:
    if action is None:
        return "-"
    return label({k: v for k, v in action.items() if v is not None and k != "message"})


@solara.component
def HumanPanel(session: Any, version: int = 0) -> None:
    ctl = session.human
    turn = ctl.turn
    #: (round, agent) chosen by the person; a new round starts at its first agent
    selected, set_selected = solara.use_state((-1, -1))
    #: the selection as the server knows it now: keys pressed faster than the page redraws act on it
    now = solara.use_ref((-1, -1))
    tick, set_tick = solara.use_state(0)  # the turn is changed in place: redraw after a choice
    _ = tick
    solara.Style(CSS)

    # the handlers read the turn when they are called: a key pressed faster than the page redraws
    # acts on the turn and agent the server has now
    def current(t: Any) -> int:
        r, a = now.current
        return a if r == t.round and a in t.ids else next((a for a in t.ids if a not in t.actions), t.ids[0])

    def select(t: Any, a: int) -> None:
        now.current = (t.round, a)
        set_selected((t.round, a))

    def after(t: Any, problem: str | None, who: int) -> None:
        if problem is None:
            rest = [a for a in t.ids if a not in t.actions]
            later = [a for a in rest if t.ids.index(a) > t.ids.index(who)]
            select(t, (later or rest or [who])[0])
        set_tick(lambda n: n + 1)

    def on_key(key: str) -> None:
        t = ctl.turn
        if t is None:
            return
        who = current(t)
        menu = ctl.legal(who) if t.want_action else None
        if key in ("n", "p"):
            select(t, t.ids[(t.ids.index(who) + (1 if key == "n" else -1)) % len(t.ids)])
        elif key in (" ", "s"):
            after(t, ctl.stay(who), who)
        elif key == "l":
            after(t, ctl.same_as_last(who), who)
        elif key in ("S", "L") and t.want_action:
            for_all(ctl, t, "stay" if key == "S" else "same")
            set_tick(lambda n: n + 1)
        elif key in ARROWS and menu is not None:
            move = next((a for a in menu if a.get("action") == ARROWS[key]), None)
            if move is None:
                t.refused[who] = f"{ARROWS[key]} is not one of this agent's legal actions"
            after(t, ctl.choose(who, move) if move else "refused", who)
        elif key.isdigit() and menu and len(menu) <= BUTTONS and int(key) <= len(menu):
            after(t, ctl.choose(who, menu[int(key) - 1]), who)

    # mounted once for the whole session: a listener mounted anew each round would miss the
    # keys pressed before the browser has set it up
    KeyListener.element(listen=KEYS, handler=on_key)
    if session.finished:
        if session.result is None:
            solara.Info("Writing the run's records...", classes=["mam-seat-status"])
        else:
            spec, ids = session.spec, ",".join(map(str, session.prep.influence_ids))
            more = "".join(f" --param {k}={v}" for k, v in spec.params.items())
            more += f" --objective {spec.objective}" if spec.objective else ""
            solara.Success(
                f"Finished at round {session.treatment.round}: recorded in {session.out}. Watch it again: "
                f"mam-bench dashboard --run {session.out}. Replay it: mam-bench run {spec.world} --seed {spec.seed} "
                f"--rounds {session.prep.horizon} --influence-ids {ids}{more} --controller replay "
                f"--replay {session.out}",
                classes=["mam-seat-done"],
                style="font-size:13px",
            )
        return
    if turn is None:
        solara.Info("Playing the round...", classes=["mam-seat-status"])
        return
    ids = turn.ids
    if selected[0] == turn.round and selected[1] in ids:
        now.current = selected
    aid = current(turn)
    req = turn.request(aid)

    def pick(action: dict[str, Any]) -> None:
        after(turn, ctl.choose(aid, action), aid)

    legal = ctl.legal(aid) if turn.want_action else None
    obs = req.observation

    def answered(problem: str | None) -> None:
        after(turn, problem, aid)

    with solara.Card(classes=["mam-seat"], style="padding:8px"):
        chosen = sum(a in turn.actions for a in ids)
        limit = f" | time limit {ctl.time_limit:g} s a round, then stay" if ctl.time_limit else ""
        what = f"{chosen} / {len(ids)} agents have an action" if turn.want_action else "write the round's posts"
        solara.Text(f"Your turn, round {turn.round}: {what}{limit}", classes=["mam-turn"], style="font-weight:bold")
        with solara.Row(style="flex-wrap:wrap;gap:4px"):
            for a in ids:
                done = a in turn.actions
                solara.Button(
                    f"agent {a}" + (f": {_short(turn.actions[a])}" if done else ""),
                    on_click=lambda a=a: select(turn, a),
                    color="primary" if a == aid else ("success" if done else None),
                    outlined=a != aid,
                    small=True,
                    classes=["mam-agent", f"mam-agent-{a}"],
                )
        with solara.Row(style="gap:16px;align-items:flex-start;flex-wrap:nowrap"):
            with solara.Column(style="flex:0 0 auto;gap:6px;min-width:340px;max-width:440px"):
                if turn.want_action:
                    with solara.Row(style="gap:4px"):
                        solara.Button(
                            "All left stay (S)",
                            on_click=lambda: (for_all(ctl, turn, "stay"), set_tick(lambda n: n + 1)),
                            small=True,
                            classes=["mam-stay-all"],
                        )
                        solara.Button(
                            "All left: same as last round (L)",
                            on_click=lambda: (for_all(ctl, turn, "same"), set_tick(lambda n: n + 1)),
                            small=True,
                            classes=["mam-same-all"],
                        )
                    _Choices(ctl, aid, req, obs, legal, pick, answered)
                    if aid in turn.refused:
                        solara.Text(f"refused: {turn.refused[aid]}", classes=["mam-refused"])
                    elif aid in turn.actions:
                        solara.Text(f"agent {aid} will play {_short(turn.actions[aid])}", classes=["mam-chosen"])
                if turn.want_post:
                    DraftInput(
                        f"board post of agent {aid} (Enter keeps it)",
                        turn.posts.get(aid, ""),
                        lambda text: (ctl.write(aid, text), set_tick(lambda t: t + 1)),
                        classes=["mam-post", f"mam-post-round-{turn.round}"],
                    ).key(f"post-{turn.round}-{aid}")  # a field of its own: no text of another round or agent
                    if turn.posts.get(aid):
                        solara.Text(
                            f"post kept ({len(turn.posts[aid])} characters)",
                            classes=["mam-post-kept"],
                            style="font-size:12px",
                        )
                if not turn.want_action:
                    solara.Button("Send the posts", on_click=ctl.send, classes=["mam-send"], color="primary")
            with solara.Column(style="flex:1 1 0;min-width:0"):
                solara.Text(f"what an LLM is given as agent {aid} (system, then user message):", style="font-size:12px")
                with solara.Column(classes=["mam-prompt"]):
                    solara.Preformatted(f"{ctl.prompts.system(req)}\n\n{ctl.prompts.user(req, 'decision')}")


@solara.component
def _Choices(ctl: Any, aid: int, req: Any, obs: Any, legal: Any, pick: Any, after: Any) -> None:
    """The agent's board to click (a grid observation), its legal menu, or a JSON field."""
    turn = ctl.turn
    with solara.Row(style="gap:4px"):
        solara.Button("Stay (s)", on_click=lambda: after(ctl.stay(aid)), small=True, classes=["mam-stay"])
        solara.Button(
            "Same as last round (l)",
            on_click=lambda: after(ctl.same_as_last(aid)),
            small=True,
            classes=["mam-same"],
        )
    grid = getattr(obs, "grid", None)
    if isinstance(grid, tuple) and grid and all(isinstance(g, str) for g in grid) and hasattr(obs, "board_cell"):
        n = len(grid)
        GridPicker.element(
            grid=list(grid),
            rows=[obs.board_cell(i, 0)[0] for i in range(n)],
            cols=[obs.board_cell(0, j)[1] for j in range(len(grid[0]))],
            colours=CELL_COLOURS,
            cell=max(8, min(16, 340 // n)),
            me=[obs.row, obs.col] if hasattr(obs, "row") else [],
            chosen=_cell_of(turn.actions.get(aid) if turn else None),
            handler=lambda r, c: pick({"row": r, "col": c}),
        )
        solara.Text(
            "click an empty cell to move there; your cell has a black frame, influence agents a red ring",
            style="font-size:12px",
        )
    elif legal and len(legal) <= BUTTONS:
        with solara.Row(style="flex-wrap:wrap;gap:4px;max-width:420px"):
            for i, action in enumerate(legal, 1):
                key = f"{i}. " if i <= 9 else ""
                solara.Button(
                    f"{key}{_short(action)}",
                    on_click=lambda action=action: pick(action),
                    small=True,
                    classes=["mam-menu-item"],
                )
    elif legal:
        labels = [_short(a) for a in legal]
        solara.Select(
            "legal actions",
            values=labels,
            value=None,
            on_value=lambda text: pick(legal[labels.index(text)]) if text in labels else None,
            classes=["mam-menu"],
        )
    if ctl.prompts.legal_actions(req) is None:  # not a closed menu: any action as JSON, read by the world's parser

        def typed(text: str) -> None:
            parsed = ctl.prompts.parse(text, req, "decision")
            if parsed.action is None:
                turn.refused[aid] = parsed.error or "not an action"
                after("refused")
            else:
                pick(parsed.action)

        DraftInput(
            "action (JSON, e.g. " + json.dumps(null_action(ctl.world_cls.Action)) + ")", "", typed, classes=["mam-json"]
        ).key(f"json-{req.round}-{aid}")

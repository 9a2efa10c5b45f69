"""Browser-side widgets for a person at the controls: a board of clickable cells and the keyboard.

Both are Vue templates, so a click marks its cell in the browser at once (before the server
answers) and a board of a thousand cells is one widget, not a thousand.
"""

from __future__ import annotations

import ipyvuetify as v
import traitlets

GRID = """
<template>
  <div class="mam-grid" :style="'display:grid;gap:1px;background:#bbb;width:max-content;padding:1px;'
      + 'grid-template-columns:repeat(' + cols.length + ',' + cell + 'px)'">
    <template v-for="(line, i) in grid">
      <div v-for="(ch, j) in line.split('')" :key="i + '-' + j"
           :class="['mam-cell', 'mam-cell-' + rows[i] + '-' + cols[j], ch === '.' ? 'mam-empty' : 'mam-taken',
                    isMe(rows[i], cols[j]) ? 'mam-me' : '']"
           :title="rows[i] + ',' + cols[j] + (ch === '.' ? ' empty' : ' ' + ch)"
           :style="look(ch, rows[i], cols[j])"
           @click="pick(rows[i], cols[j])"></div>
    </template>
  </div>
</template>
<script>
module.exports = {
  data() { return { local: null }; },
  watch: { chosen(v) { this.local = v && v.length ? v : null; } },
  methods: {
    isMe(r, c) { return this.me.length > 0 && this.me[0] === r && this.me[1] === c; },
    pick(r, c) { this.local = [r, c]; this.cell_clicked([r, c]); },
    look(ch, r, c) {
      const fill = this.colours[ch] || '#ffffff';
      let s = 'width:' + this.cell + 'px;height:' + this.cell + 'px;background:' + fill + ';cursor:pointer;';
      if (this.isMe(r, c)) s += 'box-shadow:inset 0 0 0 3px #000;';
      else if (ch === 'X' || ch === 'Y') s += 'box-shadow:inset 0 0 0 2px #d62728;';
      const l = this.local;
      if (l && l[0] === r && l[1] === c) s += 'outline:3px solid #2ca02c;outline-offset:-3px;';
      return s;
    },
  },
};
</script>
"""


class GridPicker(v.VuetifyTemplate):
    """A board as cells (one character each, the observation's own); a click calls `handler(row, col)`."""

    template = traitlets.Unicode(GRID).tag(sync=True)
    grid = traitlets.List(traitlets.Unicode(), default_value=[]).tag(sync=True)
    #: board row of each line and board column of each character (a window wraps the torus)
    rows = traitlets.List(traitlets.Int(), default_value=[]).tag(sync=True)
    cols = traitlets.List(traitlets.Int(), default_value=[]).tag(sync=True)
    colours = traitlets.Dict(default_value={}).tag(sync=True)
    cell = traitlets.Int(16).tag(sync=True)
    me = traitlets.List(default_value=[]).tag(sync=True)
    chosen = traitlets.List(default_value=[]).tag(sync=True)
    #: called with (row, col) at each click: a message of its own, so no click is merged into another
    handler = traitlets.Any(None)

    def vue_cell_clicked(self, data: list[int]) -> None:
        if self.handler is not None:
            self.handler(int(data[0]), int(data[1]))


KEYS = """
<template><span class="mam-keys" style="display:none"></span></template>
<script>
module.exports = {
  mounted() {
    this.listener = (e) => {
      const t = e.target;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
      if (e.ctrlKey || e.metaKey || e.altKey || !this.listen.includes(e.key)) return;
      e.preventDefault();
      this.key_pressed(e.key);
    };
    document.addEventListener('keydown', this.listener);
  },
  destroyed() { document.removeEventListener('keydown', this.listener); },
};
</script>
"""


class KeyListener(v.VuetifyTemplate):
    """The page's keys (outside text fields): each press of one of `listen` calls `handler(key)`."""

    template = traitlets.Unicode(KEYS).tag(sync=True)
    listen = traitlets.List(traitlets.Unicode(), default_value=[]).tag(sync=True)
    #: called with the key's name at each press
    handler = traitlets.Any(None)

    def vue_key_pressed(self, key: str) -> None:
        if self.handler is not None:
            self.handler(str(key))

"""The replay page: one self-contained HTML file that steps through a recorded deal.

Everything is inline: each position's SVG picture, the moves and the
agents' values as JSON, the style and a small script. A Content Security
Policy forbids any request, so the page works offline from disk and a test
can tell that it asks for nothing. Stepping: the buttons, or the arrow keys
(Home and End for the first and last position).
"""

from __future__ import annotations

import html
import json

__all__ = ["replay_html"]

_STYLE = """
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 16px; color: #1a1a1a;
       background: #f7f7f4; }
h1 { font-size: 20px; margin: 0 0 4px; }
.sub { margin: 0 0 10px; color: #555; }
nav { display: flex; gap: 6px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
nav button { font-size: 15px; padding: 4px 12px; }
#step { min-width: 90px; text-align: center; font-weight: bold; }
.hint { color: #666; font-size: 13px; }
main { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
#board svg { max-width: 100%; height: auto; border: 1px solid #ccc; border-radius: 6px; }
aside { min-width: 260px; max-width: 360px; }
#move { font-size: 16px; font-weight: bold; min-height: 1.3em; }
#trick-won { color: #1b7a3a; min-height: 1.2em; }
table { border-collapse: collapse; margin-top: 6px; }
td, th { padding: 2px 8px; text-align: left; }
td.v { text-align: right; font-variant-numeric: tabular-nums; }
tr.chosen { background: #ffe9a8; font-weight: bold; }
#result { margin-top: 12px; padding: 8px 12px; background: #e6efe6; border-radius: 6px; }
"""

_SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var frames = [data.start].concat(data.moves.map(function (m) { return m.svg; }));
  var last = frames.length - 1;
  var at = 0;
  function el(id) { return document.getElementById(id); }
  function cell(row, text, cls, colour) {
    var td = document.createElement("td");
    td.textContent = text;
    if (cls) { td.className = cls; }
    if (colour) { td.style.color = colour; }
    row.appendChild(td);
  }
  function showValues(move) {
    var box = el("values");
    box.textContent = "";
    if (!move || !move.values) { return; }
    var title = document.createElement("p");
    title.textContent = "Seat " + move.seat + " (" + move.agent + ") considered, by " +
      move.values_name + ":";
    box.appendChild(title);
    var table = document.createElement("table");
    move.values.forEach(function (v) {
      var row = document.createElement("tr");
      if (v.chosen) { row.className = "chosen"; }
      row.setAttribute("data-action", v.label);
      cell(row, v.label, "a", v.colour);
      cell(row, v.value === null ? "no value" : v.value.toFixed(2), "v");
      cell(row, v.chosen ? "played" : "");
      table.appendChild(row);
    });
    box.appendChild(table);
  }
  function show(k) {
    at = Math.max(0, Math.min(last, k));
    var move = at > 0 ? data.moves[at - 1] : null;
    el("board").innerHTML = frames[at];
    el("step").textContent = at + " / " + last;
    el("move").textContent = move ? move.text : "The deal as dealt";
    el("trick-won").textContent =
      move && move.trick_won_by >= 0 ? "trick won by seat " + move.trick_won_by : "";
    showValues(move);
    el("result").hidden = at !== last;
    document.body.setAttribute("data-step", String(at));
  }
  el("first").onclick = function () { show(0); };
  el("prev").onclick = function () { show(at - 1); };
  el("next").onclick = function () { show(at + 1); };
  el("last").onclick = function () { show(last); };
  document.addEventListener("keydown", function (e) {
    var to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: last }[e.key];
    if (to !== undefined) { e.preventDefault(); show(to); }
  });
  show(0);
})();
"""


def _json_in_html(obj) -> str:
    """``obj`` as JSON that cannot end the ``<script>`` element it sits in."""
    return json.dumps(obj, ensure_ascii=False).replace("</", "<\\/")


def replay_html(replay) -> str:
    """The page of ``replay`` (a :class:`trickgym.replay.Replay`) as one HTML string."""
    game = replay.game
    e = html.escape
    seats = " · ".join(f"{s}: {a}" for s, a in enumerate(replay.agents))
    view = "every hand open" if replay.viewer is None else f"seat {replay.viewer}'s view"
    data = {
        "start": replay.start_svg,
        "moves": [
            {
                "seat": m.seat,
                "agent": m.agent,
                "action": m.action,
                "text": m.text,
                "svg": m.svg,
                "values": m.values,
                "values_name": m.values_name,
                "trick_won_by": m.trick_won_by,
            }
            for m in replay.moves
        ],
    }
    payoffs = " · ".join(f"seat {s}: {v:+d}" for s, v in enumerate(replay.payoffs))
    result = "".join(f"<p>{e(line)}</p>" for line in replay.result)
    title = f"{game.title} · seed {replay.seed}"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"
      content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>trickgym replay: {e(title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<h1>{e(title)}</h1>
<p class="sub">Agents {e(seats)} · {e(view)} · replay with
<code>trickgym replay --game {e(game.name)} --seed {replay.seed}</code></p>
<nav>
<button id="first" title="first position (Home)">&#xAB; First</button>
<button id="prev" title="back one move (&#x2190;)">&#x25C0; Back</button>
<span id="step">0 / {len(replay.moves)}</span>
<button id="next" title="next move (&#x2192;)">Next &#x25B6;</button>
<button id="last" title="last position (End)">Last &#xBB;</button>
<span class="hint">&#x2190; &#x2192; keys step, Home and End jump</span>
</nav>
<main>
<div id="board"></div>
<aside>
<p id="move"></p>
<p id="trick-won"></p>
<div id="values"></div>
</aside>
</main>
<section id="result" hidden>
<h2>Final result</h2>
<p id="payoffs">Payoffs: {e(payoffs)}</p>
<p id="scores">Scores: {e(" · ".join(str(v) for v in replay.scores))}</p>
{result}
</section>
<script type="application/json" id="replay-data">{_json_in_html(data)}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""

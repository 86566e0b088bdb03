"""One self-contained HTML file that steps through a game: board, panels and the log in words.

No network, no libraries: the page holds the starting board as inline SVG and, as JSON, each
frame's changes (the SVG of every hex that changed, deduplicated, and the panel snapshot when
it changed). Vanilla JavaScript applies them: next/previous, jump to an action id, click a log
line, arrow keys. The URL hash selects a frame (``game.html#action=79`` or ``#frame=12``) and
follows navigation, so a link, or a headless browser, can open any point of the game.
"""

from __future__ import annotations

import json
from typing import Any

import ferrovia.render.map_svg as map_svg
from ferrovia.render import geometry as g
from ferrovia.render.map_svg import MapState, hex_extras
from ferrovia.render.source import BoardSource, MapHex
from ferrovia.render.state_svg import StateView
from ferrovia.render.svg import el, escape
from ferrovia.render.tile_svg import draw_tile
from ferrovia.render.timeline import Frame, Timeline


def _cell_svg(board: BoardSource, hex_: MapHex, state: MapState) -> tuple[str, str]:
    """The inner SVG of one hex cell in ``state``, and the name of the tile shown."""
    from ferrovia.notation import models as m

    laid = state.tiles.get(hex_.coord)
    tile, colour, rotation, name = hex_.tile, hex_.color, 0, f"{hex_.coord}-printed"
    if laid is not None:
        keep = tuple(p for p in hex_.tile.parts if isinstance(p, m.Border | m.Icon))
        tile, colour, rotation = m.Tile(laid.tile.parts + keep), laid.color, laid.rotation
        name = laid.name or "?"
    icon_names = board.icon_names
    tile = map_svg._hide_removed_icons(tile, icon_names, state.removed_markers)
    extras = hex_extras(board, hex_, state, icon_names=icon_names)
    return draw_tile(tile, colour, rotation, extras, borders=False), name


class _Pool:
    """Unique JSON values by index: panels share the rows that did not change."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self._index: dict[str, int] = {}

    def add(self, value: Any) -> int:
        key = json.dumps(value, sort_keys=True, ensure_ascii=False)
        idx = self._index.setdefault(key, len(self.values))
        if idx == len(self.values):
            self.values.append(value)
        return idx


def _panel_json(view: StateView, rows: _Pool) -> dict[str, Any]:
    """A panel as references into the row pool (a company's row is stored once per change)."""
    data = view.to_json()
    return {
        "bank": data["bank"],
        "phase": data["phase"],
        "round": data["round"],
        "depot": rows.add(data["depot"]),
        "note": data["note"],
        "market": rows.add(data["market"]),
        "companies": [rows.add(c) for c in data["companies"]],
        "players": [rows.add(p) for p in data["players"]],
        "privates": rows.add(data["privates"]),
    }


def build_viewer_data(board: BoardSource, timeline: Timeline) -> dict[str, Any]:
    """The JSON the page embeds: frames with per-hex SVG changes and panel snapshots."""
    by_coord = {h.coord: h for h in board.hexes}
    svgs: list[str] = []
    svg_index: dict[str, int] = {}
    rows = _Pool()
    panels = _Pool()
    colors: dict[str, Any] = {}
    frames_out: list[dict[str, Any]] = []
    previous: Frame | None = None
    shown: dict[str, str] = {}  # coord -> the SVG the page shows for it so far
    # which private symbols can change a hex's drawing (markers, icons, reservations)
    relevant: dict[str, frozenset[str]] = {}
    icon_names = board.icon_names
    for h in board.hexes:
        syms = {icon_names.get(i.image, "") for i in h.tile.icons}
        syms |= {p.symbol for p in board.privates if h.coord in p.home_hexes}
        syms |= {p.symbol for p in board.privates for r in p.reservations if r[0] == h.coord}
        relevant[h.coord] = frozenset(syms)
    cache: dict[tuple[Any, ...], tuple[str, str]] = {}
    for frame in timeline.frames:
        changes: dict[str, list[Any]] = {}
        # a private closing changes markers and reservations without touching tiles or tokens
        ms, pms = frame.map_state, previous.map_state if previous else None
        board_wide = pms is None or ms.removed_markers != pms.removed_markers
        also: set[str] = set()
        if pms is not None and ms.reserved != pms.reserved:
            before, after = pms.reserved or {}, ms.reserved or {}
            also = {c for c in set(before) | set(after) if before.get(c) != after.get(c)}
        for coord, now in frame.hexes.items():
            if coord not in by_coord:
                continue
            same = previous is not None and previous.hexes.get(coord) == now
            if same and not board_wide and coord not in also:
                continue
            reserved = (ms.reserved or {}).get(coord) if ms.reserved is not None else None
            key = (
                coord,
                now,
                ms.removed_markers & relevant.get(coord, frozenset()),
                None
                if reserved is None
                else tuple(sorted((k, tuple(v)) for k, v in reserved.items())),
                ms.reserved is None,
            )
            if key not in cache:
                cache[key] = _cell_svg(board, by_coord[coord], frame.map_state)
            svg, name = cache[key]
            if previous is None:
                shown[coord] = svg  # the starting board is in the page already
                continue
            if shown.get(coord) == svg:
                continue
            shown[coord] = svg
            idx = svg_index.setdefault(svg, len(svgs))
            if idx == len(svgs):
                svgs.append(svg)
            changes[coord] = [idx, name]
        colors.update({k: list(v) for k, v in frame.view.colors.items()})
        pidx = panels.add(_panel_json(frame.view, rows))
        frames_out.append(
            {
                "id": frame.action_id,
                "text": frame.text,
                "heading": frame.view.heading,
                "hl": sorted(frame.map_state.highlight),
                "hexes": changes,
                "panel": pidx,
            }
        )
        previous = frame
    return {
        "title": timeline.title,
        "currency": board.currency,
        "note": timeline.note,
        "frames": frames_out,
        "svgs": svgs,
        "panels": panels.values,
        "rows": rows.values,
        "colors": colors,
    }


def _script_json(data: dict[str, Any]) -> str:
    # inside <script>, "</" would end the element; "<!--" could start a comment
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")


CSS = """
body{margin:0;font-family:Arial,Helvetica,sans-serif;background:#f4f1ea;color:#111}
header{position:sticky;top:0;background:#2b2b2b;color:#fff;padding:6px 10px;display:flex;
 gap:8px;align-items:center;flex-wrap:wrap;z-index:2}
header h1{font-size:16px;margin:0 12px 0 0}
header button{font-size:14px;padding:3px 10px}
header input[type=number]{width:6em}
header input[type=range]{flex:1;min-width:160px}
#status{font-size:13px;min-width:16em}
#current-text{padding:6px 10px;background:#fff8d0;border-bottom:1px solid #ccc;font-size:15px}
main{display:flex;gap:10px;padding:8px;align-items:flex-start}
#board{flex:0 1 auto;background:#fff;border:1px solid #ccc;overflow:auto;max-width:62vw;
 max-height:calc(100vh - 110px)}
#board svg{display:block}
#side{flex:1;display:flex;flex-direction:column;gap:8px;min-width:320px}
#panel,#log{background:#fff;border:1px solid #ccc;padding:6px 8px;font-size:13px}
#log{max-height:46vh;overflow:auto}
#log ol{margin:0;padding-left:4.2em}
#log li{cursor:pointer;padding:1px 2px}
#log li.current{background:#ffe27a;font-weight:bold}
#log li:hover{background:#eef}
table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:2px 4px;text-align:left;vertical-align:top}
.chip{display:inline-block;border-radius:9px;padding:0 6px;font-weight:bold;border:1px solid #000}
.note{color:#a00}
.market-cell{display:inline-block;vertical-align:top;margin:0 4px 4px 0;text-align:center}
.market-cell b{display:block;background:#eee;border:1px solid #999;padding:0 4px}
"""

JS = r"""
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('frames-data').textContent);
  var frames = data.frames, svgs = data.svgs, panels = data.panels, rows = data.rows;
  var colors = data.colors;
  var SVGNS = 'http://www.w3.org/2000/svg';
  var HL_POINTS = '95,0 47.5,82.27 -47.5,82.27 -95,0 -47.5,-82.27 47.5,-82.27';
  // coord -> [[frame, svg index, tile name], ...] in frame order; -1 = as printed
  var timelines = {};
  frames.forEach(function (f, i) {
    Object.keys(f.hexes).forEach(function (c) {
      var list = timelines[c] || (timelines[c] = [[-1, -1, c + '-printed']]);
      list.push([i, f.hexes[c][0], f.hexes[c][1]]);
    });
  });
  var printed = {}, shown = {}, current = -1;
  Object.keys(timelines).forEach(function (c) {
    var cell = document.getElementById('hex-' + c);
    if (cell) printed[c] = cell.innerHTML;
  });
  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function money(v) {
    return v === null || v === undefined ? '' : (data.currency || 'P%d').replace('%d', v);
  }
  function chip(sym, colors) {
    var c = colors[sym] || ['#666', 'white'];
    var s = el('span', sym, 'chip');
    s.style.background = c[0];
    s.style.color = c[1];
    return s;
  }
  function row(cells) {
    var r = el('tr');
    cells.forEach(function (c) {
      var td = el('td');
      if (typeof c === 'string') td.textContent = c; else td.appendChild(c);
      r.appendChild(td);
    });
    return r;
  }
  function panel(i) {
    var q = panels[i];
    function row(r) { return rows[r]; }
    return {bank: q.bank, phase: q.phase, round: q.round, depot: rows[q.depot], note: q.note,
      market: rows[q.market],
      companies: q.companies.map(row), players: q.players.map(row), privates: rows[q.privates]};
  }
  function drawPanel(p) {
    var box = $('panel');
    box.textContent = '';
    var bank = p.bank === null ? 'Bank: not tracked' : 'Bank ' + money(p.bank);
    var head = el('div', bank + (p.phase ? '   Phase ' + p.phase : ''));
    head.id = 'bank';
    box.appendChild(head);
    if (p.round) {
      var rd = el('div', p.round);
      rd.id = 'round';
      box.appendChild(rd);
    }
    if (p.depot && p.depot.length) {
      var dp = el('div', 'Trains for sale: ' + p.depot.map(function (d) {
        return d[0] + ' \u00d7' + d[1];
      }).join(', '));
      dp.id = 'depot';
      box.appendChild(dp);
    }
    if (p.note) box.appendChild(el('div', p.note, 'note'));
    if (p.market.length) {
      box.appendChild(el('h3', 'Stock market (first arrived on top)'));
      var m = el('div');
      m.id = 'market';
      p.market.forEach(function (cell) {
        var d = el('div', undefined, 'market-cell');
        d.appendChild(el('b', money(cell.price)));
        cell.companies.forEach(function (s) {
          d.appendChild(chip(s, colors));
          d.appendChild(el('br'));
        });
        m.appendChild(d);
      });
      box.appendChild(m);
    }
    var started = p.companies.filter(function (c) { return c.status !== 'not started'; });
    if (started.length) {
      box.appendChild(el('h3', 'Companies'));
      var t = el('table');
      t.id = 'companies';
      var hr = el('tr');
      ['', 'Treasury', 'Price', 'Trains', 'Shares', 'Director'].forEach(function (h) {
        hr.appendChild(el('th', h));
      });
      t.appendChild(hr);
      started.forEach(function (c) {
        var name = el('span');
        name.appendChild(chip(c.sym, colors));
        if (c.status) name.appendChild(el('span', ' ' + c.status));
        var price = c.price === null ? '' : money(c.price) + ' (par ' + money(c.par) + ')';
        var shares = c.shares.map(function (s) { return s[0] + ' ' + s[1] + '%'; });
        t.appendChild(row([name, money(c.treasury), price, c.trains.join(' '),
          shares.join(', '), c.director || '']));
      });
      box.appendChild(t);
    }
    if (p.players.length) {
      box.appendChild(el('h3', 'Players'));
      var pt = el('table');
      pt.id = 'players';
      p.players.forEach(function (pl) {
        pt.appendChild(row([pl.name + (pl.priority ? ' (priority)' : ''), money(pl.cash),
          pl.certificates.join(', ')]));
      });
      box.appendChild(pt);
    }
    if (p.privates.length) {
      box.appendChild(el('h3', 'Private railways'));
      var text = p.privates.map(function (x) { return x[0] + ': ' + x[1]; });
      box.appendChild(el('div', text.join(', ')));
    }
  }
  function entryAt(c, k) {
    var list = timelines[c], lo = 0, hi = list.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (list[mid][0] <= k) lo = mid; else hi = mid - 1;
    }
    return list[lo];
  }
  function highlight(coords) {
    var layer = $('highlights');
    layer.textContent = '';
    coords.forEach(function (c) {
      var cell = $('hex-' + c);
      if (!cell) return;
      var poly = document.createElementNS(SVGNS, 'polygon');
      var attrs = {points: HL_POINTS, transform: cell.getAttribute('transform'), fill: 'none',
        stroke: '#d0006f', 'stroke-width': '8', 'stroke-dasharray': '14 8',
        'class': 'highlight'};
      Object.keys(attrs).forEach(function (a) { poly.setAttribute(a, attrs[a]); });
      layer.appendChild(poly);
    });
  }
  function go(k) {
    k = Math.max(0, Math.min(frames.length - 1, k | 0));
    Object.keys(timelines).forEach(function (c) {
      var entry = entryAt(c, k);
      if (shown[c] === entry[1]) return;
      var cell = $('hex-' + c);
      if (!cell) return;
      cell.innerHTML = entry[1] < 0 ? printed[c] : svgs[entry[1]];
      cell.setAttribute('data-tile', entry[2]);
      shown[c] = entry[1];
    });
    var f = frames[k];
    highlight(f.hl);
    if (current < 0 || frames[current].panel !== f.panel) drawPanel(panel(f.panel));
    $('current-text').textContent = f.text;
    var where = f.id === null ? 'Start' : 'Action ' + f.id;
    $('status').textContent = where + ' (step ' + k + ' of ' + (frames.length - 1) + ')';
    $('heading').textContent = f.heading;
    $('slider').value = k;
    $('jump').value = f.id === null ? '' : f.id;
    var items = $('log-list').children;
    if (current >= 0 && items[current]) items[current].className = '';
    if (items[k]) {
      items[k].className = 'current';
      var log = $('log');
      var top = items[k].offsetTop - log.offsetTop;
      if (top < log.scrollTop || top > log.scrollTop + log.clientHeight - 30) {
        log.scrollTop = Math.max(0, top - log.clientHeight / 2);
      }
    }
    current = k;
    var hash = f.id === null ? '#frame=' + k : '#action=' + f.id;
    if (location.hash !== hash) history.replaceState(null, '', hash);
    document.body.setAttribute('data-frame', String(k));
  }
  function frameForAction(id) {
    var best = 0;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].id !== null && frames[i].id <= id) best = i;
    }
    return best;
  }
  function fromHash() {
    var a = /action=(\d+)/.exec(location.hash), n = /frame=(\d+)/.exec(location.hash);
    if (a) return frameForAction(parseInt(a[1], 10));
    if (n) return parseInt(n[1], 10);
    return null;
  }
  var list = $('log-list');
  frames.forEach(function (f, i) {
    var li = el('li', f.text);
    li.value = i;
    li.setAttribute('data-frame', i);
    li.addEventListener('click', function () { go(i); });
    list.appendChild(li);
  });
  $('slider').max = frames.length - 1;
  $('prev').addEventListener('click', function () { go(current - 1); });
  $('next').addEventListener('click', function () { go(current + 1); });
  $('first').addEventListener('click', function () { go(0); });
  $('last').addEventListener('click', function () { go(frames.length - 1); });
  $('slider').addEventListener('input', function (e) { go(parseInt(e.target.value, 10)); });
  $('jump-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var v = parseInt($('jump').value, 10);
    if (!isNaN(v)) go(frameForAction(v));
  });
  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'INPUT') return;
    if (e.key === 'ArrowRight') go(current + 1);
    else if (e.key === 'ArrowLeft') go(current - 1);
  });
  window.addEventListener('hashchange', function () {
    var k = fromHash();
    if (k !== null && k !== current) go(k);
  });
  var board = $('board-svg'), baseW = parseFloat(board.getAttribute('width'));
  var baseH = parseFloat(board.getAttribute('height')), zoom = 1;
  function setZoom(z) {
    zoom = Math.max(0.4, Math.min(3, z));
    board.setAttribute('width', String(baseW * zoom));
    board.setAttribute('height', String(baseH * zoom));
  }
  $('zoom-in').addEventListener('click', function () { setZoom(zoom * 1.25); });
  $('zoom-out').addEventListener('click', function () { setZoom(zoom / 1.25); });
  var start = fromHash();
  go(start === null ? 0 : start);
  window.ferroviaViewer = {go: go, frames: frames.length,
    current: function () { return current; }};
})();
"""


def render_viewer(board: BoardSource, timeline: Timeline) -> str:
    """The viewer page for ``timeline`` as one HTML string."""
    data = build_viewer_data(board, timeline)
    first = timeline.frames[0].map_state if timeline.frames else MapState()
    frame, body = map_svg.render_map_body(board, first)
    scale = 0.5
    svg = el(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "id": "board-svg",
            "width": g.fmt(frame.width * scale),
            "height": g.fmt(frame.height * scale),
            "viewBox": " ".join(
                g.fmt(v) for v in (frame.min_x, frame.min_y, frame.width, frame.height)
            ),
        },
        [body, el("g", {"id": "highlights"})],
    )
    title = escape(timeline.title)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title><style>{CSS}</style></head><body>"
        "<header>"
        f'<h1 id="heading">{title}</h1>'
        '<button id="first" title="start">|&#x25C0;</button>'
        '<button id="prev" title="previous action (←)">&#x25C0; prev</button>'
        '<button id="next" title="next action (→)">next &#x25B6;</button>'
        '<button id="last" title="end">&#x25B6;|</button>'
        '<form id="jump-form"><label>action <input id="jump" type="number" min="0">'
        '</label> <button type="submit">go</button></form>'
        '<input id="slider" type="range" min="0" value="0">'
        '<span id="status"></span>'
        '<button id="zoom-out" title="smaller board">&#x2212;</button>'
        '<button id="zoom-in" title="larger board">+</button>'
        "</header>"
        '<div id="current-text"></div>'
        f'<main><div id="board">{svg}</div>'
        '<div id="side"><div id="panel"></div>'
        '<div id="log"><h3>Game log</h3><ol id="log-list" start="0"></ol></div></div></main>'
        f'<script type="application/json" id="frames-data">{_script_json(data)}</script>'
        f"<script>{JS}</script>"
        "</body></html>\n"
    )

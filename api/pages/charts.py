"""Charts drawn on the server as inline SVG: no JavaScript, no file or font from elsewhere.

    balance_chart(series) -> "<svg ...>...</svg>"

A pure function of the series (ledger/domain/series.py: the players, and each player's
balance at the start, after every deal and at the end). Every series has its own colour, dash
pattern and marker shape, and its name is written at the end of its line and in the legend,
so no one needs to tell colours apart (WCAG 1.4.1). Text is drawn in `currentColor`, so the
page's colour scheme (light, dark, print) applies; the series' colours are classes (`s0`,
`s1`, ...) a stylesheet may restyle, with presentation attributes as the default.
Every name is escaped: a player's name is user input.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import escape

# Okabe & Ito's palette, told apart by people with any colour vision deficiency.
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#666666",
           "#8a6d00", "#5d3a9b")
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "12 4", "2 6", "6 2 2 2 2 2", "1 2")
MARKERS = ("circle", "square", "triangle", "diamond", "down", "plus", "cross", "bar", "star")
WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 52, 110, 18, 38
MARKERS_UP_TO = 40  # more points than this: a marker at the last point only
LABEL_GAP = 13  # the least vertical distance between two end labels
LEGEND_PER_ROW = 6


def nice_ticks(low: float, high: float, most: int = 6) -> list[int]:
    """Round integer ticks covering low..high, at most about `most` of them."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(most - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    step = max(1, int(step))
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return list(range(int(first), int(last) + 1, step))


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("\u2212" + str(-n) if n < 0 else "0")


def _marker(kind: str, x: float, y: float, r: float = 3.6) -> str:
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}"/>'
    if kind == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}"/>'
    shapes = {
        "triangle": [(0, -1.2), (1.1, 0.9), (-1.1, 0.9)],
        "down": [(0, 1.2), (1.1, -0.9), (-1.1, -0.9)],
        "diamond": [(0, -1.3), (1.2, 0), (0, 1.3), (-1.2, 0)],
        "star": [(0, -1.4), (0.4, -0.4), (1.4, -0.4), (0.6, 0.2), (0.9, 1.2), (0, 0.6),
                 (-0.9, 1.2), (-0.6, 0.2), (-1.4, -0.4), (-0.4, -0.4)],
    }
    if kind in shapes:
        pts = " ".join(f"{x + dx * r:.1f},{y + dy * r:.1f}" for dx, dy in shapes[kind])
        return f'<polygon points="{pts}"/>'
    if kind == "plus":
        return (f'<path d="M{x - r:.1f} {y:.1f}H{x + r:.1f}M{x:.1f} {y - r:.1f}V{y + r:.1f}" '
                f'fill="none" stroke-width="2.4"/>')
    if kind == "cross":
        return (f'<path d="M{x - r:.1f} {y - r:.1f}L{x + r:.1f} {y + r:.1f}M{x - r:.1f} '
                f'{y + r:.1f}L{x + r:.1f} {y - r:.1f}" fill="none" stroke-width="2.4"/>')
    return f'<rect x="{x - r:.1f}" y="{y - r / 2:.1f}" width="{2 * r:.1f}" height="{r:.1f}"/>'


def _spread(wanted: list[tuple[float, int]], low: float, high: float) -> dict[int, float]:
    """End labels' heights: as wanted, pushed apart to LABEL_GAP, kept within low..high."""
    placed: list[list[float]] = []  # [y, index]
    for y, i in sorted(wanted):
        y = max(y, low)
        if placed and y - placed[-1][0] < LABEL_GAP:
            y = placed[-1][0] + LABEL_GAP
        placed.append([y, i])
    overflow = placed[-1][0] - high if placed else 0
    if overflow > 0:
        for item in placed:
            item[0] -= overflow
    return {int(i): y for y, i in placed}


def balance_chart(series: Mapping[str, Any], *, unit: str = "units",
                  chart_id: str = "balance-chart") -> str:
    """Each player's balance (in `unit`) after every deal: an SVG line chart with axes, the
    zero line, a legend and each line's name and last figure at its end."""
    players: Sequence[str] = series["players"]
    points: Sequence[Mapping[str, Any]] = series["points"]
    n = len(points)
    values = [p["balances"].get(name, 0) for p in points for name in players] or [0]
    ticks = nice_ticks(min(0, *values), max(0, *values))
    y_low, y_high = ticks[0], ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_at(i: int) -> float:
        return LEFT + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y_at(v: float) -> float:
        return TOP + plot_h * (y_high - v) / (y_high - y_low)

    legend_rows = math.ceil(len(players) / LEGEND_PER_ROW)
    height = HEIGHT + 18 * legend_rows
    uid = escape(chart_id)
    unit_text = escape(unit)
    finals = {name: points[-1]["balances"].get(name, 0) if points else 0 for name in players}
    deals = sum(1 for p in points if p["deal_no"])
    summary = "; ".join(f"{name} {_signed(finals[name])}" for name in players)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{uid}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="{uid}-title {uid}-desc" '
        f'font-family="system-ui, sans-serif" font-size="11" data-series="{len(players)}">',
        f'<title id="{uid}-title">Balance of each player after every deal, in {unit_text}'
        f'</title>',
        f'<desc id="{uid}-desc">{deals} deals. At the last point: {escape(summary)}.</desc>',
    ]
    # the grid and the y axis
    out.append('<g class="grid" stroke="currentColor" stroke-opacity="0.18">')
    for t in ticks:
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y_at(t):.1f}" '
                   f'y2="{y_at(t):.1f}"/>')
    out.append("</g>")
    out.append('<g class="axis" fill="currentColor" text-anchor="end">')
    for t in ticks:
        out.append(f'<text x="{LEFT - 6}" y="{y_at(t) + 4:.1f}">{_signed(t)}</text>')
    # the unit above the top of the plot, clear of the tick labels however wide they are
    out.append(f'<text x="{LEFT + 4}" y="{TOP - 6}" text-anchor="start">{unit_text}</text>')
    out.append("</g>")
    # the x axis: deal numbers, at most about ten labels
    step = max(1, math.ceil(n / 10))
    out.append(f'<g class="axis" fill="currentColor" text-anchor="middle">'
               f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{TOP + plot_h}" '
               f'y2="{TOP + plot_h}" stroke="currentColor"/>')
    for i, point in enumerate(points):
        if i % step == 0 or i == n - 1:
            out.append(f'<text x="{x_at(i):.1f}" y="{TOP + plot_h + 15}">'
                       f'{escape(str(point["label"]))}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{TOP + plot_h + 31}">deal</text></g>')
    # the zero line: solid and darker than the grid
    out.append(f'<line class="zero" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y_at(0):.1f}" '
               f'y2="{y_at(0):.1f}" stroke="currentColor" stroke-width="1.5"/>')
    # the series
    ends: list[tuple[float, int]] = []
    for k, name in enumerate(players):
        colour, dash, marker = (COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)],
                                MARKERS[k % len(MARKERS)])
        coords = [(x_at(i), y_at(p["balances"].get(name, 0))) for i, p in enumerate(points)]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g class="series s{k}" data-player="{escape(name)}" stroke="{colour}" '
                   f'fill="{colour}"><title>{escape(name)}</title>')
        out.append(f'<polyline points="{path}" fill="none" stroke-width="2"'
                   f'{dash_attr} stroke-linejoin="round"/>')
        shown = coords if n <= MARKERS_UP_TO else coords[-1:]
        out.extend(_marker(marker, x, y) for x, y in shown)
        out.append("</g>")
        if coords:
            ends.append((coords[-1][1], k))
    # each line's name and last figure at its end, pushed apart so none overlap
    heights = _spread(ends, TOP + 4, TOP + plot_h)
    out.append('<g class="end-labels" fill="currentColor">')
    for k, name in enumerate(players):
        if k in heights:
            out.append(f'<text x="{LEFT + plot_w + 8}" y="{heights[k] + 4:.1f}">'
                       f'{escape(name)} {_signed(finals[name])}</text>')
    out.append("</g>")
    # the legend: a sample of each line (colour, dash and marker) and its name
    out.append('<g class="legend" fill="currentColor">')
    for k, name in enumerate(players):
        row, col = divmod(k, LEGEND_PER_ROW)
        x, y = LEFT + col * (WIDTH - LEFT) // LEGEND_PER_ROW, HEIGHT + 4 + row * 18
        colour, dash, marker = (COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)],
                                MARKERS[k % len(MARKERS)])
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g class="series s{k}" stroke="{colour}" fill="{colour}">'
                   f'<line x1="{x}" x2="{x + 30}" y1="{y}" y2="{y}" stroke-width="2"'
                   f'{dash_attr}/>{_marker(marker, x + 15, y)}</g>')
        out.append(f'<text x="{x + 36}" y="{y + 4}">{escape(name)}</text>')
    out.append("</g></svg>")
    return "".join(out)

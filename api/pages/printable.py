"""Printable HTML pages drawn on the server: a session's statement and the club's books.

    render_statement(statement, series, explain=None, club=None) -> HTML
    render_club_page(club, standings, debts) -> HTML

Pure functions of the JSON shapes the API already serves (the statement of
`GET /sessions/<id>/statement`, `Ledger.balance_series`, the explain trail of
`GET /sessions/<id>/explain`, `GET /club`, `GET /standings`, `GET /debts`), rendered by Jinja
templates (api/pages/templates/pages/) with autoescaping on: every name is user input. A page is one
self-contained document: its stylesheet (api/pages/static/table/statement.css) is inlined and
allowed by its hash in the page's Content-Security-Policy (`DOCUMENT_CSP`, api/http/security.py);
its chart is inline SVG (api/pages/charts.py); no script, nothing loaded from anywhere.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from api.pages.charts import balance_chart
from ledger.domain.currencies import decimals

HERE = Path(__file__).parent
STYLESHEET = (HERE / "static" / "table" / "statement.css").read_text(encoding="utf-8")
STYLE_HASH = "sha256-" + base64.b64encode(
    hashlib.sha256(STYLESHEET.encode("utf-8")).digest()).decode("ascii")
# The pages' policy: their own inline stylesheet (by its hash) and nothing else at all.
DOCUMENT_CSP = (f"default-src 'none'; style-src '{STYLE_HASH}'; img-src data:; "
                "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
HTML_MIMETYPE = "text/html"

MINUS = "\u2212"

_env = Environment(loader=FileSystemLoader(HERE / "templates" / "pages"),
                   autoescape=select_autoescape(default=True, default_for_string=True),
                   trim_blocks=True, lstrip_blocks=True)


def signed(n: int | None) -> str:
    """+4, −12, 0 (a true minus sign, so a screen reader says "minus")."""
    if n is None:
        return ""
    return f"+{n}" if n > 0 else (MINUS + str(-n) if n < 0 else "0")


def money(minor: int | None, currency: str | None, *, sign: bool = False) -> str:
    """An amount in minor units as the currency writes it: 1250 GBP -> "12.50 GBP"."""
    if minor is None:
        return ""
    code = (currency or "").upper()
    places = decimals(code) if code != "UNITS" else 0
    whole, part = divmod(abs(minor), 10 ** places)
    text = f"{whole:,}" + (f".{part:0{places}d}" if places else "")
    lead = MINUS if minor < 0 else ("+" if sign and minor > 0 else "")
    return f"{lead}{text} {code or ''}".strip() if code != "UNITS" else f"{lead}{text} units"


_env.filters["signed"] = signed
_env.filters["money"] = money


def _category_label(category: str) -> str:
    if category == PENALTIES:
        return "Penalties"
    if category.startswith("penalty:"):
        return "Penalty: " + category.split(":", 1)[1].replace("-", " ")
    return CATEGORY_LABELS.get(category, category.replace("_", " ").capitalize())


# The statement's columns in the order of a deal (docs/rules.md §5 and §8); loos at the
# turn-up single are loos too.
CATEGORY_LABELS = {"deal": "Paid to deal", "ante": "Antes", "loo": "Loos",
                   "flush": "Flush loos", "trick": "Tricks", "pool_taken": "Pools taken",
                   "loo_released": "Loos released", "end_division": "End division"}
PENALTIES = "penalty:"  # the column of every offence's penalties
COLUMN_ORDER = ("deal", "ante", "loo", "flush", PENALTIES, "trick", "pool_taken",
                "loo_released", "end_division")
COLUMN_OF = {"single_loo": "loo"}
COUNTED = {"loo": "loos", "trick": "tricks", "pool_taken": "pools_taken"}


def _column_key(category: str) -> tuple[int, str]:
    for i, prefix in enumerate(COLUMN_ORDER):
        if category == prefix or (prefix.endswith(":") and category.startswith(prefix)):
            return i, category
    return len(COLUMN_ORDER), category


def _signed_categories(player: Mapping[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for category, units in player.get("paid_units", {}).items():
        key = COLUMN_OF.get(category, category)
        out[key] = out.get(key, 0) - units
    for category, units in player.get("received_units", {}).items():
        key = COLUMN_OF.get(category, category)
        out[key] = out.get(key, 0) + units
    return out


def _explained_line(categories: Mapping[str, int]) -> str:
    """"paid 15 (deal 3, loos 12), received 3 (tricks 3)": what a net is made of."""
    paid = [(c, -u) for c, u in categories.items() if u < 0]
    got = [(c, u) for c, u in categories.items() if u > 0]
    parts = []
    for word, items in (("paid", paid), ("received", got)):
        if items:
            inner = ", ".join(f"{_category_label(c).lower()} {u}"
                              for c, u in sorted(items, key=lambda x: _column_key(x[0])))
            parts.append(f"{word} {sum(u for _, u in items)} ({inner})")
    return "; ".join(parts) or "no movement"


def _deals(numbers: set[int]) -> str:
    """"7", or "1–200 (57 deals)": the deals a row's postings were made in."""
    if len(numbers) <= 1:
        return "".join(str(n) for n in numbers)
    return f"{min(numbers)}\u2013{max(numbers)} ({len(numbers)} deals)"


def _by_rule(postings: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A figure's postings summed per kind, direction and rule, in the order each first
    moved: the page says where a figure comes from in a few rows, whatever the session's
    length (the posting-by-posting trail is GET /sessions/<id>/explain)."""
    rows: dict[tuple[Any, ...], dict[str, Any]] = {}
    for p in postings:
        rule = p.get("rule") or {}
        # a rule is always the same five keys in the same order (explain's Rule.to_dict)
        key = (p["category"], p.get("offence"), p["from"], p["to"], *rule.values())
        row = rows.get(key)
        if row is None:
            row = rows[key] = {"category": p["category"], "offence": p.get("offence"),
                               "from": p["from"], "to": p["to"], "rule": p.get("rule"),
                               "postings": 0, "signed_units": 0, "deal_numbers": set()}
        row["postings"] += 1
        row["signed_units"] += p["signed_units"]
        if p.get("deal_no") is not None:
            row["deal_numbers"].add(p["deal_no"])
    return [{**row, "deals": _deals(row.pop("deal_numbers"))} for row in rows.values()]


def statement_context(statement: Mapping[str, Any], series: Mapping[str, Any] | None,
                      explain: Mapping[str, Any] | None = None,
                      club: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What the statement's template shows, worked out from the JSON shapes."""
    players = statement["players"]
    counts = (series or {}).get("counts", {})
    by_player = {p["player"]: _signed_categories(p) for p in players}
    # every offence in one column, each named in its cell: a normal sheet stays A4-wide
    columns = sorted({PENALTIES if c.startswith("penalty:") else c
                      for cats in by_player.values() for c in cats}, key=_column_key)
    currency = statement.get("currency")
    per_unit = statement.get("money_per_unit_minor")
    rows = []
    for p in players:
        cats = by_player[p["player"]]
        cells = []
        for c in columns:
            counted = COUNTED.get(c)
            if c == PENALTIES:
                offences = sorted((k.split(":", 1)[1].replace("-", " "), u)
                                  for k, u in cats.items() if k.startswith("penalty:"))
                cells.append({"units": sum(u for _, u in offences), "count": None,
                              "offences": offences})
                continue
            cells.append({"units": cats.get(c, 0), "offences": [],
                          "count": counts.get(p["player"], {}).get(counted) if counted else None})
        rows.append({**p, "cells": cells, "explained": _explained_line(cats)})
    owing = [{"player": p["player"], "net_units": p["net_units"],
              "net_money_minor": p["net_money_minor"],
              "owed_money_minor": abs(p["net_money_minor"] or 0), "explained": _explained_line(
                  by_player[p["player"]])} for p in players]
    figures = [{**f, "count": len(f["postings"]), "rows": _by_rule(f["postings"])}
               for f in (explain or {}).get("figures", [])]
    # a player's line links to his figure's trail (the details' ids follow the figures)
    anchors = {f["account"]: f"explain-{i}" for i, f in enumerate(figures, start=1)
               if f.get("kind") == "player"}
    chart, chart_rows = None, []
    if series and series.get("points"):
        chart = Markup(balance_chart(series, unit=f"{statement.get('unit') or 'unit'}s"))
        # the chart's figures as a table: each point's label and its signed balances
        chart_rows = [(point["label"], [signed(point["balances"][p]) for p in series["players"]])
                      for point in series["points"]]
    return {
        "s": statement, "club": club, "columns": [
            {"key": c, "label": _category_label(c), "counted": c in COUNTED} for c in columns],
        "rows": rows, "owing": owing, "currency": currency, "per_unit": per_unit,
        "unit": statement.get("unit") or "unit", "chart": chart, "chart_rows": chart_rows,
        "series": series,
        "explain": explain, "figures": figures, "anchors": anchors,
        "stylesheet": Markup(STYLESHEET), "category_label": _category_label,
    }


def render_statement(statement: Mapping[str, Any], series: Mapping[str, Any] | None = None,
                     explain: Mapping[str, Any] | None = None,
                     club: Mapping[str, Any] | None = None) -> str:
    """The statement as one printable HTML document (no script); `explain` (the shape of
    `GET /sessions/<id>/explain`) adds, under each player's line, the postings behind it
    summed per rule."""
    return _env.get_template("statement.html").render(
        **statement_context(statement, series, explain, club))


def _totals(amounts: Iterable[Mapping[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for by_currency in amounts:
        for code, minor in by_currency.items():
            out[code] = out.get(code, 0) + minor
    return dict(sorted(out.items()))


def render_club_page(club: Mapping[str, Any], standings: Mapping[str, Any],
                     debts: Mapping[str, Any], payables: Mapping[str, Any] | None = None,
                     cash_checks: Sequence[Mapping[str, Any]] | None = None) -> str:
    """The club's books: the season's standings per member (`GET /standings`), the open
    debts (`GET /debts`) and what the club owes (`GET /payables`), oldest first, as one
    printable HTML document. Nets are in money per currency: units of sessions played at
    different values (5p, 10p) are never added together; only sessions played for counters
    show a net in units. `cash_checks` (Books.cash_checks) are the tins last counted."""
    members: Sequence[Mapping[str, Any]] = standings.get("members", [])
    currencies = sorted({c for m in members for c in (m.get("net_minor") or {})})
    payables = payables or {}
    return _env.get_template("club.html").render(
        club=club, club_name=club.get("club") or club.get("name") or "The club",
        members=members, currencies=currencies,
        net_totals=_totals(m.get("net_minor") or {} for m in members),
        debts=debts.get("debts", []), debt_totals=dict(sorted(
            (debts.get("totals") or {}).items())),
        as_of=standings.get("as_of"), cash_checks=cash_checks,
        payables=payables.get("payables", []), payable_totals=dict(sorted(
            (payables.get("totals") or {}).items())),
        stylesheet=Markup(STYLESHEET))


def render_member_page(club: Mapping[str, Any], account: Mapping[str, Any],
                       played: Sequence[Mapping[str, Any]],
                       parts: Sequence[Mapping[str, Any]], *, more: int = 0,
                       as_of: Mapping[str, Any] | None = None,
                       money: Sequence[Mapping[str, Any]] = (), more_money: int = 0) -> str:
    """A member's own page: his balance (`GET /members/<id>/account`), what is still open,
    the money that moved on his account (`MemberView.money`), the sessions he played
    (`GET /members/<id>/statements`) and his line of each (`.../statements/<session_id>`);
    nothing of any other member. One document, no script,
    narrow enough for a phone."""
    return _env.get_template("member.html").render(
        club_name=club.get("club") or "the club", account=account, played=played,
        parts=parts, shown={p["session_id"] for p in parts}, more=more, as_of=as_of,
        money_lines=money, more_money=more_money,
        category_label=_category_label, stylesheet=Markup(STYLESHEET))

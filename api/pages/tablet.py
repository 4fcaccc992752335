"""The dealer's tablet: a web app for logging a live game at the table, served by the API's own
app (no other server, nothing loaded from the internet).

    /table                   the dealer's screen (a pairing code, or a dealer token;
                             docs/tablet.md); /table#pair=<code> signs in from a QR code
    /table/live              the treasurer's live view: pool, balances, loos, the last deal,
                             a pairing code for a new tablet
    /table/statement         a session's printable statement (#s=<id>), fetched with the token
    /table/member            a member's own page: the link a treasurer sends him carries his
                             member token in the fragment (#token=...), never the query
    /table/manifest.webmanifest, /table/icon-*.png, /table/icon.svg   home-screen install
    /table/sw.js             the service worker: the app shell loads with no connection
    /table/static/...        the app's ES modules and styles (api/pages/static/table)

A plain Flask blueprint: pages and files, not API operations, so they stay out of the OpenAPI
document. The pages are public (they hold no data); everything they show comes from the API
with the bearer token the device keeps. Their Content-Security-Policy (api/http/security.py) lets
them load only their own files.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, json, render_template, url_for

from api.http.security import PAGES_PREFIX
from api.pages.icons import SVG, png

HERE = Path(__file__).parent
STATIC = HERE / "static" / "table"
# Bump with any change to the shell's files: the service worker keeps one cache per version.
SHELL_VERSION = "6"
ICON_SIZES = (192, 512)

blp = Blueprint("web", __name__, url_prefix=PAGES_PREFIX, static_folder=str(STATIC),
                static_url_path="/static")


def shell_files() -> list[str]:
    """What the service worker caches: the pages and every file they load."""
    files = [url_for("web.table"), url_for("web.live"), url_for("web.statement"),
             url_for("web.club"), url_for("web.member"),
             url_for("web.manifest"), url_for("web.icon_svg")]
    files += [url_for("web.icon", size=s) for s in ICON_SIZES]
    files += [url_for("web.static", filename=p.name) for p in sorted(STATIC.iterdir())
              if p.suffix in (".js", ".css") and p.name != "sw.js"]
    return files


@blp.get("")
def table() -> str:
    return render_template("table.html", version=SHELL_VERSION)


@blp.get("/live")
def live() -> str:
    return render_template("live.html", version=SHELL_VERSION)


@blp.get("/statement")
def statement() -> str:
    """The statement's shell: it fetches GET /sessions/<id>/statement?format=html with the
    device's token (a navigation cannot carry it) and shows the page, with a Print button."""
    return render_template("statement_shell.html", version=SHELL_VERSION, page="statement")


@blp.get("/club")
def club() -> str:
    """The club's books (standings and open debts), fetched by the same shell from
    GET /standings?format=html."""
    return render_template("statement_shell.html", version=SHELL_VERSION, page="club")


@blp.get("/member")
def member() -> str:
    """A member's own page: its script takes the member token from the address's fragment
    (#token=..., which no browser sends to a server), keeps it on the device, drops it from
    the address and fetches GET /members/<his id>/account?format=html with it."""
    return render_template("member_shell.html", version=SHELL_VERSION)


@blp.get("/manifest.webmanifest")
def manifest() -> Response:
    body = {
        "name": "Lanterloo: the dealer's tablet",
        "short_name": "Lanterloo",
        "description": "Log a game of Loo at the table: deals, declarations, cards, tricks, "
                       "penalties; the ledger decides every amount.",
        "start_url": url_for("web.table"),
        "scope": PAGES_PREFIX,
        "display": "standalone",
        "orientation": "any",
        "background_color": "#0b4f35",
        "theme_color": "#0b4f35",
        "icons": [{"src": url_for("web.icon", size=s), "sizes": f"{s}x{s}",
                   "type": "image/png", "purpose": "any maskable"} for s in ICON_SIZES]
        + [{"src": url_for("web.icon_svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    return Response(json.dumps(body), mimetype="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


@blp.get("/icon-<int:size>.png")
def icon(size: int) -> Response:
    if size not in ICON_SIZES:
        abort(404)
    return Response(png(size), mimetype="image/png", headers={"Cache-Control": "max-age=86400"})


@blp.get("/icon.svg")
def icon_svg() -> Response:
    return Response(SVG, mimetype="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


@blp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, with the shell's file list and version written in; allowed to
    control every page under /table (it is served from /table/, its default scope)."""
    files = ", ".join(f'"{f}"' for f in shell_files())
    head = f"const SHELL_VERSION = \"{SHELL_VERSION}\";\nconst SHELL = [{files}];\n"
    source = (STATIC / "sw.js").read_text(encoding="utf-8")
    return Response(head + source, mimetype="text/javascript", headers={
        "Cache-Control": "no-cache", "Service-Worker-Allowed": PAGES_PREFIX})

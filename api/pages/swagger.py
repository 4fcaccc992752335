"""/docs without the internet: Swagger UI served from a Python package (flask-swagger-ui ships
its `dist` files), so a club's network needs no route out for the API docs to load.

flask-smorest renders `swagger_ui.html`; the app's own template
(api/pages/templates/swagger_ui.html) takes its place: no inline script (the page's
Content-Security-Policy is 'self' only), the settings passed to api/pages/static/docs/init.js in
data attributes.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, send_from_directory

ASSETS_PATH = "/docs/assets/"
HERE = Path(__file__).parent


def swagger_ui_dist() -> Path:
    """The folder of Swagger UI's files inside the installed flask-swagger-ui package."""
    import flask_swagger_ui

    return Path(flask_swagger_ui.__file__).parent / "dist"


# A plain Flask blueprint: these files are not part of the API, so not in its OpenAPI document.
blp = Blueprint("docs_assets", __name__)
ALLOWED = frozenset({"swagger-ui.css", "swagger-ui-bundle.js",
                     "swagger-ui-standalone-preset.js", "favicon-32x32.png",
                     "favicon-16x16.png", "LICENSE", "VERSION"})


@blp.get(ASSETS_PATH + "<path:filename>")
def asset(filename: str) -> Response:
    if filename not in ALLOWED:
        abort(404)
    return send_from_directory(swagger_ui_dist(), filename, max_age=86400)


@blp.get("/docs/init.js")
def init() -> Response:
    return send_from_directory(HERE / "static" / "docs", "init.js", max_age=3600)

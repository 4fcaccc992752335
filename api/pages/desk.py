"""The club's desk: the admin's, the treasurer's and the auditor's jobs in a browser
(docs/desk.md), served by the API's own app, nothing loaded from the internet.

    /desk                    the desk: signs in from a link (/desk#signin=<code>, the code in
                             the fragment, which no browser sends), then the rooms of the
                             role the link gave
    /desk/static/...         its ES modules and styles (api/pages/static/desk)

A plain Flask blueprint, outside the OpenAPI document. The page is public (it holds no data):
everything it shows comes from the API with the bearer token the browser keeps after signing
in (POST /signin). Its Content-Security-Policy is the tablet's (api/http/security.py).
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, render_template

from api.http.security import DESK_PREFIX

HERE = Path(__file__).parent
STATIC = HERE / "static" / "desk"

blp = Blueprint("desk", __name__, url_prefix=DESK_PREFIX, static_folder=str(STATIC),
                static_url_path="/static")


@blp.get("")
def desk() -> str:
    return render_template("desk.html")

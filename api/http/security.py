"""Headers every response carries, whatever route or error produced it (OWASP API Top 10).

- `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY`;
- `Content-Security-Policy`: nothing may load (`default-src 'none'`) except on /docs, whose
  Swagger UI page loads its scripts and styles from the app itself (api/pages/swagger.py; from
  LOO_SWAGGER_UI_URL's origin if that names another) and no inline script, and on the tablet's
  pages under /table (api/pages/tablet.py) and the desk under /desk (api/pages/desk.py),
  which load their own files only ('self') and talk to the
  API of the same origin, and on the printable pages the API serves as HTML (api/pages/printable.py:
  a statement), which may use their own inline stylesheet (allowed by its hash) and nothing
  else;
- `Cache-Control: no-store` on every response to a request that carried credentials, so no
  cache keeps a club's data or a freshly shown token.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, request

from api.pages.printable import DOCUMENT_CSP, HTML_MIMETYPE

API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"


# The tablet's pages (api/pages/tablet.py): their own scripts, styles, icons, manifest and service
# worker, and fetch() to the API of the same origin; nothing inline, nothing from elsewhere.
PAGES_PREFIX = "/table"
PAGES_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
             "connect-src 'self'; manifest-src 'self'; worker-src 'self'; "
             "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


def docs_csp(swagger_ui_url: str | None) -> str:
    """/docs: Swagger UI's files from the app ('self'), or from LOO_SWAGGER_UI_URL's origin
    when it names another; its settings are passed in data attributes, so no inline script."""
    parts = urlsplit(swagger_ui_url or "")
    origin = f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""
    assets = f"'self' {origin}".strip()
    return (f"default-src 'none'; script-src {assets}; style-src {assets}; "
            f"img-src 'self' data: {origin}".strip()
            + "; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
              "form-action 'none'")


DESK_PREFIX = "/desk"  # the club's desk (api/pages/desk.py), under the same policy


def _on_pages(path: str) -> bool:
    return any(path == prefix or path.startswith(prefix + "/")
               for prefix in (PAGES_PREFIX, DESK_PREFIX))


def install(app: Flask) -> None:
    docs_path = "/" + str(app.config.get("OPENAPI_SWAGGER_UI_PATH", "/docs")).strip("/")
    docs_policy = docs_csp(app.config.get("OPENAPI_SWAGGER_UI_URL"))

    @app.after_request
    def _security_headers(response: Response) -> Response:
        headers = response.headers
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "no-referrer")
        headers.setdefault("X-Frame-Options", "DENY")
        req = request._get_current_object()  # type: ignore[attr-defined]
        path = req.path
        on_docs = path.rstrip("/") == docs_path
        headers["Content-Security-Policy"] = (
            docs_policy if on_docs else PAGES_CSP if _on_pages(path)
            else DOCUMENT_CSP if response.mimetype == HTML_MIMETYPE else API_CSP)
        if "HTTP_AUTHORIZATION" in req.environ or response.status_code == 401:
            headers["Cache-Control"] = "no-store"
        return response

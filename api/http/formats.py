"""Content negotiation and CSV files: what a route that answers JSON, CSV or a printable page
reads from the query's `format` and the Accept header, and how a table goes out as a file."""

from __future__ import annotations

from flask import Response, request

from api.pages.printable import HTML_MIMETYPE

CSV_MIMETYPE = "text/csv"
JSON_MIMETYPE = "application/json"


def wanted_format(fmt: str | None) -> str:
    """json, csv or html: the query's `format`, else the best match of the Accept header
    (JSON for */*, so a client that names nothing gets what it always got)."""
    if fmt is not None:
        return fmt
    best = request.accept_mimetypes.best_match([JSON_MIMETYPE, CSV_MIMETYPE, HTML_MIMETYPE])
    return {CSV_MIMETYPE: "csv", HTML_MIMETYPE: "html"}.get(best or "", "json")


def wants_csv(fmt: str | None) -> bool:
    """For a route that serves JSON or CSV only: the query's `format`, else the Accept header."""
    if fmt is not None:
        return fmt == "csv"
    return request.accept_mimetypes.best_match([JSON_MIMETYPE, CSV_MIMETYPE]) == CSV_MIMETYPE


def csv_file(text: str, filename: str, *, bom: bool = False) -> Response:
    """One table as a CSV file; `bom` starts it with a UTF-8 byte order mark, which tells
    a spreadsheet the file is UTF-8."""
    return Response(("\ufeff" if bom else "") + text, mimetype=CSV_MIMETYPE, headers={
        "Content-Disposition": f'attachment; filename="{filename}"', "Vary": "Accept"})

"""The write protocol at the edge, for every route that writes (docs/api.md, "The write
protocol").

    request = write_request(precondition=session_id)     # what the write builds on
    return written(ledger().append(session_id, commands, request))

In: `If-Match` (a session version; it must agree with a batch's `expected_version`), an
`Idempotency-Key` and the request's fingerprint (method, path, body: what makes a retry
"the same"). A write to a session must say what it builds on: without If-Match (or
expected_version) and without a key it is a 428, after a 404 for a session that does not
exist. Out: the status, the `ETag` of the version written, `Idempotent-Replayed: true` for
a stored answer sent again, and with `Prefer: return=minimal` (where the route offers it)
the lean form.
"""

from __future__ import annotations

from typing import Any

from flask import Response

from api.http.actor import current_actor
from api.http.errors import ApiProblem
from api.http.inputs import (
    REPLAYED_HEADER,
    Blueprint,
    etag,
    fingerprint,
    header_params,
    idempotency_key,
    if_match_version,
    json_response,
    precondition_required,
    prefers_minimal,
    sent_json,
)
from api.schemas.base import ref
from ledger.domain import SessionNotFound
from ledger.writes import AppendResult, WriteRequest

MINIMAL = "return=minimal"

# Every write's answer may carry it: its documentation.
REPLAYED_DOC = {"description": "true when this is the stored answer to an earlier request "
                               "with the same Idempotency-Key",
                "schema": {"type": "string", "enum": ["true"]}}
# The book writes' documentation: the stored answer's header, the refusals, the body and answer.
ENTRY_HEADERS = {REPLAYED_HEADER: REPLAYED_DOC}
WRITE_ERRORS = ("BAD_REQUEST", "NOT_FOUND", "UNSUPPORTED_MEDIA_TYPE", "UNPROCESSABLE_ENTITY")


def write_doc(blp: Blueprint, schema: type, operation: str) -> Any:
    """A book write on `blp`: its body read by `schema` (given to the view as its first
    argument), its Idempotency-Key and its answer, one of the family BookEntry (typed by its
    `type`), documented."""
    def decorate(view: Any) -> Any:
        view = blp.arguments(schema)(view)
        return blp.doc(operationId=operation, parameters=header_params("Idempotency-Key"),
                       responses={201: {"content": {"application/json": {
                           "schema": ref("BookEntry")}}}})(view)
    return decorate


def errors(blp: Blueprint, *names: str) -> Any:
    """Document the refusals `names` (BAD_REQUEST, NOT_FOUND...) of a view of `blp`."""
    def decorate(view: Any) -> Any:
        for name in names:
            status = {"BAD_REQUEST": 400, "NOT_FOUND": 404, "CONFLICT": 409,
                      "UNSUPPORTED_MEDIA_TYPE": 415, "UNPROCESSABLE_ENTITY": 422}[name]
            view = blp.alt_response(status, response=name)(view)
        return view
    return decorate


def write_request(*, body_version: int | None = None, precondition: str | None = None,
                  default_key: str | None = None, body: Any = None) -> WriteRequest:
    """The protocol's inputs of this request. `precondition`: the id of the session the
    write builds on, when it must say what it builds on (428 otherwise). `default_key`: the
    key of a request sent without one (an import's, from its file), and `body` what stands
    for a body that is not JSON in the fingerprint (the file's digest)."""
    header_version = if_match_version()
    if body_version is not None and header_version is not None \
            and body_version != header_version:
        raise ApiProblem(400, "malformed-request",
                         f"If-Match says version {header_version} but expected_version "
                         f"says {body_version}", rule="expected-version",
                         field="expected_version")
    expected = body_version if body_version is not None else header_version
    key = idempotency_key() or default_key
    if precondition is not None and expected is None and key is None:
        from api.http.context import ledger

        if not ledger().session_exists(precondition):
            raise SessionNotFound(f"no session {precondition}", rule="session-exists",
                                  field="session_id")
        raise precondition_required()
    return WriteRequest(current_actor(), expected, key,
                        fingerprint(sent_json() if body is None else body, expected)
                        if key is not None else None)


def written(result: AppendResult, *, status: int = 201, minimal: bool = False,
            headers: dict[str, str] | None = None) -> Response:
    """The answer to a write: its body (the lean form for Prefer: return=minimal where the
    route offers it), the ETag of a session's version, and whether it is a replay."""
    body = result.body
    out = dict(headers or {})
    if "version" in body and "session_id" in body:
        out["ETag"] = etag(int(body["version"]))
    if result.replayed:
        out[REPLAYED_HEADER] = "true"
    if minimal:
        out["Vary"] = "Prefer"
        if prefers_minimal():
            body = lean(body)
            out["Preference-Applied"] = MINIMAL
    return json_response(body, status, out)


def lean(body: dict[str, Any]) -> dict[str, Any]:
    """The lean form of an append's answer: what a client needs to carry on (the version for
    its next If-Match, the positions to read the log from), without the payloads and the
    session view. Derived from the full answer, so that a replay has the same lean form."""
    return {"session_id": body["session_id"], "version": body["version"],
            "appended": [{"position": e["position"], "version": e["version"], "type": e["type"]}
                         for e in body["appended"]]}


"""Events: what the table logs (appended under the rules), and the session's log, paged."""

from __future__ import annotations

from typing import Any

from flask import current_app, url_for
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import ValidationError

from ledger.domain import Command

from .actor import current_actor
from .backend import check_session_id, ledger, split_replay
from .errors import ApiProblem
from .inputs import REPLAYED_HEADER, fingerprint, idempotency_key, if_match_version, json_object
from .schemas import (
    EVENT_SCHEMAS,
    AppendResultSchema,
    EventBatchIn,
    EventsPageSchema,
    EventsQuery,
    money_field_in,
)
from .sessions import etag, header_params

blp = Blueprint("events", __name__, url_prefix="/sessions/<session_id>/events",
                description="Log what happens at the table; read the session's events.")
blp.url_value_preprocessor(check_session_id)

ACCEPTED = ", ".join(EVENT_SCHEMAS)


def _money_problem(key: str, where: str) -> ApiProblem:
    return ApiProblem(422, "money-from-client",
                      f"money amounts are decided by the rules, not sent by the client: "
                      f"remove {key!r}", rule="no-client-amounts", field=where)


def command_from(event: Any, where: str = "") -> Command:
    """One client event -> its domain command, or a problem naming the field at fault."""
    prefix = f"{where}." if where else ""
    if not isinstance(event, dict):
        raise ApiProblem(422, "validation-failed",
                         f"{where or 'the event'} must be a JSON object", rule="schema",
                         field=where or None)
    money = money_field_in(event)
    if money is not None:
        raise _money_problem(money, prefix + money)
    kind = event.get("type")
    if kind is None:
        raise ApiProblem(422, "validation-failed",
                         f"{prefix}type is missing: name the event, one of {ACCEPTED}",
                         rule="schema", field=prefix + "type", accepted=list(EVENT_SCHEMAS))
    schema = EVENT_SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise ApiProblem(422, "unknown-event-type",
                         f"unknown event type {kind!r}; accepted types: {ACCEPTED}",
                         rule="event-type", field=prefix + "type",
                         accepted=list(EVENT_SCHEMAS))
    try:
        return schema().load(event)
    except ValidationError as error:
        messages = error.messages
        if where:
            messages = {where: messages}
        raise ValidationError(messages) from None


def commands_from(body: dict[str, Any]) -> tuple[list[Command], int | None]:
    """A single event or a batch -> the commands and the expected version the body names."""
    if "events" not in body:
        return [command_from(body)], None
    money = money_field_in(body)
    if money is not None:
        raise _money_problem(money, money)
    batch = EventBatchIn().load(body)
    events = batch["events"]
    limit = int(current_app.config["MAX_BATCH_EVENTS"])
    if len(events) > limit:
        raise ApiProblem(413, "too-large",
                         f"a batch holds at most {limit} events; this one has {len(events)}",
                         rule="batch-limit", field="events")
    if not events:
        raise ApiProblem(422, "validation-failed", "events: a batch needs at least one event",
                         rule="schema", field="events")
    commands = [command_from(event, f"events.{i}") for i, event in enumerate(events)]
    return commands, batch["expected_version"]


@blp.route("")
class Events(MethodView):
    @blp.doc(
        requestBody={
            "required": True,
            "description": "One event, or a batch `{\"events\": [...], \"expected_version\": "
                           "12}` appended all or nothing. The expected version may also be "
                           "sent as the header `If-Match: \"12\"`. No event carries an amount: "
                           "the rules decide every amount.",
            "content": {"application/json": {"schema": {"oneOf": [
                *EVENT_SCHEMAS.values(), EventBatchIn]}}},
        },
        parameters=header_params("X-Actor", "Idempotency-Key", "If-Match"),
    )
    @blp.response(201, AppendResultSchema, headers={
        "ETag": {"description": "The session version after the append",
                 "schema": {"type": "string"}}})
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")
    @blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, session_id: str):
        """Append events

        Log what happened at the table, e.g. `{"type": "CardPlayed", "player": "C",
        "card": "QH"}`. The ledger checks it against the rules and appends it together with
        what the rules draw from it (a trick won, a deal settled, a breach detected);
        a refused event appends nothing, and a refused event in a batch appends none of it.
        """
        body = json_object()
        commands, body_version = commands_from(body)
        header_version = if_match_version()
        if body_version is not None and header_version is not None \
                and body_version != header_version:
            raise ApiProblem(400, "malformed-request",
                             f"If-Match says version {header_version} but expected_version "
                             f"says {body_version}", rule="expected-version",
                             field="expected_version")
        expected_version = body_version if body_version is not None else header_version
        key = idempotency_key()
        result = ledger().append(
            session_id, commands, expected_version=expected_version, actor=current_actor(),
            idempotency_key=key,
            fingerprint=fingerprint(body, expected_version) if key else None)
        data, replayed = split_replay(result)
        headers = {"ETag": etag(int(data["version"]))}
        if replayed:
            headers[REPLAYED_HEADER] = "true"
        return data, 201, headers

    @blp.arguments(EventsQuery, location="query", as_kwargs=True)
    @blp.response(200, EventsPageSchema, headers={
        "Link": {"description": "rel=\"next\": the next page", "schema": {"type": "string"}}})
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, session_id: str, after: int, limit: int):
        """Read the session's events, paged by global position

        Every event, the client's and those the rules drew from them, with its position,
        version, actor and time. Follow `next` (or the Link header) until it is null.
        """
        limit = min(limit, int(current_app.config["MAX_PAGE_EVENTS"]))
        page = dict(ledger().events(session_id, after_position=after, limit=limit))
        next_after = page.get("next_after")
        headers = {}
        page["next"] = None
        if next_after is not None:
            page["next"] = url_for("events.Events", session_id=session_id, after=next_after,
                                   limit=limit)
            headers["Link"] = f'<{page["next"]}>; rel="next"'
        return page, 200, headers

"""The HTTP API: `create_app()` builds a Flask app around the Ledger service.

    gunicorn -c deploy/gunicorn.conf.py 'api:create_app()'

Data flows one way: request -> schema -> command -> Ledger (decide, append, evolve) ->
response. The OpenAPI document is generated from the schemas at /openapi.json, browsable
at /docs.
"""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from flask import Flask
from flask_smorest import Api
from flask_smorest.utils import prepare_response

from api.http import auth, extension, openapi, request_guard, security
from api.http.errors import PROBLEM_MIMETYPE, register_error_handlers
from ledger.operations.database import instance_folder, make_engine, read_replica
from ledger.sessions.service import Ledger

from .config import from_env
from .schemas import ProblemSchema

__all__ = ["create_app"]


class LanterlooApi(Api):
    """flask-smorest's Api, with errors documented and rendered as problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def register_blueprint(self, blp: Any, **options: Any) -> None:
        """Register `blp`, its operations' documented parameters merged (see below)."""
        openapi.merge_parameters(blp)
        super().register_blueprint(blp, **options)

    def _register_error_handlers(self) -> None:
        """api/http/errors.py renders every error; flask-smorest's own JSON handler is not used."""

    def _register_responses(self) -> None:
        for status in HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_MIMETYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_MIMETYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; `config` overrides the environment (LOO_* variables, api/config.py).

    `config` may hold DATABASE_URL, or ENGINE (an SQLAlchemy engine to share), AUTO_MIGRATE,
    MAX_BATCH_EVENTS and the rest of api/config.py.
    """
    # Imported here, not with the package: gunicorn's master imports api.http.serving (and so this
    # package) before PROMETHEUS_MULTIPROC_DIR is ready, and must create no metric itself.
    from api.http import metrics, observability

    # No app-wide /static route: the docs' and the tablet's files are served by their own
    # blueprints (api/pages/swagger.py, api/pages/tablet.py).
    # The instance folder is the ledger's (ledger/store/db.py): the SQLite default and the
    # checkpoint key and log live there, wherever the process was started.
    app = Flask(__name__, static_folder=None, template_folder="pages/templates",
                instance_path=str(instance_folder()))
    app.config.update(from_env(config))
    request_guard.install_converters(app.url_map)  # before any rule: `<int:>` is ASCII
    app.json.sort_keys = False  # type: ignore[attr-defined]
    _configure_logging(app)

    register_error_handlers(app)
    observability.install(app)
    security.install(app)
    metrics.install(app)
    api = LanterlooApi(app, spec_kwargs={
        "info": {"description": "Lanterloo: an event-sourced ledger for clubs that play Loo. "
                                "Every refusal is application/problem+json."}})

    engine = app.config.get("ENGINE") or make_engine(app.config["DATABASE_URL"])
    if app.config["AUTO_MIGRATE"]:
        from ledger.operations.bulk import migrate

        migrate(engine)
    # SNAPSHOT_EVERY: how often an append keeps the state for reads as of a version (tests)
    every = app.config.get("SNAPSHOT_EVERY")
    from api.http import reading

    extension.install(app, engine, Ledger(engine) if every is None
                      else Ledger(engine, snapshot_every=int(every)),
                      read_replica(engine, app.config.get("READ_DATABASE_URL")))

    openapi.install(api)
    auth.document_security(api)
    from api.routes import (
        attach,
        audit,
        books,
        clubs,
        corrections,
        deals,
        evenings,
        events,
        explain,
        exports,
        health,
        members,
        offences,
        periods,
        sessions,
        signin,
        statement,
        tablets,
        verify,
    )

    for module in (sessions, events, corrections, deals, offences, statement, explain, verify,
                   clubs, attach, health, audit, books, members, evenings, tablets, exports,
                   periods, signin):
        api.register_blueprint(module.blp)
    api.register_blueprint(verify.export_blp)
    reading.install(app)
    request_guard.install(app, api.spec.to_dict)
    if app.config.get("STRICT_RESPONSES"):
        from api.http import contract

        contract.install(app, api.spec.to_dict)
    # Pages and files, not API operations: plain Flask blueprints, outside the OpenAPI document.
    from api.pages import desk, swagger
    from api.pages import tablet as web

    app.register_blueprint(swagger.blp)
    app.register_blueprint(web.blp)
    app.register_blueprint(desk.blp)
    return app


def _configure_logging(app: Flask) -> None:
    from api.http import observability

    observability.configure_logging(str(app.config.get("LOG_LEVEL", "INFO")),
                                    str(app.config.get("LOG_FORMAT", "json")))

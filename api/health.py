"""Health: is the service up and can it reach its database."""

from __future__ import annotations

import logging

from flask.views import MethodView
from flask_smorest import Blueprint
from sqlalchemy import text

from .backend import engine
from .errors import ApiProblem
from .schemas import HealthSchema

log = logging.getLogger("lanterloo.api")

blp = Blueprint("health", __name__, url_prefix="/healthz",
                description="Liveness and database check for load balancers.")


@blp.route("")
class Health(MethodView):
    @blp.doc(operationId="health")
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE")
    def get(self):
        """Check the service and its database"""
        try:
            with engine().connect() as connection:
                connection.execute(text("SELECT 1"))
        except Exception:
            log.exception("health check: the database is unreachable")
            raise ApiProblem(503, "database-unavailable", "the database cannot be reached",
                             rule="database") from None
        return {"status": "ok", "database": "ok"}

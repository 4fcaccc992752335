"""SQLAlchemy 2 persistence: the tables, engines, the event store and the migrations runner."""

from .db import default_url, make_engine, writer
from .tables import clubs, deal_views, events, idempotency_keys, members, metadata, sessions, tokens

__all__ = ["default_url", "make_engine", "writer", "metadata", "events", "sessions",
           "deal_views", "idempotency_keys", "clubs", "members", "tokens"]

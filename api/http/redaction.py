"""Credentials kept out of logs: `redact(text)` replaces anything shaped like one.

What a credential looks like: the product's token (`loo_<public id>_<secret>`, or anything
that starts like one, whatever its case) and a bearer value (`Bearer <value>`, also as a URL
or a form encodes the space). Every log line of the service passes through it
(api/http/observability.py, api/http/serving.py, api/http/errors.py). No import beyond the standard
library: gunicorn's master loads this with api/http/serving.py.
"""

from __future__ import annotations

import re

_CREDENTIAL = re.compile(r"(?i:loo_)[A-Za-z0-9_-]+|(?i:bearer)(?:\s+|%20|\+)[A-Za-z0-9._~+/=-]+")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """`text` with every credential-shaped word replaced by loo_[redacted] or
    Bearer [redacted]."""
    lowered = text.lower()
    if "loo_" not in lowered and "bearer" not in lowered:
        return text
    return _CREDENTIAL.sub(_redacted, text)


def _redacted(match: re.Match[str]) -> str:
    word = match.group(0)
    return f"{word[:4]}{REDACTED}" if word[:4].lower() == "loo_" else f"Bearer {REDACTED}"

"""The pure core imports no framework: Flask, SQLAlchemy and marshmallow stay outside it."""

from __future__ import annotations

import ast
from pathlib import Path

DOMAIN = Path(__file__).resolve().parents[2] / "ledger" / "domain"
FORBIDDEN = ("flask", "sqlalchemy", "marshmallow", "alembic", "psycopg", "gunicorn",
             "flask_smorest", "api", "ledger.store", "ledger.sessions.service")


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def test_the_domain_package_imports_no_framework_or_store():
    offenders = {}
    for path in sorted(DOMAIN.rglob("*.py")):
        bad = {m for m in imported_modules(path)
               if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)}
        if bad:
            offenders[path.name] = sorted(bad)
    assert offenders == {}


def test_the_check_finds_a_forbidden_import(tmp_path):
    sample = tmp_path / "x.py"
    sample.write_text("from sqlalchemy import select\nimport flask\n")
    assert imported_modules(sample) >= {"sqlalchemy", "flask"}


def test_no_float_appears_in_the_domain_money_code():
    for path in sorted(DOMAIN.rglob("*.py")):
        tree = ast.parse(path.read_text())
        floats = [n.lineno for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, float)]
        calls = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id == "float"]
        assert not floats and not calls, f"{path.name}: float at lines {floats + calls}"


def test_no_error_below_the_web_layer_knows_an_http_status():
    """Domain and service errors carry a code and a rule; api/http/errors.py maps codes to statuses,
    and every code raised anywhere has its status there."""
    import importlib
    import pkgutil

    import ledger
    from api.http.errors import STATUS_OF_CODE
    from ledger.domain.errors import LedgerError

    for module in pkgutil.walk_packages(ledger.__path__, "ledger."):
        importlib.import_module(module.name)

    def subclasses(cls: type) -> list[type]:
        return [cls] + [s for c in cls.__subclasses__() for s in subclasses(c)]

    errors = subclasses(LedgerError)
    assert len(errors) > 5
    for error in errors:
        assert "status" not in vars(error), f"{error.__name__} names an HTTP status"
        assert error.code in STATUS_OF_CODE, f"{error.__name__}: no status for {error.code!r}"

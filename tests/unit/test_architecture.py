"""The design's arrows, read from the code: the pure core imports no framework (Flask,
SQLAlchemy and marshmallow stay outside it), and no import runs along a "never" arrow of
docs/architecture.md:

    the domain (ledger/domain)   knows no store, no application, no web
    the store (ledger/store)     knows no application, no web
    the application (ledger/*)   knows no web
    the web (api/)               knows no store: it asks the application
    a route (api/routes/*)       imports no other route
    nothing below the migrations imports them

Every import counts, a late one inside a function or one for type checking only included.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "ledger" / "domain"
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


# -------------------------------------------------------------------- the layers' arrows

# What each layer must never import.
NEVER = {
    "domain": {"store", "application", "web", "migrations"},
    "store": {"application", "web", "migrations"},
    "application": {"web", "migrations"},
    "web": {"store", "migrations"},
}


def layer_of(module: str) -> str | None:
    def within(package: str) -> bool:
        return module == package or module.startswith(package + ".")

    if within("ledger.domain"):
        return "domain"
    if within("ledger.store"):
        return "store"
    if within("ledger"):
        return "application"
    if within("api"):
        return "web"
    if within("migrations"):
        return "migrations"
    return None


def modules(root: Path) -> dict[str, Path]:
    """Every module of ledger/ and api/ under `root`, by its dotted name."""
    found = {}
    for package in ("ledger", "api"):
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path) -> set[str]:
    """What the module `name` at `path` imports, relative imports made absolute, each name
    imported with its module (`from ledger import store` imports ledger.store)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def never_arrows(root: Path) -> list[str]:
    """Each import of a module under `root` that runs along a "never" arrow."""
    found = []
    for name, path in modules(root).items():
        layer = layer_of(name)
        for target in sorted(imports_of(name, path)):
            if layer_of(target) in NEVER.get(layer or "", ()):
                found.append(f"{name} ({layer}) imports {target} ({layer_of(target)})")
    return found


def routes_importing_routes(root: Path) -> list[str]:
    found = []
    for name, path in modules(root).items():
        if not name.startswith("api.routes."):
            continue
        route = name.split(".")[2]
        for target in sorted(imports_of(name, path)):
            if target.startswith("api.routes.") and target.split(".")[2] != route:
                found.append(f"{name} imports {target}")
    return found


def test_no_import_runs_along_a_never_arrow_of_the_design():
    assert never_arrows(ROOT) == []


def test_no_route_imports_another_route():
    assert routes_importing_routes(ROOT) == []


def test_the_arrow_checks_find_every_kind_of_forbidden_import(tmp_path):
    files = {
        "ledger/domain/rules.py": "from ledger.store.tables import events\n",
        "ledger/domain/cards.py": "def f():\n    from ledger import projections\n",
        "ledger/store/db.py": "from ..sessions.service import Ledger\n",
        "ledger/store/migrate.py": "import migrations\n",
        "ledger/store/tables.py": "from api.http import errors\n",
        "ledger/sessions/service.py": "from api.http.errors import ApiProblem\n",
        "api/http/context.py": "from ledger import store\n",
        "api/routes/books.py": "from api.routes.members import member_page\n",
        "api/routes/members.py": "from . import statement\n",
        "api/routes/statement.py": "from api.http.formats import wants_csv\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert never_arrows(tmp_path) == [
        "ledger.domain.cards (domain) imports ledger.projections (application)",
        "ledger.domain.rules (domain) imports ledger.store.tables.events (store)",
        "ledger.sessions.service (application) imports api.http.errors.ApiProblem (web)",
        "ledger.store.db (store) imports ledger.sessions.service.Ledger (application)",
        "ledger.store.migrate (store) imports migrations (migrations)",
        "ledger.store.tables (store) imports api.http.errors (web)",
        "api.http.context (web) imports ledger.store (store)",
    ]
    assert routes_importing_routes(tmp_path) == [
        "api.routes.books imports api.routes.members.member_page",
        "api.routes.members imports api.routes.statement",
    ]


# What a web worker never loads: Alembic (and the Mako and Pygments it brings) is for
# `lanterloo migrate` and `check`, the QR code maker for the rare pairing POST, rich for the
# command line, SQLAlchemy's ORM for nothing (the store is Core: 5.7 MB of a worker's memory)
# (docs/performance.md, the worker's memory guard).
NOT_IN_A_WORKER = ("alembic", "mako", "pygments", "segno", "rich", "sqlalchemy.orm")


def test_the_app_loads_no_module_only_the_command_line_or_a_rare_request_needs(tmp_path):
    import os
    import subprocess
    import sys

    probe = ("import sys\nfrom api import create_app\n"
             "app = create_app({'TESTING': True})\n"
             "app.test_client().get('/healthz')\n"
             f"print(sorted(n for n in {NOT_IN_A_WORKER!r} if any("
             "m == n or m.startswith(n + '.') for m in sys.modules)))")
    # a process of its own with a plain environment: what other tests of this worker set in
    # theirs (a metrics folder since removed, an instance folder) is not a worker's
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path),
           "LOO_DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}",
           "LOO_INSTANCE_DIR": str(tmp_path / "instance"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout

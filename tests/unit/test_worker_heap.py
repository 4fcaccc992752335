"""A gunicorn worker, once it has loaded the app, sets what it loaded aside from the garbage
collector's full passes (deploy/gunicorn.conf.py `post_worker_init`, api.http.serving)."""

from __future__ import annotations

import gc
import logging
import re
from types import SimpleNamespace

from tests.support import load_configuration


def test_a_worker_that_has_loaded_the_app_sets_it_aside_from_the_collector(caplog):
    namespace: dict = {}
    load_configuration(namespace)
    from api import create_app

    app = create_app({"DATABASE_URL": "sqlite://", "TESTING": True})
    loaded = [app, app.url_map, app.extensions]  # tracked containers alive since start-up
    assert all(gc.is_tracked(x) for x in loaded)
    before = gc.get_freeze_count()
    try:
        with caplog.at_level(logging.INFO, logger="worker"):
            namespace["post_worker_init"](SimpleNamespace(log=logging.getLogger("worker")))
        # the app's objects are out of every generation the collector walks
        assert gc.get_freeze_count() > before + 10_000
        assert not any(x is y for y in gc.get_objects() for x in loaded)
        logged = re.search(r"(\d+) objects of the loaded app set aside", caplog.text)
        assert logged and int(logged.group(1)) > 10_000
    finally:
        gc.unfreeze()  # this test process goes on collecting as before

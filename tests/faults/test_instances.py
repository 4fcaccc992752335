"""Two instances of the app on one host (two LOO_BINDs, as deploy/README.md runs them behind
one proxy) keep their metrics apart: each master counts into a folder of its own, and a
master given a folder another live master holds refuses to start instead of wiping it. Their
output is JSON lines, gunicorn's own lines too."""

from __future__ import annotations

import json
import re

import pytest

from .harness import Server, http


def _healthz_count(port: int) -> float:
    status, _, text = http(port, "GET", "/metrics")
    assert status == 200
    found = re.search(r'lanterloo_requests_total\{method="GET",route="/healthz",status="200"\} '
                      r'([0-9.]+)', text.decode())
    return float(found.group(1)) if found else 0.0


def test_two_instances_on_one_host_keep_their_metrics_when_the_other_restarts(
        sqlite_url, serve, tmp_path):
    metrics = {"LOO_METRICS_DIR": str(tmp_path / "metrics")}
    first = serve(sqlite_url, workers=2, **metrics)
    second = serve(sqlite_url, workers=2, **metrics)
    before = _healthz_count(first.port), _healthz_count(second.port)  # start-up probes
    for _ in range(30):
        http(first.port, "GET", "/healthz")
    for _ in range(5):
        http(second.port, "GET", "/healthz")
    # every worker's count summed, each instance its own
    assert _healthz_count(first.port) == before[0] + 30
    assert _healthz_count(second.port) == before[1] + 5
    folders = sorted(p.name for p in (tmp_path / "metrics").iterdir())
    assert folders == sorted(f"instance-127.0.0.1_{s.port}" for s in (first, second))
    # gunicorn's own lines are JSON like the app's and the access log's
    lines = [json.loads(line) for line in first.output().splitlines()]
    assert {"gunicorn.error", "gunicorn.access", "lanterloo.request"} <= {
        line.get("logger") for line in lines}
    second.stop()
    second.start()  # its master empties its own folder, never the other's
    assert _healthz_count(second.port) < 5
    assert _healthz_count(first.port) == before[0] + 30

def test_a_second_master_given_a_folder_in_use_refuses_to_start_and_wipes_nothing(
        sqlite_url, serve, tmp_path):
    folder = str(tmp_path / "shared")
    first = serve(sqlite_url, workers=1, PROMETHEUS_MULTIPROC_DIR=folder)
    before = _healthz_count(first.port)
    for _ in range(10):
        http(first.port, "GET", "/healthz")
    intruder = Server(sqlite_url, env={"PROMETHEUS_MULTIPROC_DIR": folder}, workers=1)
    with pytest.raises(RuntimeError, match="another gunicorn master counts its metrics in"):
        intruder.start()
    intruder.stop()
    assert _healthz_count(first.port) == before + 10

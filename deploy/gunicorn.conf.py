"""gunicorn settings for Lanterloo, read from the environment.

    gunicorn -c deploy/gunicorn.conf.py 'api:create_app()'

Worker model: gthread (api.http.serving.ProblemThreadWorker), LOO_WORKERS processes (default: the
CPU count + 1) of LOO_THREADS threads each (default 8). A sync worker serves one connection at
a time, so four clients sending their headers slowly stalled all of them; gthread parks idle
and not-yet-readable connections on a poller and only gives a thread to a request whose
bytes have arrived, so a slow client holds at most one thread of one worker (measured in
docs/operations.md, "Slow clients"). In front of it, a buffering proxy (deploy/nginx.conf)
reads whole requests before passing them on: run both.

Each worker's connection pool is sized to its threads (LOO_DB_POOL_SIZE), so a thread never
waits for a connection another thread of its process holds. Once a worker has loaded the app,
what it loaded is set aside from the garbage collector's full passes
(api.http.serving.freeze_loaded_app).

LOO_BIND (127.0.0.1:8000), LOO_WORKERS, LOO_THREADS, LOO_TIMEOUT (30 s), LOO_GRACEFUL_TIMEOUT
(20 s), LOO_KEEPALIVE (5 s), LOO_MAX_REQUESTS (20000), LOO_ACCESS_LOG ("-": stdout; "" turns
it off; a file: reopened on SIGUSR1), LOO_ERROR_LOG ("-"; a file: the app's own lines go
there too), LOO_LOG_LEVEL (info), LOO_FORWARDED_ALLOW_IPS (127.0.0.1), LOO_PID_FILE (none).

Metrics: the workers' counters are summed through prometheus_client's multiprocess folder,
one per instance: LOO_METRICS_DIR/instance-<LOO_BIND> (LOO_METRICS_DIR: the system's
temporary folder's lanterloo-metrics by default), or PROMETHEUS_MULTIPROC_DIR when set. The
master locks its folder and empties it at start; a second master given the same folder
refuses to start rather than wipe the first one's counters.
The app itself reads LOO_DATABASE_URL and the rest (api/config.py, ledger/store/db.py).
"""

import multiprocessing
import os
import re
import tempfile

bind = os.environ.get("LOO_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("LOO_WORKERS") or multiprocessing.cpu_count() + 1)
worker_class = "api.http.serving.ProblemThreadWorker"
threads = int(os.environ.get("LOO_THREADS") or 8)
# One connection per thread, and a few spare for the pool's overflow.
os.environ.setdefault("LOO_DB_POOL_SIZE", str(threads))
os.environ.setdefault("LOO_DB_MAX_OVERFLOW", "2")

# A request is one short transaction, bounded by the database timeouts (5 s statement, 3 s
# connect by default); a worker silent longer than this is killed and replaced.
timeout = int(os.environ.get("LOO_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("LOO_GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("LOO_KEEPALIVE", "5"))
# Recycle workers now and then, with jitter so they do not all restart together. Rarely: a
# worker's boot costs about 0.7 s of CPU and its memory stays flat (about 75 MB); at 2,000
# requests a busy machine rebooted a worker every few seconds, a sixth of its CPU and the
# append's p99 (docs/performance.md, "Capacity").
max_requests = int(os.environ.get("LOO_MAX_REQUESTS", "20000"))
max_requests_jitter = max_requests // 10
# Not preloaded: each worker builds its own app, engine and connection pool after the fork.
preload_app = False

# gunicorn's own limits on what it reads before the app: answered 414/431/400 as
# problem+json by the worker class.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

accesslog = os.environ.get("LOO_ACCESS_LOG", "-") or None
errorlog = os.environ.get("LOO_ERROR_LOG", "-")
# With the error log in a file, the workers' stderr (the app's JSON lines) goes there too.
capture_output = errorlog != "-"
pidfile = os.environ.get("LOO_PID_FILE") or None
loglevel = os.environ.get("LOO_LOG_LEVEL", "info").lower()
# JSON lines with the request id; never a request header that carries a credential.
logger_class = "api.http.serving.JsonAccessLogger"
# Behind a reverse proxy on the same host; widen only to the proxy's address.
forwarded_allow_ips = os.environ.get("LOO_FORWARDED_ALLOW_IPS", "127.0.0.1")
proc_name = "lanterloo"
# gunicorn >= 25: no runtime control socket (its default path is in the home directory, which
# the systemd unit makes read-only); older versions ignore the setting.
control_socket_disable = True



def _metrics_dir() -> str:
    """This instance's multiprocess folder: one per LOO_BIND, so that two instances on one
    host never share (nor wipe) each other's counters."""
    explicit = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if explicit:
        return explicit
    base = os.environ.get("LOO_METRICS_DIR") or os.path.join(tempfile.gettempdir(),
                                                             "lanterloo-metrics")
    return os.path.join(base, "instance-" + re.sub(r"[^A-Za-z0-9.-]", "_", bind))


# Set here, in the master, so that every worker it forks counts into the same folder.
os.environ["PROMETHEUS_MULTIPROC_DIR"] = _metrics_dir()


def on_starting(server):
    from api.http.serving import clear_multiproc_dir

    clear_multiproc_dir()


def on_exit(server):
    from api.http.serving import clear_multiproc_dir

    clear_multiproc_dir(release=True)


def post_worker_init(worker):
    from api.http.serving import freeze_loaded_app

    worker.log.info("%d objects of the loaded app set aside from the garbage collector",
                    freeze_loaded_app())


def child_exit(server, worker):
    from api.http.serving import mark_worker_dead

    mark_worker_dead(worker.pid)

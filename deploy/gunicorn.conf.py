"""gunicorn settings for Lanterloo, read from the environment.

    gunicorn -c deploy/gunicorn.conf.py 'api:create_app()'

LOO_BIND (default 127.0.0.1:8000), LOO_WORKERS (default 2 x cores + 1), LOO_TIMEOUT (30 s),
LOO_ACCESS_LOG (default "-": stdout), LOO_LOG_LEVEL (info), LOO_FORWARDED_ALLOW_IPS.
The app itself reads LOO_DATABASE_URL (api/config.py).
"""

import multiprocessing
import os

bind = os.environ.get("LOO_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("LOO_WORKERS") or multiprocessing.cpu_count() * 2 + 1)
worker_class = "sync"
# Each request is short (one transaction); a worker stuck longer than this is restarted.
timeout = int(os.environ.get("LOO_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("LOO_GRACEFUL_TIMEOUT", "20"))
keepalive = 5
# Recycle workers now and then, with jitter so they do not all restart together.
max_requests = int(os.environ.get("LOO_MAX_REQUESTS", "2000"))
max_requests_jitter = 200
# Not preloaded: each worker builds its own app, engine and connection pool after the fork.
preload_app = False

accesslog = os.environ.get("LOO_ACCESS_LOG", "-")
errorlog = os.environ.get("LOO_ERROR_LOG", "-")
loglevel = os.environ.get("LOO_LOG_LEVEL", "info").lower()
# Never a request header that carries a credential (Authorization, Cookie): the line names
# the request and its outcome only. Who acted is in the event log (events.member_id/token_id).
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
# Behind a reverse proxy on the same host; widen only to the proxy's address.
forwarded_allow_ips = os.environ.get("LOO_FORWARDED_ALLOW_IPS", "127.0.0.1")
proc_name = "lanterloo"
# gunicorn >= 25: no runtime control socket (its default path is in the home directory, which
# the systemd unit makes read-only); older versions ignore the setting.
control_socket_disable = True



def load_configuration(namespace: dict) -> None:
    """Run deploy/gunicorn.conf.py into `namespace`, in this process, leaving the process's
    environment as it was: the configuration names its instance's metrics folder there
    (PROMETHEUS_MULTIPROC_DIR), which a server a later test starts from this process would
    otherwise inherit, and share with (or be refused by) the default instance."""
    import os
    from pathlib import Path

    conf = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"
    before = dict(os.environ)
    try:
        exec(compile(conf.read_text(), str(conf), "exec"), namespace)
    finally:
        for name in set(os.environ) - set(before):
            del os.environ[name]
        os.environ.update(before)

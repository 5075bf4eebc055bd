#!/usr/bin/env bash
# Serve the app on 127.0.0.1:8000; with REDIS_URL set, also run a Celery worker (and the
# beat schedule) beside it.
# The trap stops the worker whenever the server stops (Ctrl-C included): background jobs of
# a non-interactive shell ignore SIGINT, so without it the worker would outlive the server.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=.venv/bin/python
worker_pid=""

stop_worker() {
  if [[ -n "$worker_pid" ]] && kill -0 "$worker_pid" 2>/dev/null; then
    kill -TERM "$worker_pid"
    wait "$worker_pid" 2>/dev/null || true
  fi
}
trap stop_worker EXIT
trap 'exit 130' INT TERM

if [[ -n "${REDIS_URL:-}" ]]; then
  # --beat: the daily compliance reports (CELERY_BEAT_SCHEDULE) are requested by this worker;
  # one beat per deployment, so production runs `celery beat` as its own single service. The
  # embedded beat ends with this worker, even if it is killed (cardroom/beat.py).
  "$PYTHON" -m celery -A cardroom worker --loglevel=info --concurrency=1 \
    --beat --schedule "${TMPDIR:-/tmp}/cardroom-celerybeat-schedule" &
  worker_pid=$!
  echo "Celery worker started (pid $worker_pid)"
else
  echo "REDIS_URL not set: tasks run inline in the web process (no worker needed)"
fi

"$PYTHON" manage.py runserver 127.0.0.1:8000

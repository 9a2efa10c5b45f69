#!/usr/bin/env bash
# Installs what the test suite needs and runs it: Debian chromium for the browser tests, then the
# package with all its extras (`all`) and `test` into the project's own .venv (a Debian or Ubuntu
# system Python refuses a global pip install; llama-cpp-python builds from source, ~5 min on
# 2 cores, once), then the linter (ruff check and format --check), then pytest on two worker
# processes (pytest-xdist; the suite took 13 min serially, 9 in two workers, on a slow 2-core
# day), printing its 25 slowest tests, so a slow CI run says where the time went. Extra
# arguments go to pytest (`-n 0` runs serially).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[all,test]"
.venv/bin/python -m ruff check . && .venv/bin/python -m ruff format --check .
export RAY_USAGE_STATS_ENABLED=0 PYTHONHASHSEED=0
exec .venv/bin/python -m pytest -q -p no:cacheprovider -n 2 --durations=25 "$@"

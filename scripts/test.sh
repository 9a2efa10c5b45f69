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
  echo "test.sh: installing chromium (for the browser tests)" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
say() { echo "test.sh: $*" >&2; }
if [ ! -x .venv/bin/python ]; then
  say "creating .venv"
  python3 -m venv .venv
fi
say "installing mam-bench[all,test] into .venv (the first time builds llama-cpp-python from source: about 5-15 min on 2 cores; later runs take seconds)"
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[all,test]"
say "installed; linting"
.venv/bin/python -m ruff check . && .venv/bin/python -m ruff format --check .
export RAY_USAGE_STATS_ENABLED=0 PYTHONHASHSEED=0
say "running the tests"
exec .venv/bin/python -m pytest -q -p no:cacheprovider -n 2 --durations=25 "$@"

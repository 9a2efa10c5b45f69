#!/usr/bin/env bash
# Installs what the test suite needs and runs it: Debian chromium for the browser tests, then the
# package with all its extras (`all`) and `test` into the project's own .venv (a Debian or Ubuntu
# system Python refuses a global pip install; the first install builds llama-cpp-python from
# source), then the linter (ruff check and format --check), then the tests in two stages:
#   1. every test but the real local model's, on two worker processes (pytest-xdist);
#   2. the local-model tests (gemma-3 270M through llama.cpp), alone and serially, so that a
#      busy machine slows them down without starving them.
# It ends with the time each step took and pytest's slowest tests (`--durations`), so a slow CI
# run says where the time went; the stage-1 durations are kept in test-output/durations.txt for
# scripts/timings.py. Measured times: docs/results/timings.md. Extra arguments go to both pytest
# stages (`-n 0` runs stage 1 serially).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  echo "test.sh: installing chromium (for the browser tests)" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
say() { echo "test.sh: $*" >&2; }
took=()
lap() { took+=("$1 $((SECONDS - start)) s"); start=$SECONDS; }
start=$SECONDS
if [ ! -x .venv/bin/python ]; then
  say "creating .venv"
  python3 -m venv .venv
fi
if ! .venv/bin/python -c "import importlib.util as u, sys; sys.exit(u.find_spec('llama_cpp') is None)" 2>/dev/null; then
  # the first install builds llama-cpp-python (the [local] extra) from source: build only the
  # libraries its bindings load (llama and ggml; not the multimodal mtmd library, which only its
  # image chat handlers import, nor the tools, server, examples or tests), two compile jobs at once
  say "first install: llama-cpp-python builds from source; the untrimmed build took about 68 min on a busy 2-core machine (docs/results/timings.md), this trimmed one less; later runs take seconds"
  export CMAKE_ARGS="${CMAKE_ARGS:-} -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TESTS=OFF"
  export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
fi
say "installing mam-bench[all,test] into .venv"
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[all,test]"
lap install
say "installed; linting"
# two commands, not `a && b`: under `set -e` a failure left of `&&` would not stop the script
.venv/bin/python -m ruff check .
.venv/bin/python -m ruff format --check .
lap lint
export RAY_USAGE_STATS_ENABLED=0 PYTHONHASHSEED=0
mkdir -p test-output
say "stage 1: the tests on two workers (the local-model tests wait for stage 2)"
set +e
.venv/bin/python -m pytest -q -p no:cacheprovider -n 2 --durations=25 -m "not local_model" "$@" \
  | tee test-output/durations.txt
rc1=${PIPESTATUS[0]}
lap "stage 1"
say "stage 2: the local-model tests, alone and serially"
.venv/bin/python -m pytest -q -p no:cacheprovider -n 0 --durations=5 -m local_model "$@"
rc2=$?
lap "stage 2"
set -e
[ "$rc2" = 5 ] && rc2=0  # no local-model test among the ones asked for
say "time: $(IFS=,; echo "${took[*]}" | sed 's/,/, /g')"
say "exit: stage 1 $rc1, stage 2 $rc2"
[ "$rc1" = 0 ] && [ "$rc2" = 0 ]

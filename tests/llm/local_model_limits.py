"""Limits for the tests that play the real local model. They guard against a hang, never against
a slow machine: a loaded 2-core runner meets them (scripts/test.sh runs these tests alone, in a
stage of their own, so that two workers do not starve them)."""

import pytest

#: no call answered for this long is a hang (the CLI's default, 300 s, a busy machine can pass)
STALL = ["--stall-timeout", "3600"]
#: the whole command's limit
COMMAND_SECONDS = 5400
#: what each local-model test module sets as its `pytestmark`
MARKS = [pytest.mark.local_model, pytest.mark.timeout(COMMAND_SECONDS + 60)]

#!/usr/bin/env bash
# cpu_budget.sh SECONDS COMMAND...: runs COMMAND with at most SECONDS of CPU time per process (prlimit --cpu;
# cmake/test_limits.cmake says why) and says so when that limit ended it. Exit status: COMMAND's.
set -u
budget="$1"
shift
# The soft limit sends SIGXCPU (ends the test, reported below); the hard one, 10 s later, SIGKILL for a
# test that handles SIGXCPU.
prlimit --cpu="$budget:$((budget + 10))" -- "$@"
code=$?
if [ "$code" -eq 152 ] || [ "$code" -eq 137 ]; then # 128 + SIGXCPU, 128 + SIGKILL
  echo "cpu_budget: $1 used its whole CPU budget of $budget s and was ended (a hang, or a test grown slower:" \
    "raise its budget in tests/CMakeLists.txt)" >&2
fi
exit "$code"

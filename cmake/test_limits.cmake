# Time limits for ctest tests that hold on a loaded machine and still catch a hang.
#
# A wall-clock TIMEOUT alone cannot do both: on the shared 2-core machine with a load of 15–28 a test gets a
# tenth of a core (test_siconos_referee: 189 s quiet, over its old 1 500 s loaded), and a limit loose enough
# for that lets a hung test sit for as long. So each test runs under a CPU-time budget (prlimit --cpu,
# util-linux: the kernel ends a process that has computed past it, however busy the machine) — a spinning hang
# fails after that much CPU, on a quiet machine in about that many seconds — and under one wall-clock
# TIMEOUT, CS_TEST_WALL_TIMEOUT, for a test blocked without computing (a deadlock). The budgets are a few times
# each test's quiet Release CPU time; CS_SANITIZE multiplies them by CS_TEST_SANITIZE_SCALE (ASan + UBSan run
# the suite ~2–3× slower). tests/support/cpu_budget.sh says which limit ended a test.
set(CS_TEST_WALL_TIMEOUT 3000 CACHE STRING "Wall-clock limit (s) of every ctest test: a blocked test")
set(CS_TEST_SANITIZE_SCALE 3 CACHE STRING "CPU budgets × this in sanitizer builds")

# cs_add_test(NAME CPU_SECONDS COMMAND...): add_test under a CPU budget of CPU_SECONDS (scaled under the
# sanitizers) and the wall-clock limit.
function(cs_add_test name cpu_seconds)
  if(CS_SANITIZE)
    math(EXPR cpu_seconds "${cpu_seconds} * ${CS_TEST_SANITIZE_SCALE}")
  endif()
  add_test(NAME ${name} COMMAND bash ${CMAKE_SOURCE_DIR}/tests/support/cpu_budget.sh ${cpu_seconds} ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${CS_TEST_WALL_TIMEOUT})
endfunction()

#!/usr/bin/env bash
# `npm test` after its install step, in two phases on the 2-core machine:
# 1. the unit project (UNIT_WORKERS=3, or NPM_TEST_UNIT_WORKERS; NPM_TEST_UNIT_NICE lowers its priority), which needs
#    no build, and beside it both builds, then the checks one after the other: lint, import cycles and layers, the
#    manifest checks, web-ext lint, the bundle budget, typecheck;
# 2. once all of that passed, the e2e suites of both browsers (one pool), alone on the machine: beside the unit
#    project they took the cores from tests that race the browsers' real clocks, and a different one failed in each
#    of five runs (docs/testing.md, "Time").
# The unit project's output is printed after phase 1, whole; the rest streams. Fails when any step fails; a failed
# build or check stops the unit project at once and skips the e2e suites; Ctrl-C, TERM and a hang-up stop everything
# still running: the lanes and what they started are found by scripts/lanes.sh. docs/testing.md has the times.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lanes.sh
unit_log="$(mktemp -t svc-unit.XXXXXX.log)"
# The lanes run in sessions of their own, so a signal to this script's group or a hang-up reaches only this script.
# Whatever ends it (a signal, an error, a closed pipe), nothing it started is left running.
trap 'lane_stop unit e2e; rm -f "$unit_log"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 131' QUIT
trap 'exit 141' PIPE
trap 'exit 143' TERM
UNIT_WORKERS=${NPM_TEST_UNIT_WORKERS:-3} lane_start unit setsid -w nice -n "${NPM_TEST_UNIT_NICE:-0}" npm run --silent test:unit >"$unit_log" 2>&1

failed=""
for step in build:all lint cycles test:built lint:firefox budget typecheck; do
  npm run "$step" || { failed="$step"; break; }
done
if [ -n "$failed" ] && lanes_is_child "${lane_pid[unit]}" && lanes_alive "${lane_pid[unit]}"; then
  echo "npm test: '$failed' failed; the unit project is stopped" >&2
  lane_stop unit
  unit_status=1
else
  wait "${lane_pid[unit]}"
  unit_status=$?
fi
echo "── unit project (run beside the builds and checks) ──"
cat "$unit_log"
rm -f "$unit_log"
[ "$unit_status" -eq 0 ] || failed="${failed:+$failed, }test:unit"
if [ -z "$failed" ]; then
  lane_start e2e setsid -w npm run test:e2e
  wait "${lane_pid[e2e]}" || failed="test:e2e"
else
  echo "npm test: the e2e suites are skipped" >&2
fi
echo "npm test: $([ -z "$failed" ] && echo passed || echo "failed ($failed)")"
[ -z "$failed" ]

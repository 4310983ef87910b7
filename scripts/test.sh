#!/usr/bin/env bash
# `npm test` after its install step, in three lanes side by side on the 2-core machine:
# - the unit project, which needs no build, starts at once (UNIT_WORKERS=3, or NPM_TEST_UNIT_WORKERS), at a lower CPU
#   priority (nice 10), so that the e2e suites, which race the browsers' real clocks, get a core when they need one;
# - both builds come first in the other lane; then the e2e suites of both browsers (one pool) and, beside them, the
#   checks one after the other: lint, import cycles and layers, the manifest checks, web-ext lint, the bundle budget,
#   typecheck.
# The e2e output streams; the checks' and the unit project's are printed after the rest, whole. Fails when any step
# fails; a failed build or check stops everything still running (so does Ctrl-C). docs/testing.md has the times.
set -uo pipefail
cd "$(dirname "$0")/.."
unit_log="$(mktemp -t svc-unit.XXXXXX.log)"
checks_log="$(mktemp -t svc-checks.XXXXXX.log)"
UNIT_WORKERS=${NPM_TEST_UNIT_WORKERS:-3} setsid nice -n 10 npm run --silent test:unit >"$unit_log" 2>&1 &
unit=$!
checks=""
e2e=""
# Every process below the given ones: the browsers launched detached (their own sessions) and the test workers are
# reached by parentage, not by process group.
tree() {
  local pid
  for pid in "$@"; do
    echo "$pid"
    tree $(pgrep -P "$pid")
  done
}
# Stops the given lanes and everything they started: TERM, then KILL what is left after 5 s.
stop() {
  local pids
  pids=$(tree "$@")
  [ -n "$pids" ] || return 0
  kill $pids 2>/dev/null
  for _ in $(seq 50); do
    kill -0 $pids 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL $pids 2>/dev/null
  for pid in "$@"; do wait "$pid" 2>/dev/null; done
  return 0
}
# The lanes run in sessions of their own, so a signal to this script's group or a hang-up reaches only this script.
trap 'stop $unit $checks $e2e; rm -f "$unit_log" "$checks_log"; exit 129' HUP
trap 'stop $unit $checks $e2e; rm -f "$unit_log" "$checks_log"; exit 130' INT
trap 'stop $unit $checks $e2e; rm -f "$unit_log" "$checks_log"; exit 143' TERM

checks_lane() {
  for step in lint cycles test:built lint:firefox budget typecheck; do
    npm run "$step" || { echo "npm test: '$step' failed" >&2; return 1; }
  done
}

failed=""
if ! npm run build:all; then
  failed="build:all"
else
  checks_lane >"$checks_log" 2>&1 &
  checks=$!
  setsid npm run test:e2e &
  e2e=$!
  # Whichever ends first: a failed check stops the e2e suites at once; otherwise wait for the other.
  wait -n -p first "$checks" "$e2e"
  status=$?
  if [ "$first" = "$checks" ]; then
    if [ "$status" -ne 0 ]; then
      failed="checks"
      stop "$e2e"
    else
      wait "$e2e" || failed="test:e2e"
    fi
  else
    [ "$status" -eq 0 ] || failed="test:e2e"
    wait "$checks" || failed="${failed:+$failed, }checks"
  fi
  echo "── checks (run beside the e2e suites) ──"
  cat "$checks_log"
fi
if [ -n "$failed" ] && kill -0 "$unit" 2>/dev/null; then
  echo "npm test: $failed failed; the unit project is stopped" >&2
  stop "$unit"
  unit_status=1
else
  wait "$unit"
  unit_status=$?
fi
echo "── unit project (run beside the steps above) ──"
cat "$unit_log"
rm -f "$unit_log" "$checks_log"
echo "npm test: unit project exit ${unit_status}; builds, checks and e2e $([ -z "$failed" ] && echo passed || echo "failed ($failed)")"
[ "$unit_status" -eq 0 ] && [ -z "$failed" ]

#!/usr/bin/env bash
# `npm test` after its install step, in three lanes side by side on the 2-core machine:
# - the unit project, which needs no build, starts at once (UNIT_WORKERS=2, or NPM_TEST_UNIT_WORKERS), at the same CPU
#   priority as the rest (NPM_TEST_UNIT_NICE to lower it): at nice 10 beside the browsers it got so little CPU that
#   tests bounded at 60 s, under 1 s alone, ran out;
# - both builds come first in the other lane; then the e2e suites of both browsers (one pool) and, beside them, the
#   checks one after the other: lint, import cycles and layers, the manifest checks, web-ext lint, the bundle budget,
#   typecheck.
# The e2e output streams; the checks' and the unit project's are printed after the rest, whole. Fails when any step
# fails; a failed build or check stops everything still running (so do Ctrl-C, TERM and a hang-up): the lanes and
# what they started are found by scripts/lanes.sh. docs/testing.md has the times.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lanes.sh
unit_log="$(mktemp -t svc-unit.XXXXXX.log)"
checks_log="$(mktemp -t svc-checks.XXXXXX.log)"
# The lanes run in sessions of their own, so a signal to this script's group or a hang-up reaches only this script.
trap 'lane_stop unit checks e2e; rm -f "$unit_log" "$checks_log"; exit 129' HUP
trap 'lane_stop unit checks e2e; rm -f "$unit_log" "$checks_log"; exit 130' INT
trap 'lane_stop unit checks e2e; rm -f "$unit_log" "$checks_log"; exit 143' TERM
UNIT_WORKERS=${NPM_TEST_UNIT_WORKERS:-2} lane_start unit setsid nice -n "${NPM_TEST_UNIT_NICE:-0}" npm run --silent test:unit >"$unit_log" 2>&1

checks_lane() {
  for step in lint cycles test:built lint:firefox budget typecheck; do
    npm run "$step" || { echo "npm test: '$step' failed" >&2; return 1; }
  done
}

failed=""
if ! npm run build:all; then
  failed="build:all"
else
  lane_start checks checks_lane >"$checks_log" 2>&1
  checks=${lane_pid[checks]}
  lane_start e2e setsid npm run test:e2e
  e2e=${lane_pid[e2e]}
  # Whichever ends first: a failed check stops the e2e suites at once; otherwise wait for the other.
  wait -n -p first "$checks" "$e2e"
  status=$?
  if [ "$first" = "$checks" ]; then
    if [ "$status" -ne 0 ]; then
      failed="checks"
      lane_stop e2e
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
if [ -n "$failed" ] && lanes_alive "${lane_pid[unit]}"; then
  echo "npm test: $failed failed; the unit project is stopped" >&2
  lane_stop unit
  unit_status=1
else
  wait "${lane_pid[unit]}"
  unit_status=$?
fi
echo "── unit project (run beside the steps above) ──"
cat "$unit_log"
rm -f "$unit_log" "$checks_log"
echo "npm test: unit project exit ${unit_status}; builds, checks and e2e $([ -z "$failed" ] && echo passed || echo "failed ($failed)")"
[ "$unit_status" -eq 0 ] && [ -z "$failed" ]

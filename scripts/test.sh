#!/usr/bin/env bash
# `npm test` after its install step: the unit project, which needs no build, starts at once and runs beside the rest —
# typecheck, lint, import cycles and layers, both builds, the manifest checks, web-ext lint, the bundle budget, then
# the e2e suites in both browsers. The checks and builds keep one core busy and the e2e files spend most of their time
# waiting on the browsers' real clocks, so the unit project's three workers (UNIT_WORKERS) fill the machine: side by
# side about 6.5–7 minutes of the 2-core machine (docs/testing.md has the figures). The unit project's output is
# printed after the rest, whole. Fails when any step
# fails (a failed check or build stops the unit project too; so does Ctrl-C).
set -uo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp -t svc-unit.XXXXXX.log)"
UNIT_WORKERS=3 setsid npm run --silent test:unit >"$log" 2>&1 &
unit=$!
stop_unit() { kill -- -"$unit" 2>/dev/null; wait "$unit" 2>/dev/null; }
trap 'stop_unit; rm -f "$log"; exit 130' INT TERM

rest=0
for step in typecheck lint cycles build:all test:built lint:firefox budget test:e2e; do
  if ! npm run "$step"; then
    rest=1
    echo "npm test: '$step' failed; the unit project is stopped" >&2
    stop_unit
    break
  fi
done
if [ "$rest" -eq 0 ]; then
  wait "$unit"
  unit_status=$?
else
  unit_status=1
fi
echo "── unit project (run beside the steps above) ──"
cat "$log"
rm -f "$log"
echo "npm test: unit project exit ${unit_status}; checks, builds and e2e $([ "$rest" -eq 0 ] && echo passed || echo failed)"
[ "$unit_status" -eq 0 ] && [ "$rest" -eq 0 ]

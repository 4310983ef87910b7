# Lanes for scripts/test.sh (sourced, bash, Linux): named background jobs, each with everything it starts, and a way
# to stop one of them whole.
#
# A lane's processes are found two ways: by parentage from the lane's job (the browsers are launched detached, in
# sessions of their own, so a process group would miss them), and by the environment variable SVC_NPM_TEST_LANE,
# which every process of the lane inherits: that finds what double-forked away from its parent (re-parented to PID 1)
# and what outlived the lane's job, as long as it keeps its environment. Chromium and Firefox overwrite theirs with
# their process titles, so their processes are found by parentage only (Chromium's crash handler, a program of its
# own, keeps the tag). A process that has left the tree and lost its environment is beyond both.

lanes_run="$$-$(date +%s%N)"
declare -A lane_pid=()

# lane_start <name> <command...>: runs the command as background job <name>, tagged. Its output goes where the
# caller's does (redirect the call).
lane_start() {
  local name=$1
  shift
  SVC_NPM_TEST_LANE="$lanes_run-$name" "$@" &
  lane_pid[$name]=$!
}

# The PIDs of the given PIDs and every process below them, by parentage.
lanes_tree() {
  local pid
  for pid in "$@"; do
    echo "$pid"
    lanes_tree $(pgrep -P "$pid")
  done
}

# The PIDs whose environment names lane <name> of this run.
lanes_tagged() {
  grep -lsxzF "SVC_NPM_TEST_LANE=$lanes_run-$1" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3
}

# Whether <pid> is a child of this script not yet waited for (so not a PID reused by another process since).
lanes_is_child() {
  [ "$(sed -n 's/.*) . \([0-9]*\) .*/\1/p' "/proc/$1/stat" 2>/dev/null)" = "$$" ]
}

# Whether any of the given PIDs is still running; a zombie (exited, not yet waited for) is not.
lanes_alive() {
  local pid state
  for pid in "$@"; do
    state=$(sed -n 's/.*) \(.\).*/\1/p' "/proc/$pid/stat" 2>/dev/null) || continue
    [ -n "$state" ] && [ "$state" != Z ] && return 0
  done
  return 1
}

# Every process of the named lanes now: by parentage from each lane's job still this script's child, and by tag.
lanes_collect() {
  local name pid pids=""
  for name in "$@"; do
    pid=${lane_pid[$name]:-}
    if [ -n "$pid" ] && lanes_is_child "$pid"; then pids+=" $(lanes_tree "$pid" | tr '\n' ' ')"; fi
    pids+=" $(lanes_tagged "$name" | tr '\n' ' ')"
  done
  echo $pids | tr ' ' '\n' | grep -vx "$$" | sort -un | tr '\n' ' '
}

# lane_stop <name...>: TERM to every process of the named lanes, again to any that appears during the grace period,
# then KILL to what still runs 5 s later (said on stderr), scanning again until none is left; then waits for the
# lanes' jobs. A lane's job already waited for is not signalled (its PID may be another process's by now); its tagged
# processes still are.
lane_stop() {
  local name pid pids end sent=" "
  end=$((SECONDS + 5))
  while :; do
    pids=$(lanes_collect "$@")
    for pid in $pids; do
      [[ $sent == *" $pid "* ]] && continue
      kill "$pid" 2>/dev/null
      sent+="$pid "
    done
    [ "$SECONDS" -lt "$end" ] && lanes_alive $pids || break
    sleep 0.1
  done
  for _ in 1 2 3 4 5; do
    pids=$(lanes_collect "$@")
    lanes_alive $pids || break
    echo "npm test: still running 5 s after TERM, killed: $(for p in $pids; do lanes_alive "$p" && echo -n "$p "; done)" >&2
    kill -KILL $pids 2>/dev/null
    sleep 0.1
  done
  for name in "$@"; do
    pid=${lane_pid[$name]:-}
    [ -n "$pid" ] && lanes_is_child "$pid" && wait "$pid" 2>/dev/null
  done
  return 0
}

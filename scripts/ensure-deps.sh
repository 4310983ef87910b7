#!/usr/bin/env bash
# Installs what `npm start` and `npm test` need on a fresh machine: the npm packages (npm ci, when node_modules is
# missing or was installed from another lock file), Debian's Chromium (when /usr/bin/chromium is missing), Debian's Firefox
# ESR (when /usr/bin/firefox-esr is missing), and xvfb + xdotool (a virtual display and real key presses, for the
# e2e tests of keyboard shortcuts and of the browser's permission prompt). CHROMIUM_PATH / FIREFOX_PATH point at
# other binaries.
set -euo pipefail
cd "$(dirname "$0")/.."

# The lock file's hash, written after each install: a checkout that only touches the lock file's time (a new git
# worktree, a clone) installs nothing again; a changed lock file does. A node_modules that is a symlink belongs to
# another checkout: never reinstalled from here (npm ci would empty the other checkout's packages).
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ -L node_modules ]; then
  if [ "$(cat node_modules/.svc-lock-hash 2>/dev/null)" != "$lock_hash" ]; then
    echo "ensure-deps: node_modules is a link to another checkout whose packages may differ from this lock file; not reinstalling" >&2
  fi
else
  installed="$(cat node_modules/.svc-lock-hash 2>/dev/null || true)"
  # No hash yet (packages installed by hand with npm ci): the lock file's time decides, as npm's own marker says.
  if [ ! -d node_modules ] || { [ -n "$installed" ] && [ "$installed" != "$lock_hash" ]; } ||
    { [ -z "$installed" ] && [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
    echo "ensure-deps: installing npm packages (npm ci)"
    npm ci --no-audit --no-fund
  fi
  echo "$lock_hash" >node_modules/.svc-lock-hash
fi

missing=()
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then missing+=(chromium); fi
if [ ! -x "${FIREFOX_PATH:-/usr/bin/firefox-esr}" ]; then missing+=(firefox-esr); fi
if ! command -v Xvfb >/dev/null; then missing+=(xvfb); fi
if ! command -v xdotool >/dev/null; then missing+=(xdotool); fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "ensure-deps: installing Debian's ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

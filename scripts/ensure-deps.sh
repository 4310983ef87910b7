#!/usr/bin/env bash
# Installs what `npm start` and `npm test` need on a fresh machine: the npm packages (npm ci, when node_modules is
# missing or older than the lock file), Debian's Chromium (when /usr/bin/chromium is missing), Debian's Firefox
# ESR (when /usr/bin/firefox-esr is missing), and xvfb + xdotool (a virtual display and real key presses, for the
# e2e tests of keyboard shortcuts and of the browser's permission prompt). CHROMIUM_PATH / FIREFOX_PATH point at
# other binaries.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "ensure-deps: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
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

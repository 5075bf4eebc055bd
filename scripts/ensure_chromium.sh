#!/usr/bin/env bash
# The console's browser tests drive Debian's chromium through Playwright (never a browser
# build Playwright downloads). Install it with apt-get when it is missing.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [[ -x "$CHROMIUM" ]]; then
  exit 0
fi
echo "installing chromium (Debian package) for the browser tests"
SUDO=""
if [[ "$(id -u)" != "0" ]]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium

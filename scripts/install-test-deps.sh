#!/usr/bin/env bash
# Installs the tools the test suite drives: Debian's chromium (browser tests)
# and npm's workerd (edge worker test). Idempotent; quiet when present.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  echo "installing chromium (apt)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq chromium >/dev/null
fi
if [ ! -x node_modules/.bin/workerd ]; then
  echo "installing workerd (npm)..." >&2
  npm install --no-audit --no-fund --silent >/dev/null
fi

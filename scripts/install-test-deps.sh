#!/usr/bin/env bash
# Installs the tools the test suite drives: Debian's chromium and firefox-esr
# (browser tests) and npm's workerd (edge worker test) and puppeteer-core
# (drives Firefox). Idempotent; quiet when present.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -x /usr/bin/firefox-esr ] || missing+=(firefox-esr)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} (apt)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ! -x node_modules/.bin/workerd ] || [ ! -d node_modules/puppeteer-core ] || [ ! -d node_modules/@gfx/zopfli ]; then
  echo "installing workerd, puppeteer-core and zopfli (npm)..." >&2
  npm install --no-audit --no-fund --silent >/dev/null
fi

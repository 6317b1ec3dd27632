#!/usr/bin/env bash
# Installs Debian's Chromium (for the docs browser test) when /usr/bin/chromium is missing.
# Idempotent; needs root (CI and the dev machines run as root). Used by .ci/run and by test/docs/browser.test.ts.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-chromium: /usr/bin/chromium is missing; run 'sudo apt-get install -y chromium'" >&2
  exit 1
fi
bash "$(dirname "$0")/apt-install-once.sh" chromium /usr/bin/chromium
/usr/bin/chromium --version

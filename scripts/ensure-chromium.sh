#!/usr/bin/env bash
# Installs Debian's Chromium (for the docs browser test) when /usr/bin/chromium is missing.
# Idempotent; needs root (CI and the dev machines run as root). Used by .ci/run and by test/docs/browser.test.ts.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-chromium: /usr/bin/chromium is missing; run 'sudo apt-get install -y chromium'" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
/usr/bin/chromium --version

#!/usr/bin/env bash
# Installs Debian's Chromium (for the docs browser test) when /usr/bin/chromium is missing.
# Idempotent; needs root (CI and the dev machines run as root). Used by .ci/run and by test/docs/browser.test.ts.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-chromium: /usr/bin/chromium is missing; run 'sudo apt-get install -y chromium'" >&2
  exit 1
fi
# Test files run in parallel and may each find the package missing: one installs it while the others wait for
# the lock and then find it there (of two apt-get runs at once, one fails on apt's lock). The lock is shared with the
# other ensure-*.sh script; apt-get also waits for an apt run that is not ours.
exec 9>/tmp/invoicing-apt-install.lock
flock 9
if [ -x /usr/bin/chromium ]; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=300 update -qq
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends chromium >/dev/null
/usr/bin/chromium --version

#!/usr/bin/env bash
# apt-install-once.sh <package> <file>...: installs Debian's <package> unless every <file> is executable already.
# Used by ensure-chromium.sh and ensure-poppler.sh; needs root. Test files run in parallel and may each find a package
# missing: one installs it while the others wait for the lock and then find it there (of two apt-get runs at once,
# one fails on apt's lock). apt-get also waits for an apt run that is not ours.
set -euo pipefail
package="$1"
shift
installed() { for file in "$@"; do [ -x "$file" ] || return 1; done; }
exec 9>/tmp/invoicing-apt-install.lock
flock 9
if installed "$@"; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=300 update -qq
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "$package" >/dev/null

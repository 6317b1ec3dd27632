#!/usr/bin/env bash
# Installs Debian's poppler-utils (pdftotext, pdftoppm: the tests read the invoice PDFs with them) when missing.
# Idempotent; needs root (CI and the dev machines run as root). Used by .ci/run and by test/support/pdf-text.ts.
set -euo pipefail
if [ -x /usr/bin/pdftotext ] && [ -x /usr/bin/pdftoppm ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-poppler: pdftotext is missing; run 'sudo apt-get install -y poppler-utils'" >&2
  exit 1
fi
bash "$(dirname "$0")/apt-install-once.sh" poppler-utils /usr/bin/pdftotext /usr/bin/pdftoppm
# `sed` reads all of it: `head -1` could close the pipe first, and pipefail turns that SIGPIPE into exit 141.
/usr/bin/pdftotext -v 2>&1 | sed -n 1p

#!/usr/bin/env bash
# The PDF layout tests (tests/reports/services/test_pdf_layout.py) draw every PDF report with
# poppler-utils (pdftoppm, pdftotext). Install Debian's package with apt-get when it is
# missing, as scripts/ensure_chromium.sh does for the browser.
set -euo pipefail
if command -v pdftoppm >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1; then
  exit 0
fi
echo "installing poppler-utils (Debian package) for the PDF layout tests"
SUDO=""
if [[ "$(id -u)" != "0" ]]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq poppler-utils

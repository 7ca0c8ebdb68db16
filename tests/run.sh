#!/usr/bin/env bash
# Install what the tests need, build the site, and run every test. This is the README's
# test command and what CI runs. Extra arguments go to pytest (e.g. -m "not browser").
set -euo pipefail
cd "$(dirname "$0")/.."

# A browser for the page tests: Debian's chromium when we may install it; otherwise the
# tests look for BRISCOLA_CHROMIUM, /usr/bin/chromium, or Playwright's own browser.
# coturn: the TURN server the tests of playing with friends relay through (skipped without it).
apt_packages=()
if [ -z "${BRISCOLA_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then apt_packages+=(chromium); fi
if [ ! -x /usr/bin/turnserver ]; then apt_packages+=(coturn); fi
if [ "${#apt_packages[@]}" -gt 0 ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_packages[@]}" >/dev/null
fi

python3 -m pip install -q --disable-pip-version-check -r tests/requirements.txt
npm ci --no-audit --no-fund --loglevel=error   # the pinned Pyodide (package-lock.json)
python3 build.py                                # dist/: the site, the wheel, Pyodide
python3 -m pytest -q "$@"

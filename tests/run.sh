#!/usr/bin/env bash
# Install what the tests need, build the site, and run every test. This is the README's
# test command and what CI runs. Extra arguments go to pytest (e.g. -m "not browser").
set -euo pipefail
cd "$(dirname "$0")/.."

# The browsers for the page tests, when we may install them: Debian's chromium and its headless
# shell, the same Chromium without the browser's own layer, which most page tests use
# (otherwise the tests look for BRISCOLA_HEADLESS_SHELL, BRISCOLA_CHROMIUM, /usr/bin/chromium,
# or Playwright's own browser: tools/chromium.py), and WebKitGTK's WebDriver with an X server
# for tests/browser/test_webkit.py (skipped without), and coturn, the TURN server the tests of
# playing with friends relay through (skipped without).
packages=""
if [ -z "${BRISCOLA_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  packages="chromium"
fi
if [ -z "${BRISCOLA_CHROMIUM:-}${BRISCOLA_HEADLESS_SHELL:-}" ] && ! command -v chromium-headless-shell >/dev/null 2>&1; then
  packages="$packages chromium-headless-shell"
fi
if ! command -v WebKitWebDriver >/dev/null 2>&1 || ! command -v Xvfb >/dev/null 2>&1; then
  packages="$packages webkit2gtk-driver xvfb"
fi
if [ ! -x /usr/bin/turnserver ]; then
  packages="$packages coturn"
fi
if [ -n "$packages" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq
  # shellcheck disable=SC2086  # one word per package
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null
fi

python3 -m pip install -q --disable-pip-version-check -r tests/requirements.txt
npm ci --no-audit --no-fund --loglevel=error   # the pinned Pyodide (package-lock.json)
python3 build.py                                # dist/: the site, the wheel, Pyodide
export BRISCOLA_NO_BUILD=1                      # the tests use that dist/ (no second build)
# Three workers (pytest-xdist) on the 2-core machine: the page's tests wait on the pages, the
# connections between friends and their timers as much as they compute, so a third process
# fills the cores those waits leave idle (a fresh clone: 11 min 5 s with three, 13 min 56 s
# with two, every test passed in both; docs/testing.md). BRISCOLA_TEST_WORKERS=0 runs them
# all in one process. Work stealing: each worker starts with its share of the tests in order
# and an idle one takes half of what another has left (xdist's default handed one worker
# nearly all the page's tests while the other ran the engine's and then waited). The slowest
# tests are printed at the end (docs/testing.md lists them and says why each is slow).
python3 -m pytest -q -n "${BRISCOLA_TEST_WORKERS:-3}" --dist worksteal --durations=25 "$@"

"""Headless Chromium as the browser tests, the benchmarks and tools/render_icons.py drive it:
which binary, with which arguments, and waiting on a page for what Playwright cannot wait for.

Standard library only at import time; the callers bring Playwright.
"""
from __future__ import annotations

import os
import shutil
import time

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]

# True once the service worker controls the page and the engine's memory snapshot is kept:
# the first visit is over and the next one can play offline.
OFFLINE_READY = """async () => {
    // The worker is active once its cache is complete; the snapshot is there once stored.
    if (!navigator.serviceWorker.controller) return false;
    for (const name of await caches.keys()) {
        if (name.endsWith(':snapshot') && (await (await caches.open(name)).keys()).length) return true;
    }
    return false;
}"""


def executable() -> str | None:
    """The Chromium named by BRISCOLA_CHROMIUM, else Debian's; None: Playwright's own."""
    named = os.environ.get("BRISCOLA_CHROMIUM")
    if named:
        return named
    for path in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.path.exists(path):
            return path
    return shutil.which("chromium") or shutil.which("chromium-browser")


# The tests' browser: Chromium's headless shell, built from the same source as the browser
# (Debian's `chromium-headless-shell`, the same version as its `chromium`; Playwright's default
# for a headless launch) but without the browser's own layer (profiles' settings, extensions,
# the window's frame): a test's page cost the two cores about a sixth less in it (docs/testing.md).
# What it lacks that a test needs, the test asks of the whole browser (`executable()`): the
# browser's refusal of a third-party frame's storage (tests/browser/test_embed.py).
SHELL_PATHS = ("/usr/bin/chromium-headless-shell", "/usr/lib/chromium/chromium-headless-shell")


def shell_executable() -> str | None:
    """The headless shell named by BRISCOLA_HEADLESS_SHELL, else Debian's; else the browser
    (`executable()`: BRISCOLA_CHROMIUM names one browser for every test)."""
    named = os.environ.get("BRISCOLA_HEADLESS_SHELL")
    if named:
        return named
    if os.environ.get("BRISCOLA_CHROMIUM"):
        return executable()
    for path in SHELL_PATHS:
        if os.path.exists(path):
            return path
    return shutil.which("chromium-headless-shell") or executable()


# WebRTC between pages of one machine (the tests of playing with friends): headless Chromium
# hides its host candidates behind mDNS names that nothing on the loopback resolves.
WEBRTC_LOOPBACK_ARGS = ["--disable-features=WebRtcHideLocalIpsWithMdns"]


def launch(browser_type, extra_args=(), js_flags=(), shell=False, **options):
    """A browser (Playwright's `browser_type`, e.g. `playwright.chromium`) on this Chromium;
    `extra_args`: more command-line switches (e.g. WEBRTC_LOOPBACK_ARGS); `js_flags`: V8's
    (given as one `--js-flags` switch: Chromium reads only one); `shell`: the headless shell
    (`shell_executable()`, the tests'), else the whole browser (the benchmarks': what a
    player's browser does)."""
    args = [*LAUNCH_ARGS, *extra_args]
    if js_flags:
        args.append("--js-flags=" + " ".join(js_flags))
    path = shell_executable() if shell else executable()
    if path is None and not shell:
        # Playwright's own: its headless launch is its headless shell unless asked for the browser
        options.setdefault("channel", "chromium")
    return browser_type.launch(executable_path=path, args=args, **options)


def launch_profile(browser_type, profile, **options):
    """A persistent context on the profile folder `profile` (a real profile: installable,
    kept across a restart), on this Chromium."""
    return browser_type.launch_persistent_context(str(profile), executable_path=executable(),
                                                  args=LAUNCH_ARGS, **options)


def until(page, script: str, timeout: float = 120.0, what: str = "") -> None:
    """Poll an (async) function in the page until it returns something truthy
    (Playwright's wait_for_function takes a returned promise as truthy at once)."""
    end = time.monotonic() + timeout
    while not page.evaluate(script):
        if time.monotonic() > end:
            raise TimeoutError(f"timed out waiting for {what or script}")
        time.sleep(0.1)

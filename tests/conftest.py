"""Shared test setup: the package is imported from ``py/``; markers for the slow levels."""
from __future__ import annotations

import os
import shutil
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = os.path.join(ROOT, "py")
if PY not in sys.path:
    sys.path.insert(0, PY)


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives the built page in a browser (Chromium; WebKit for webkit)")
    config.addinivalue_line("markers", "webkit: drives the built page in WebKitGTK (WebKitWebDriver, Selenium)")
    config.addinivalue_line("markers", "pyodide: runs the engine under Pyodide in Node")
    config.addinivalue_line("markers", "slow: long-running simulation")


@pytest.fixture(scope="session")
def node():
    """The Node executable, for the tests that run the page's modules in Node."""
    exe = shutil.which("node")
    if not exe:
        pytest.skip("node is not installed")
    return exe

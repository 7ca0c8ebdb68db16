"""The project's developer tools: the site's build (tools.build, run by
build.py) and the scripts beside it (see tools/README.md)."""

"""A costly run made once a test run, its output shared by the pytest workers that need it (a
worker stealing a module's tests from another would otherwise run it again): the first worker
to ask runs it, under a lock in the workers' common temporary folder, and the others read what
it wrote."""
import fcntl


def once(request, tmp_path_factory, name, run):
    """``run()``'s text, made once for the whole test run under the name ``name``."""
    if getattr(request.config, "workerinput", None) is None:
        return run()
    shared = tmp_path_factory.getbasetemp().parent  # the workers' folders share a parent, made anew each run
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        out = shared / f"{name}.out"
        if not out.exists():
            out.write_text(run(), encoding="utf-8")
        return out.read_text(encoding="utf-8")

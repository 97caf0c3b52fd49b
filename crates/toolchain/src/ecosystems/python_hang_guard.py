import json, os, signal, sys, threading

_LIMIT = float(os.environ.get("SLOPGUARD_PER_TEST_SECS", "60") or 60)
_PROGRESS = os.environ.get("SLOPGUARD_PROGRESS")


def _progress(line):
    if not _PROGRESS:
        return
    try:
        with open(_PROGRESS, "a", encoding="utf-8") as f:
            f.write(line.replace("\n", " ") + "\n")
    except OSError:
        pass


def _usable():
    return (
        _LIMIT > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )


def _limited(raise_timeout):
    # Runs the generator body (a hook or test phase) under the alarm.
    if not _usable():
        return None

    def handler(signum, frame):
        raise_timeout()

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, _LIMIT)
    return old


def _disarm(old):
    if old is None:
        return
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, old)


def _message(test_id):
    return "%s timed out after %g s (slopguard per-test limit)" % (test_id, _LIMIT)


try:
    import pytest
except ImportError:
    pytest = None

if pytest is not None:

    def _guard(item):
        def fail():
            pytest.fail(_message(item.nodeid))

        old = _limited(fail)
        try:
            yield
        finally:
            _disarm(old)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(item):
        yield from _guard(item)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(item):
        yield from _guard(item)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(item):
        yield from _guard(item)

    def pytest_runtest_logstart(nodeid, location):
        _progress("start " + nodeid)

    def pytest_runtest_logreport(report):
        if report.when == "call" or report.outcome != "passed":
            _progress("%s %s" % (report.outcome, report.nodeid))

    _COVERAGE = os.environ.get("SLOPGUARD_COVERAGE")
    _NOT_PROJECT = ("site-packages", "node_modules", "venv", "__pycache__")

    class _Coverage:
        def __init__(self, root):
            self.root = os.path.realpath(root) + os.sep
            self.paths = {}
            self.tests = {}
            # Lines run outside any test (module code at import, during collection): they
            # belong to every test, as the values they set up do.
            self.outside = {}
            self.lines = self.outside

        def _relative(self, filename):
            rel = self.paths.get(filename)
            if rel is None:
                rel = ""
                real = os.path.realpath(filename)
                if real.startswith(self.root) and os.path.isfile(real):
                    rest = real[len(self.root):]
                    dirs = rest.split(os.sep)[:-1]
                    if not any(d.startswith(".") or d in _NOT_PROJECT for d in dirs):
                        rel = rest.replace(os.sep, "/")
                self.paths[filename] = rel
            return rel

        def _trace(self, frame, event, arg):
            rel = self._relative(frame.f_code.co_filename)
            if not rel:
                return None
            lines = self.lines.setdefault(rel, set())
            lines.add(frame.f_lineno)

            def local(frame, event, arg):
                if event == "line":
                    lines.add(frame.f_lineno)
                return local

            return local

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(self, item, nextitem):
            self.lines = {}
            self.tests[item.nodeid] = {"outcome": "passed", "lines": self.lines}
            sys.settrace(self._trace)
            try:
                yield
            finally:
                self.lines = self.outside

        def pytest_runtest_logreport(self, report):
            test = self.tests.get(report.nodeid)
            if test is not None and report.outcome != "passed" and test["outcome"] == "passed":
                test["outcome"] = report.outcome

        def pytest_sessionfinish(self, session):
            sys.settrace(None)
            out = []
            for k, v in self.tests.items():
                if v["outcome"] == "skipped":
                    continue
                lines = {p: set(l) for p, l in self.outside.items()}
                for p, l in v["lines"].items():
                    lines.setdefault(p, set()).update(l)
                out.append({"id": k, "passed": v["outcome"] == "passed",
                            "lines": {p: sorted(l) for p, l in lines.items()}})
            try:
                with open(_COVERAGE, "w", encoding="utf-8") as f:
                    json.dump(out, f)
            except OSError:
                pass

    def pytest_configure(config):
        if _COVERAGE:
            coverage = _Coverage(os.getcwd())
            config.pluginmanager.register(coverage, "slopguard_coverage")
            sys.settrace(coverage._trace)


def _unittest_main():
    import unittest

    call = unittest.TestCase._callTestMethod

    def limited_call(self, method):
        def fail():
            raise self.failureException(_message(self.id()))

        _progress("start " + self.id())
        old = _limited(fail)
        try:
            call(self, method)
        except unittest.SkipTest:
            _progress("skipped " + self.id())
            raise
        except BaseException:
            _progress("failed " + self.id())
            raise
        else:
            _progress("passed " + self.id())
        finally:
            _disarm(old)

    unittest.TestCase._callTestMethod = limited_call
    unittest.main(module=None, argv=["python -m unittest", "discover", "-v"])


if __name__ == "__main__":
    _unittest_main()

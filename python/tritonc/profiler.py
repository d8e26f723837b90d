"""tritonc.profiler - the names of Triton's Proton profiler (`triton.profiler`),
so that scripts which time their kernels with it (Triton's tutorials 09 and
10 among them) run. tritonc has no Proton: a session is started and
finalised, scopes are entered and left, and nothing is measured or written.
The first start() says so on stderr; kernels run as they would without it
(time them with `tritonc.testing.do_bench`)."""
import contextlib
import functools
import sys

_said = False
_sessions = []


def start(name=None, *, context="shadow", data="tree", backend=None, mode=None, hook=None):
    """Starts a session that measures nothing; returns its id."""
    global _said
    if not _said:
        _said = True
        print("tritonc: triton.profiler (Proton) is not available; '%s' will have no profile"
              % (name or "proton"), file=sys.stderr)
    _sessions.append(name)
    return len(_sessions) - 1


def activate(session=None):
    pass


def deactivate(session=None, flushing=False):
    pass


def finalize(session=None, output_format=None):
    pass


def enter_scope(name, *, triton_op=False, metrics=None):
    return None


def exit_scope(triton_op=False, metrics=None):
    return None


class scope(contextlib.ContextDecorator):
    """`with proton.scope("name", metrics):` and `@proton.scope("name")`."""

    def __init__(self, name, metrics=None):
        self.name, self.metrics = name, metrics

    def __enter__(self):
        enter_scope(self.name, metrics=self.metrics)
        return self

    def __exit__(self, *exc):
        exit_scope(metrics=self.metrics)
        return False


cpu_timed_scope = scope


def profile(func=None, *, name=None, context="shadow", data="tree", backend=None, mode=None, hook=None):
    """`@proton.profile`: the function runs as it is."""
    def wrap(f):
        @functools.wraps(f)
        def run(*a, **k):
            start(name or f.__name__, context=context, data=data, backend=backend, mode=mode, hook=hook)
            try:
                return f(*a, **k)
            finally:
                finalize()
        return run
    return wrap(func) if func is not None else wrap

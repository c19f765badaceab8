"""The ``nptf`` command line: ``nptf export``, ``nptf explain``, ``nptf bench``.

Usage mistakes (a bad spec, a module or function that cannot be found) print
one line on stderr and exit with 2, as argparse does; a function that cannot
be exported or compiled exits with 1. ``--traceback`` shows the full trace.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import inspect
import os
import sys
import time
import warnings

from .errors import SpecError
from .runtime.spec import SPEC_SYNTAX, parse_spec

DEFAULT_SIZE = 1024


class UsageError(Exception):
    """A mistake in the command line: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        # One line, without argparse's usage block: the usage is one --help away.
        print(f"{self.prog}: error: {_one_line(message)} (see {self.prog} --help)",
              file=sys.stderr)
        raise SystemExit(2)


def _one_line(text):
    return " ".join(str(text).split())


# ------------------------------------------------------------------ arguments
def _spec_argument(text):
    try:
        return parse_spec(text)
    except SpecError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _static_argument(text):
    name, sep, value = text.partition("=")
    if not sep or not name.strip().isidentifier():
        raise argparse.ArgumentTypeError(f"cannot parse {text!r}; expected NAME=VALUE with a "
                                         f"Python literal value, e.g. n=3 or axes=(0,1)")
    try:
        return name.strip(), ast.literal_eval(value.strip())
    except (ValueError, SyntaxError):
        raise argparse.ArgumentTypeError(f"the value in {text!r} is not a Python literal; "
                                         f"quote strings: mode='reflect'") from None


def _build_parser():
    parser = _Parser(prog="nptf", description="Compile plain NumPy functions to TensorFlow: "
                     "export them as SavedModels, see what they compile to, time them.")
    parser.add_argument("--traceback", action="store_true",
                        help="show the full Python traceback of an error")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    target = _Parser(add_help=False)
    target.add_argument("target", metavar="MODULE:FUNCTION",
                        help="the function: a dotted module name (importable from the current "
                             "directory) or a path to a .py file, a colon, the function's name")
    target.add_argument("--spec", action="append", type=_spec_argument, default=[],
                        metavar="SPEC", help=f"one array parameter: {SPEC_SYNTAX}. Named specs "
                        f"go to that parameter, unnamed ones to the remaining parameters in order")
    target.add_argument("--static", action="append", type=_static_argument, default=[],
                        metavar="NAME=VALUE", help="a parameter that is not an array, as a "
                        "Python literal (n=3, axes=(0,1)); parameters with defaults may be "
                        "left out")

    export = commands.add_parser(
        "export", parents=[target], help="write the function as a SavedModel",
        description="Trace the function for the given specs and write a SavedModel whose "
                    "serving_default signature runs it without Python or nptf.")
    export.add_argument("-o", "--output", required=True, metavar="DIR",
                        help="the SavedModel directory to write")
    export.add_argument("--xla", action="store_true", help="compile the signature with XLA")
    export.add_argument("--force", action="store_true",
                        help="replace DIR if it is a SavedModel directory (holding "
                             "saved_model.pb) or empty; anything else there is refused")
    export.set_defaults(run=_export)

    explain = commands.add_parser(
        "explain", parents=[target], help="show the IR, the fallback report and the graph size",
        description="Trace the function for the given specs and print the IR before and after "
                    "the passes, why it would run with NumPy if it does, and the size of the "
                    "TensorFlow graph.")
    explain.add_argument("--logdir", metavar="DIR",
                         help="also write the TensorFlow graph to DIR for TensorBoard "
                              "(tensorboard --logdir DIR, Graphs tab)")
    explain.add_argument("--xla", action="store_true", help="explain the XLA-compiled version")
    explain.set_defaults(run=_explain)

    bench = commands.add_parser(
        "bench", parents=[target], help="time NumPy against the compiled function",
        description="Run the function on random inputs of the given specs with NumPy and "
                    "compiled, check that the results agree, and print the median time per "
                    "call, the first-call time and the speedup.")
    bench.add_argument("--repeat", type=_positive_int, default=20, metavar="N",
                       help="timed samples per side (default 20)")
    bench.add_argument("--size", type=_positive_int, default=DEFAULT_SIZE, metavar="N",
                       help=f"the size of each None dimension (default {DEFAULT_SIZE})")
    bench.add_argument("--seed", type=int, default=0, help="random seed of the inputs")
    bench.add_argument("--xla", action="store_true", help="compile with XLA")
    bench.add_argument("--no-progress", action="store_true",
                       help="no progress bar (it is shown only on a terminal anyway)")
    bench.set_defaults(run=_bench)
    return parser


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def main(argv=None):
    parser = _build_parser()
    args = parser.parse_args(argv)
    prog = f"nptf {args.command}"
    try:
        return args.run(args) or 0
    except UsageError as e:
        print(f"{prog}: error: {_one_line(e)} (see {prog} --help)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # noqa: BLE001  (the user's code may raise anything: report it)
        if args.traceback:
            raise
        print(f"{prog}: error: {_describe_error(e)}", file=sys.stderr)
        return 1


def _describe_error(e):
    from .errors import Error as NptfError
    text = str(e) if isinstance(e, (NptfError, OSError)) else f"{type(e).__name__}: {e}"
    return "\n".join([text, *getattr(e, "__notes__", [])])


# ------------------------------------------------------- the user's function
def load_function(target):
    """``module.sub:name`` or ``path/to/file.py:name`` -> the object it names."""
    where, sep, attr = target.rpartition(":")
    if not sep or not where or not attr:
        raise UsageError(f"expected MODULE:FUNCTION, e.g. mymodel:predict or "
                         f"path/to/model.py:predict; got {target!r}")
    module = _import_file(where) if _is_path(where) else _import_module(where)
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise UsageError(f"{where} has no {attr!r}; it defines: {_public_names(module)}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise UsageError(f"{target} is a {type(obj).__name__}, not a function")
    return obj


def _is_path(where):
    return where.endswith(".py") or "/" in where or os.sep in where


def _import_file(where):
    path = os.path.abspath(where)
    if not os.path.isfile(path):
        raise UsageError(f"no such file {where!r}")
    name = os.path.splitext(os.path.basename(path))[0]
    if not name.isidentifier():
        name = "nptf_user_module"
    # Sibling imports in the user's file should work as when run as a script.
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001  (any error in the user's module is a usage error here)
        raise UsageError(f"importing {where} failed: {type(e).__name__}: {e}") from e
    return module


def _import_module(where):
    # A console script does not put the current directory on sys.path; python -m does.
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(where)
    except ModuleNotFoundError as e:
        if e.name and (where == e.name or where.startswith(e.name + ".")):
            raise UsageError(f"no module named {where!r} (run nptf from the directory that "
                             f"contains it, or give the path to its .py file)") from e
        raise UsageError(f"importing {where} failed: {e}") from e
    except Exception as e:  # noqa: BLE001
        raise UsageError(f"importing {where} failed: {type(e).__name__}: {e}") from e


def _public_names(module):
    names = sorted(n for n, v in vars(module).items()
                   if callable(v) and not n.startswith("_")
                   and getattr(v, "__module__", None) == module.__name__)
    if not names:
        return "nothing callable"
    return ", ".join(names[:12]) + (" ..." if len(names) > 12 else "")


def _bind(args):
    """The function and its specs, bound to parameters; usage errors name the fix."""
    from .runtime.export import bind_specs
    fn = load_function(args.target)
    static_args = dict(args.static)
    plain = getattr(fn, "fn", fn)
    try:
        params = inspect.signature(plain).parameters
    except (TypeError, ValueError):
        raise UsageError(f"cannot read the parameters of {args.target}") from None
    for spec in args.spec:
        if spec.name is not None and spec.name not in params:
            raise UsageError(f"--spec {spec} names no parameter of {args.target}; its parameters "
                             f"are {', '.join(params)}")
    try:
        return fn, bind_specs(fn, args.spec, static_args)
    except (TypeError, ValueError) as e:
        raise UsageError(str(e)) from e


# ------------------------------------------------------------------ commands
def _export(args):
    from .runtime.export import export
    fn, bound = _bind(args)
    exported = export(fn, args.output, *bound.specs,
                      static_args={p.name: v for p, s, v, _ in bound.params if s is None},
                      jit_compile=args.xla, force=args.force)
    print(exported)


def _compiled_for(fn, bound, input_signature=None, xla=False):
    from .runtime.compiled import Compiled
    return Compiled(getattr(fn, "fn", fn), jit_compile=True if xla else None,
                    static_argnames=bound.static_names, input_signature=input_signature)


def _examples(specs, size, rng=None):
    """One array per spec: random values (zeros without ``rng``), ``size`` for None dimensions."""
    import numpy as np
    arrays = []
    for spec in specs:
        shape = tuple(size if d is None else d for d in spec.shape)
        if rng is None:
            arrays.append(np.zeros(shape, spec.dtype))
        elif spec.dtype.kind == "b":
            arrays.append(rng.random(shape) < 0.5)
        elif spec.dtype.kind in "iu":
            # From 1 up: integer division and remainder by the inputs stay defined.
            arrays.append(rng.integers(1, 100, shape).astype(spec.dtype))
        elif spec.dtype.kind == "c":
            arrays.append((rng.standard_normal(shape) + 1j * rng.standard_normal(shape))
                          .astype(spec.dtype))
        else:
            arrays.append(rng.standard_normal(shape).astype(spec.dtype))
    return arrays


def _explain(args):
    from .runtime.explain import explain
    fn, bound = _bind(args)
    compiled = _compiled_for(fn, bound, input_signature=bound.specs, xla=args.xla)
    call_args, call_kwargs = bound.arguments(_examples(bound.specs, size=8))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # the fallback is reported below
        report = explain(compiled, *call_args, **call_kwargs)
    specs = " ".join(str(s if s.name else _named(s, p)) for p, s, _, _ in bound.params
                     if s is not None)
    print(f"inputs: {specs or '(none)'}")
    print(report)
    if not report.compiled:
        print("  not exportable: a SavedModel cannot run the NumPy fallback")
        return 0
    print("  fallback: none; every operation compiles, so it can be exported")
    if args.logdir:
        entry = compiled.entry_for(*call_args, **call_kwargs)
        print(f"  graph written for TensorBoard: {_write_graph(entry.concrete, args.logdir)}")
    return 0


def _named(spec, param):
    from .runtime.spec import Spec
    return Spec(spec.shape, spec.dtype, param.name)


def _write_graph(concrete, logdir):
    import tensorflow as tf
    os.makedirs(logdir, exist_ok=True)
    graph_def = concrete.graph.as_graph_def()
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default():
        tf.summary.graph(graph_def)
    writer.close()
    # The same graph as text, for reading without TensorBoard.
    tf.io.write_graph(graph_def, logdir, "graph.pbtxt", as_text=True)
    return logdir


# --------------------------------------------------------------------- bench
class ProgressBar:
    """A one-line progress bar on stderr, drawn only for runs that last.

    Nothing is drawn before ``delay`` seconds, nor when the stream is not a
    terminal (logs and pipes stay clean) unless ``enabled=True``.
    """

    WIDTH = 30

    def __init__(self, total, label="", stream=None, enabled=None, delay=0.5):
        self.total, self.label, self.done = total, label, 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.start = time.perf_counter()
        self.delay, self.drawn_at = delay, None

    def update(self, n=1):
        self.done = min(self.total, self.done + n)
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.start < self.delay:
            return
        if self.drawn_at is None or now - self.drawn_at >= 0.1 or self.done == self.total:
            filled = self.WIDTH * self.done // max(self.total, 1)
            bar = "#" * filled + "." * (self.WIDTH - filled)
            self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total}")
            self.stream.flush()
            self.drawn_at = now

    def close(self):
        if self.drawn_at is not None:
            self.stream.write("\n")
            self.stream.flush()


def _format_time(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def _mismatch(expected, got):
    """Why ``got`` is not NumPy's ``expected`` result (None when it is)."""
    import numpy as np
    from .tree import flatten
    want, want_tree = flatten(expected)
    have, have_tree = flatten(got)
    if want_tree != have_tree:
        return f"the result's structure differs: NumPy {want_tree}, compiled {have_tree}"
    for i, (a, b) in enumerate(zip(want, have)):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype != b.dtype or a.shape != b.shape:
            return (f"output {i} is {b.dtype}{list(b.shape)} where NumPy gives "
                    f"{a.dtype}{list(a.shape)}")
        if a.dtype.kind in "fc":
            tol = {2: 1e-2, 4: 1e-4}.get(a.dtype.itemsize if a.dtype.kind == "f"
                                         else a.dtype.itemsize // 2, 1e-9)
            ok = np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)
        else:
            ok = np.array_equal(a, b)
        if not ok:
            return f"output {i} has different values (largest difference {_largest_gap(a, b)})"
    return None


def _largest_gap(a, b):
    import numpy as np
    with np.errstate(all="ignore"):
        gap = np.abs(a.astype(np.complex128) - b.astype(np.complex128))
    return np.nanmax(gap) if gap.size else 0


def _calls_per_sample(fn, target=2e-3):
    """How many calls make one sample last about ``target`` seconds (timer noise)."""
    start = time.perf_counter()
    fn()
    once = time.perf_counter() - start
    return max(1, min(10_000, int(target / max(once, 1e-7))))


def _sample(fn, number):
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


def _bench(args):
    import numpy as np
    from .runtime.entry import compiled_of
    fn, bound = _bind(args)
    rng = np.random.default_rng(args.seed)
    arrays = _examples(bound.specs, args.size, rng)
    call_args, call_kwargs = bound.arguments(arrays)
    plain = getattr(fn, "fn", fn)
    compiled = fn if compiled_of(fn) is not None and not args.xla else \
        _compiled_for(fn, bound, xla=args.xla)

    start = time.perf_counter()
    expected = plain(*call_args, **call_kwargs)
    numpy_first = time.perf_counter() - start
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # the fallback is reported below
        start = time.perf_counter()
        got = compiled(*call_args, **call_kwargs)
        compiled_first = time.perf_counter() - start
    wrong = _mismatch(expected, got)
    if wrong:
        raise ValueError(f"the compiled result differs from NumPy's, so no time is reported: "
                         f"{wrong}")
    fallback = compiled.entry_for(*call_args, **call_kwargs).fallback_reason

    run_numpy = lambda: plain(*call_args, **call_kwargs)  # noqa: E731
    run_compiled = lambda: compiled(*call_args, **call_kwargs)  # noqa: E731
    warm_up = _warm_up(compiled, run_compiled, call_args, call_kwargs)
    numbers = (_calls_per_sample(run_numpy), _calls_per_sample(run_compiled))
    times = ([], [])
    progress = ProgressBar(2 * args.repeat, "timing", enabled=False if args.no_progress else None)
    for _ in range(args.repeat):
        # Interleaved, so a slow moment of the machine hits both sides alike.
        for side, run in enumerate((run_numpy, run_compiled)):
            times[side].append(_sample(run, numbers[side]))
            progress.update()
    progress.close()

    numpy_median, compiled_median = (float(np.median(t)) for t in times)
    array_params = [p for p, spec, _, _ in bound.params if spec is not None]
    sizes = ", ".join(f"{p.name}={a.dtype}{list(a.shape)}" for p, a in zip(array_params, arrays))
    print(f"{args.target}({sizes}), {args.repeat} samples, results match NumPy")
    rows = [("NumPy", numpy_median, numpy_first, 1.0),
            ("nptf" + (" (XLA)" if args.xla else ""), compiled_median, compiled_first,
             numpy_median / compiled_median)]
    print(f"{'':12s} {'median':>10s} {'first call':>12s} {'speedup':>8s}")
    for name, median, first, ratio in rows:
        print(f"{name:12s} {_format_time(median):>10s} {_format_time(first):>12s} "
              f"{ratio:>7.2f}x")
    calls, slowest, median, way = warm_up
    if calls:
        print(f"warm-up: calls 2-{calls + 1} ({way} chosen after them): median "
              f"{_format_time(median)}, slowest {_format_time(slowest)}")
    else:
        print(f"warm-up: none ({way} from the second call)")
    if fallback:
        print(f"note: nptf runs this signature with NumPy: {fallback}")
    return 0


def _warm_up(compiled, run, args, kwargs, max_calls=2000, max_seconds=20.0):
    """The calls after the first until the dispatch settles: (how many, the slowest
    one's time, their median time, the way chosen)."""
    import numpy as np
    times, start = [], time.perf_counter()
    way = compiled.way_for(*args, **kwargs)
    while way is None and len(times) < max_calls and time.perf_counter() - start < max_seconds:
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
        way = compiled.way_for(*args, **kwargs)
    if way is None:
        way = "no way (still measuring)"
    if not times:
        return 0, 0.0, 0.0, way
    return len(times), max(times), float(np.median(times)), way


__all__ = ["main", "load_function", "ProgressBar"]

"""print() and text of traced values: printed when the graph runs, on every call and
every iteration, with NumPy's text; text made of traced values (f-strings, str(),
repr(), format(), %, str.format, join) returned as the strings NumPy's run returns."""
from __future__ import annotations

import contextlib
import io
import logging
import sys
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch


def printed(fn, *args, **kwargs):
    """What ``fn(*args)`` prints to stdout, and its result."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn(*args, **kwargs)
    return out.getvalue(), result


def assert_prints_as_numpy(fn, *args, calls=3, **compile_kw):
    want, expected = printed(fn, *args)
    compiled = nptf.compile(fn, fallback="raise", **compile_kw)
    for k in range(calls):
        got, result = printed(compiled, *args)
        assert got == want, f"call {k}: printed {got!r}, NumPy printed {want!r}"
    assert mismatch(expected, result) is None, mismatch(expected, result)   # dtype, shape
    return compiled


# ------------------------------------------------------------ training loops
def gradient_descent(X, y, n_iter=60, lr=0.1):
    w = np.zeros(X.shape[1])
    for i in range(n_iter):
        p = 1 / (1 + np.exp(-(X @ w)))
        loss = -np.mean(y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9))
        w -= lr * X.T @ (p - y) / len(y)
        if i % 20 == 0:
            print(f"iter {i:3d}: loss {loss:.4f}")
    print("final weights", w)
    return w


def until_converged(x):
    steps = 0
    while np.abs(x).max() > 1e-3:
        x = x / 2
        steps += 1
        print("step", steps, "max", np.abs(x).max())
    return x


def test_a_training_loop_prints_its_progress_on_every_call(jit):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    y = (X[:, 0] > 0).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # runs without XLA
        assert_prints_as_numpy(gradient_descent, X, y, jit_compile=jit)


def test_a_loop_the_data_end_prints_each_iteration():
    assert_prints_as_numpy(until_converged, np.array([1.0, -3.0]))
    assert_prints_as_numpy(until_converged, np.array([1e-4]))    # never runs: prints nothing


def test_every_call_prints_once_while_adaptive_dispatch_times_the_ways():
    def shout(x):
        print("called with", x)
        return x * 2

    compiled = nptf.compile(shout, fallback="raise")
    for k in range(30):
        got, _ = printed(compiled, np.arange(3.0))
        assert got == "called with [0. 1. 2.]\n", f"call {k}: {got!r}"


def unrolled_steps(x):
    for k in range(3):
        print("step")           # the same print three times: not merged into one
        x = x + k
    return x


def test_equal_prints_are_not_merged():
    assert_prints_as_numpy(unrolled_steps, np.ones(2))


def branch_prints(x):
    if x.sum() > 0:
        print("positive", x.sum())
    else:
        print("not positive")
    return x


def test_a_print_under_a_traced_if_runs_on_the_path_the_data_take():
    compiled = nptf.compile(branch_prints, fallback="raise")
    for x in (np.ones(2), -np.ones(2), np.ones(2)):
        assert printed(compiled, x)[0] == printed(branch_prints, x)[0]


# ------------------------------------------------------------ what is printed
def mixed(x):
    m = x.mean()
    print(m, float(m), x.sum() > 0, [m, 1], (x[0], "a"), {"max": x.max()})
    print("a", x[:2], sep="", end="|\n")
    print(m.astype(np.float32), x.astype(np.int32), int(x.argmax()))
    return m


def test_printed_values_are_the_objects_numpy_s_run_has():
    # NumPy scalars print as np.float64(...) inside lists, Python floats as numbers.
    assert_prints_as_numpy(mixed, np.array([1.5, -2.0, 4.25]))


LOG = io.StringIO()


def to_file(x):
    print("sum", x.sum(), file=LOG)
    return x + 1


def test_print_to_a_file_object_writes_there_when_the_graph_runs():
    compiled = nptf.compile(to_file, fallback="raise")
    for k in range(3):
        LOG.seek(0)
        LOG.truncate()
        compiled(np.arange(4.0))
        assert LOG.getvalue() == "sum 6.0\n"


# ------------------------------------------------------------ text
def report(x):
    m, s = x.mean(), x.std()
    p = 2
    return (f"mean={m:.3f} std={s:.{p}f} first={x[0]!r}", str(x.sum()), repr(x.max()),
            format(m, ".2e"), "%.2f / %d" % (s, x.size), "{:>8.3f}".format(m),
            ", ".join(f"{v:.1f}" for v in x[:3]), "total: " + str(x.sum()) + "!",
            f"{m:.2f}".rjust(10), {"label": f"{int(x.argmax())}"})


def test_text_of_traced_values_is_the_string_numpy_s_run_makes():
    check_against_numpy(report, np.array([1.25, -2.5, 7.0, 3.0]))
    check_against_numpy(report, np.arange(5, dtype=np.float32))


def message(x):
    text = f"{x.min():.2f}..{x.max():.2f}"
    print("range", text)
    return x - x.min()


def test_text_made_once_and_printed_later():
    assert_prints_as_numpy(message, np.array([3.0, -1.0]))


def text_length(x):
    return len(f"{x.sum()}")


def text_key(x):
    d = {}
    d[str(x.argmax())] = 1
    return d


def text_compared(x):
    return str(x.argmax()) == "0"


def text_as_number(x):
    return int("".join(str(int(v)) for v in x[:2])) + 1


@pytest.mark.parametrize("fn", [text_length, text_key, text_compared, text_as_number])
def test_uses_of_text_that_need_the_string_take_the_data_s_string(fn, tmp_path):
    """The string the call's data make, which the graph checks the data to make (a graph
    for each); one graph for all data (a SavedModel's) refuses it, naming the line."""
    for x in ([0.0, 1.0, 2.0], [3.0, 1.0, 2.0], [0.0, 1.0, 2.0], [10.5, 7.0, 20.0]):
        check_against_numpy(fn, np.array(x))
    with pytest.raises(nptf.TracerConversionError, match=r"text made of traced values.*\n  at .*"
                                                         r"test_printing\.py"):
        nptf.export(fn, tmp_path / "m", nptf.Spec((3,)))


def shout(x):
    print("x", x)
    return x + 1


def test_export_of_a_function_that_prints_says_why_it_cannot(tmp_path):
    with pytest.raises(nptf.UnsupportedError, match="print"):
        nptf.export(shout, str(tmp_path / "m"), nptf.Spec((3,), np.float64))


def test_vmap_of_a_function_that_prints_runs_numpy_row_by_row():
    def f(x):
        print("row", x.sum())
        return x * 2

    xs = np.arange(6.0).reshape(2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got, result = printed(nptf.vmap(f), xs)
    assert got == "row 3.0\nrow 12.0\n"
    np.testing.assert_array_equal(result, xs * 2)


def labels(X):
    kind = "wide" if X.shape[1] > X.shape[0] else "tall"     # known when tracing
    if X.sum() > 0:
        status = "positive"
    else:
        status = "negative"
    orientation = "ccw" if X[0, 0] - X[-1, -1] > 0 else "cw"
    return kind, status, orientation, f"{status}: {X.max():.1f}"


def test_a_string_an_if_on_traced_values_chooses_is_the_path_s():
    for X in (np.arange(6.0).reshape(2, 3), -np.arange(6.0).reshape(3, 2), np.eye(2)):
        check_against_numpy(labels, X)


# ------------------------------------------------------------ logging, warnings, write
LOGGER = logging.getLogger("nptf-test-training")


def logged_training(x, n=30):
    w = 0.0
    for i in range(n):
        loss = np.mean((x - w) ** 2)
        w = w + 0.1 * np.mean(x - w)
        if i % 10 == 0:
            LOGGER.info("step %d loss %.4f", i, loss)
            LOGGER.debug(f"w {w:.3f}")      # below the level: not handled
    if loss > 0.5:
        warnings.warn(f"not converged: loss {loss:.3f}", RuntimeWarning)
    return w


def test_logging_and_warnings_happen_when_the_graph_runs_from_the_user_s_line(caplog):
    x = np.linspace(0, 3, 10)
    compiled = nptf.compile(logged_training, fallback="raise")
    for k in range(3):
        caplog.clear()
        with caplog.at_level(logging.INFO, logger=LOGGER.name), \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            compiled(x)
        assert [(r.getMessage(), r.filename, r.lineno) for r in caplog.records] == [
            (f"step {i} loss {np.mean((x - w) ** 2):.4f}", "test_printing.py",
             logged_training.__code__.co_firstlineno + 6)
            for i, w in zip((0, 10, 20), _weights(x, (0, 10, 20)))]
        assert [(str(w.message)[:15], w.category, w.filename, w.lineno) for w in caught] == [
            ("not converged: ", RuntimeWarning, __file__,
             logged_training.__code__.co_firstlineno + 9)]


def _weights(x, steps):
    w, out = 0.0, {}
    for i in range(max(steps) + 1):
        out[i] = w
        w = w + 0.1 * np.mean(x - w)
    return [out[i] for i in steps]


def progress(x):
    for i in range(3):
        x = x * 0.5
        sys.stdout.write(f"step {i}: {x.sum():.3f}\n")
    return x


def test_writes_to_sys_stdout_happen_when_the_graph_runs():
    assert_prints_as_numpy(progress, np.arange(4.0))


class _Config:
    def __init__(self, lr):
        self.lr = lr

    def __repr__(self):
        return f"Config(lr={self.lr})"


TABLE = np.array([1, 2, 3])


def objects_printed(x, cfg):
    print(cfg, TABLE, [cfg], x.max())
    return x * cfg.lr


def test_objects_known_when_tracing_print_as_themselves():
    x = np.arange(3.0)
    cfg = _Config(0.5)
    want = printed(objects_printed, x, cfg)[0]
    compiled = nptf.compile(objects_printed, fallback="raise", static_argnames=["cfg"])
    assert printed(compiled, x, cfg)[0] == want


class _Labelled:
    def __init__(self, x):
        self.label = f"mean {x.mean():.2f}"     # text made of traced values

    def __str__(self):
        return self.label


def print_labelled(x):
    print(_Labelled(x))
    return x


def test_print_of_an_object_whose_text_is_made_of_traced_values_is_refused():
    with pytest.raises(nptf.TracerConversionError, match=r"_Labelled object.*\n  at .*"
                                                         r"test_printing\.py"):
        nptf.compile(print_labelled, fallback="raise")(np.arange(3.0))


def caesar(codes, shift=3):
    arr = np.asarray(codes, dtype=np.uint8)
    upper = (arr >= 65) & (arr <= 90)
    lower = (arr >= 97) & (arr <= 122)
    out = arr.copy()
    out[upper] = (arr[upper] - 65 + shift) % 26 + 65
    out[lower] = (arr[lower] - 97 + shift) % 26 + 97
    return out, out.tobytes().decode("ascii")


def characters(x):
    return "".join(chr(v) for v in x[:4]), chr(x[0] + 1), bytes(x[:3].tolist()), \
        x.tobytes().hex(), x[:2].tobytes()


def test_bytes_and_characters_of_traced_values_are_text(tmp_path):
    """``a.tobytes()``, ``chr(i)`` and ``bytes(list)`` of traced values are made when the
    graph has run, like an f-string: returned, joined, decoded."""
    codes = np.frombuffer(b"Hello, World", dtype=np.uint8).copy()
    check_against_numpy(caesar, codes)
    check_against_numpy(characters, codes)
    # What needs the bytes while tracing (their length, NumPy reading them) takes the
    # bytes of the call's data, which the graph checks; one graph for all data cannot.
    reread = lambda x: np.frombuffer(bytes(x.tolist()), dtype=np.uint8) + 1  # noqa: E731
    for x in (codes, codes[::-1].copy()):
        check_against_numpy(lambda x: len(x.tobytes()) + len(bytes(x[:3].tolist())), x)
        check_against_numpy(reread, x)
    with pytest.raises(nptf.TracerConversionError, match="np.frombuffer"):
        nptf.export(reread, tmp_path / "m", nptf.Spec(codes.shape, np.uint8))


HEX = "0123456789abcdef"
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def hex_of(data):
    return "".join(HEX[h] + HEX[l] for h, l in zip(data >> 4, data & 0x0F))


def day_names(days):
    return [DAYS[int(d)] for d in (days + 3) % 7], DAYS[-int(days[0] % 7) - 1]


def letter_at(x):
    return "abc"[int(x.sum())]


def test_strings_read_at_traced_positions_are_text():
    """A string, or a tuple or list of strings, read at a traced position: the text, made
    when the graph has run; a position out of range raises Python's IndexError."""
    check_against_numpy(hex_of, np.array([0, 15, 16, 171, 255], dtype=np.uint8))
    check_against_numpy(day_names, np.array([0, 1, 4, 10, 19000]))
    for x in ([1], [-1], [-3], [5], [-4]):
        check_against_numpy(letter_at, np.array(x))

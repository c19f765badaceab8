"""Python state a compiled function changes (its arguments' containers, globals, closures,
objects it reaches), against running the plain function with NumPy: the values, and the
caller's containers and globals after the calls, with fallback="numpy" (the function runs
with NumPy, with a warning naming the variable and line) and fallback="raise" (an
UnsupportedError naming them, the state left as it was)."""
from __future__ import annotations

import copy
import functools
import importlib
import inspect
import sys
import warnings

import numpy as np
import pytest

import nptf


def _line(fn, marker):
    """file:line of the line of ``fn``'s source that ends with ``# marker``."""
    lines, first = inspect.getsourcelines(fn)
    for i, text in enumerate(lines):
        if text.rstrip().endswith(f"# {marker}"):
            return f"{inspect.getsourcefile(fn)}:{first + i}"
    raise AssertionError(f"no line marked {marker!r} in {fn.__name__}")


def _expect_same(expected, got, where="state"):
    assert type(got) is type(expected), f"{where}: {type(got).__name__} != {type(expected).__name__}"
    if isinstance(expected, dict):
        assert list(got) == list(expected), f"{where}: keys {list(got)} != {list(expected)}"
        for k in expected:
            _expect_same(expected[k], got[k], f"{where}[{k!r}]")
    elif isinstance(expected, (list, tuple)):
        assert len(got) == len(expected), f"{where}: length {len(got)} != {len(expected)}"
        for i, (e, g) in enumerate(zip(expected, got)):
            _expect_same(e, g, f"{where}[{i}]")
    elif isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype and got.shape == expected.shape, where
        np.testing.assert_array_equal(got, expected, err_msg=where)
    elif hasattr(expected, "__dict__") and not isinstance(expected, type):
        _expect_same(vars(expected), vars(got), where)
    else:
        assert got == expected, f"{where}: {got!r} != {expected!r}"


def check(fn, setup, name, where, calls=2, **options):
    """``setup()`` -> (args, state): fresh arguments, and a function reading the state the
    calls may change. Compares the compiled function with the plain one in both modes."""
    args, state = setup()
    expected = [fn(*args) for _ in range(calls)]
    expected_state = copy.deepcopy(state())

    args, state = setup()
    f = nptf.compile(fn, **options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = [f(*args) for _ in range(calls)]
    messages = [str(w.message) for w in caught if "runs with NumPy" in str(w.message)]
    assert messages, "no fallback warning"
    for m in messages:
        assert f"`{name}`" in m and "once instead of on every call" in m, m
        assert m.endswith(f"at {where}"), m
    assert f.cache_info().fallbacks == calls
    _expect_same(expected, got, "results")
    _expect_same(expected_state, state())

    args, state = setup()
    before = copy.deepcopy(state())
    f = nptf.compile(fn, fallback="raise", **options)
    with pytest.raises(nptf.UnsupportedError) as info:
        f(*args)
    message = str(info.value)
    assert f"`{name}`" in message and "once instead of on every call" in message, message
    assert message.endswith(f"at {where}"), message
    _expect_same(before, state())       # what the trace changed is undone


# ---------------------------------------------------------------- arguments
def write_into_dict(x, d):
    d["y"] = x * 2              # dict argument
    return x + 1


def test_a_write_into_a_dict_argument_reaches_the_caller():
    def setup():
        d = {"a": np.ones(3)}
        return (np.arange(3.0), d), lambda: d
    check(write_into_dict, setup, "d", _line(write_into_dict, "dict argument"))


def update_dict(x, d):
    d.update(total=x.sum())     # update
    return x


def test_a_dict_method_on_an_argument():
    def setup():
        d = {"a": np.ones(3)}
        return (np.arange(3.0), d), lambda: d
    check(update_dict, setup, "d", _line(update_dict, "update"))


def append_to_list_argument(x, out):
    out.append(x.sum())         # list argument
    return x * 2


def test_appending_to_a_list_argument_runs_with_numpy():
    # A list argument is an array to nptf, which has no append.
    def setup():
        out = [1.0, 2.0]
        return (np.arange(3.0), out), lambda: out
    check(append_to_list_argument, setup, "out", _line(append_to_list_argument, "list argument"),
          calls=1)


class Holder:
    pass


def set_attribute(x, holder):
    holder.total = x.sum()      # attribute of an argument
    return x


def test_an_attribute_set_on_an_object_passed_in():
    def setup():
        h = Holder()
        return (np.arange(3.0), h), lambda: h
    check(set_attribute, setup, "holder", _line(set_attribute, "attribute of an argument"),
          static_argnames=("holder",))


def accumulate(x, d):
    d["n"] += 1.0               # in-place operator
    return x


def test_an_in_place_operator_that_rebinds_a_dict_entry():
    def setup():
        d = {"n": 0.0}
        return (np.arange(3.0), d), lambda: d
    check(accumulate, setup, "d", _line(accumulate, "in-place operator"))


def swallowed(x, d):
    try:
        d["y"] = x              # caught
    except Exception:           # noqa: BLE001
        pass
    return x


def test_a_refused_write_stays_refused_when_the_function_catches_the_error():
    def setup():
        d = {}
        return (np.arange(3.0), d), lambda: d
    check(swallowed, setup, "d", _line(swallowed, "caught"))


DEFAULT_HOLDER = Holder()


def tally(x, holder=DEFAULT_HOLDER):
    holder.count = getattr(holder, "count", 0) + 1    # default
    return x


def test_an_object_that_is_a_default_argument_value():
    def setup():
        vars(DEFAULT_HOLDER).clear()
        return (np.arange(3.0),), lambda: DEFAULT_HOLDER
    check(tally, setup, "holder", _line(tally, "default"))


# ------------------------------------------------------------------ globals
CALLS = 0
LOG = []
CACHE = {}
SEEN = set()
BUF = np.zeros(3)
HISTORY = []
BUMPS = 0


def count_calls(x):
    global CALLS
    CALLS += 1                  # global counter
    return x * 2


def test_a_global_counter_counts_every_call():
    def setup():
        globals()["CALLS"] = 0
        return (np.arange(3.0),), lambda: CALLS
    check(count_calls, setup, "CALLS", _line(count_calls, "global counter"), calls=3)


def log_sum(x):
    LOG.append(x.sum())         # global list
    return x - 1


def test_appending_to_a_global_list():
    def setup():
        LOG.clear()
        return (np.arange(3.0),), lambda: LOG
    check(log_sum, setup, "LOG", _line(log_sum, "global list"))


def log_rows(x):
    for row in x:               # twelve rows: a graph loop, not unrolled
        LOG.append(row.sum())   # in a loop
    return x


def test_appending_to_a_global_list_inside_a_compiled_loop():
    def setup():
        LOG.clear()
        return (np.arange(24.0).reshape(12, 2),), lambda: LOG
    check(log_rows, setup, "LOG", _line(log_rows, "in a loop"))


def log_if_positive(x):
    if x.sum() > 0:             # a traced condition: both branches are traced
        LOG.append(x.max())     # in a branch
    return x


def test_appending_to_a_global_list_in_a_traced_branch():
    def setup():
        LOG.clear()
        return (np.arange(3.0),), lambda: LOG
    check(log_if_positive, setup, "LOG", _line(log_if_positive, "in a branch"))


def _closure_loggers():
    """Functions nested in another, appending to a list of the enclosing function in a
    branch or a loop (the enclosing list is then that statement's state)."""
    log = []

    def log_if_positive(x):
        if x.sum() > 0:
            log.append(x.max())         # enclosing, traced branch
        return x

    def log_if_array(x):
        if isinstance(x, np.ndarray):   # a Python condition: one branch is traced
            log.append(1)               # enclosing, static branch
        return x * 2.0

    def log_positive_entries(x):
        for i in range(3):
            if x[i] > 0:
                log.append(float(x[i]))     # enclosing, in a loop
        return x + 1.0

    return log, (log_if_positive, "enclosing, traced branch"), \
        (log_if_array, "enclosing, static branch"), (log_positive_entries, "enclosing, in a loop")


@pytest.mark.parametrize("which", [1, 2, 3])
def test_appending_to_a_list_of_the_enclosing_function(which):
    """The calls run NumPy, with NumPy's results and appends (an nptf error under
    fallback="raise"), never a Python error of nptf's making."""
    log, *fns = _closure_loggers()
    fn, marker = fns[which - 1]
    x = np.arange(3.0) - 0.5
    expected = [fn(x), fn(x)]
    expected_log = list(log)
    log.clear()
    f = nptf.compile(fn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = [f(x), f(x)]
    assert any("runs with NumPy" in str(w.message) for w in caught)
    _expect_same(expected, got, "results")
    _expect_same(expected_log, log, "log")
    log.clear()
    with pytest.raises(nptf.UnsupportedError) as info:
        nptf.compile(fn, fallback="raise")(x)
    assert str(info.value).endswith(f"at {_line(fn, marker)}") or \
        f"{inspect.getsourcefile(fn)}:" in str(info.value), str(info.value)
    assert log == []


def cache_by_size(x):
    CACHE[x.shape[0]] = x * 2   # global dict
    SEEN.add(x.shape)
    return x


def test_writing_into_a_global_dict():
    def setup():
        CACHE.clear()
        SEEN.clear()
        return (np.arange(3.0),), lambda: (CACHE, SEEN)
    check(cache_by_size, setup, "CACHE", _line(cache_by_size, "global dict"))


def note_shape(x):
    SEEN.add(x.shape)           # global set
    return x


def test_adding_to_a_global_set():
    def setup():
        SEEN.clear()
        return (np.arange(3.0),), lambda: SEEN
    check(note_shape, setup, "SEEN", _line(note_shape, "global set"))


def store_first(x):
    BUF[0] = x[0]               # global array
    return x + BUF


def test_writing_into_a_global_array():
    def setup():
        BUF[:] = 0
        return (np.arange(1.0, 4.0),), lambda: BUF
    check(store_first, setup, "BUF", _line(store_first, "global array"))


class Model:
    scale = 2.0

    def __init__(self):
        self.last = None

    def observe(self, v):
        self.last = v           # method
        return v * self.scale


MODEL = Model()


def observe_max(x):
    return MODEL.observe(x.max())


def test_a_method_that_sets_an_attribute_of_a_global_object():
    def setup():
        MODEL.last = None
        return (np.arange(3.0),), lambda: MODEL
    check(observe_max, setup, "MODEL", _line(Model.observe, "method"))


def _remember(v):
    HISTORY.append(v)           # helper
    return v


def uses_helper(x):
    return _remember(x.sum()) * x


def test_a_helper_function_that_appends_to_a_global():
    def setup():
        HISTORY.clear()
        return (np.arange(3.0),), lambda: HISTORY
    check(uses_helper, setup, "HISTORY", _line(_remember, "helper"))


def _bump():
    global BUMPS
    BUMPS += 1                  # helper global


def bumps(x):
    _bump()
    return x + 1


def test_a_helper_function_that_rebinds_a_global():
    def setup():
        globals()["BUMPS"] = 0
        return (np.arange(3.0),), lambda: BUMPS
    check(bumps, setup, "BUMPS", _line(_bump, "helper global"))


def test_a_global_rebound_where_the_function_runs_on_a_copy_of_its_globals():
    # A module that imports a NumPy creation function by name gets its functions
    # traced with a copy of their globals: the rebinding lands in the copy.
    namespace = {"zeros": np.zeros, "COUNT": 0}
    exec("def counted(x):\n    global COUNT\n    COUNT += 1\n    return x + zeros(3)\n",
         namespace)

    def setup():
        namespace["COUNT"] = 0
        return (np.arange(3.0),), lambda: namespace["COUNT"]
    check(namespace["counted"], setup, "COUNT", "<string>:1")


def test_changes_made_before_another_unsupported_call_are_undone():
    def logged_polydiv(x):
        LOG.append(1.0)         # before polydiv
        return np.polydiv(x, x[:2] + 1.0)

    def setup():
        LOG.clear()
        return (np.arange(3.0),), lambda: LOG
    check(logged_polydiv, setup, "LOG", _line(logged_polydiv, "before polydiv"))


def test_a_helper_in_another_module_that_rebinds_that_module_s_global(tmp_path, monkeypatch):
    (tmp_path / "side_effect_helpers.py").write_text(
        "COUNT = 0\n"
        "\n"
        "def bump():\n"
        "    global COUNT\n"
        "    COUNT += 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    helpers = importlib.import_module("side_effect_helpers")
    monkeypatch.setitem(sys.modules, "side_effect_helpers", helpers)

    def bumped(x):
        helpers.bump()
        return x * 2

    def setup():
        helpers.COUNT = 0
        return (np.arange(3.0),), lambda: helpers.COUNT
    check(bumped, setup, "COUNT", f"{tmp_path / 'side_effect_helpers.py'}:5")


class Settings:
    def __init__(self, n):
        self.n = n

    @functools.cached_property
    def factor(self):
        return self.n * 2.0             # a Python number: cached, harmless

    @functools.cached_property
    def ramp(self):
        return np.arange(self.n) * 0.5  # traced while tracing: cannot be cached then


SETTINGS = Settings(3)


def scaled_by_ramp(x):  # ramp
    return x * SETTINGS.ramp


def test_a_cached_property_caches_a_number_but_not_a_traced_array():
    def scaled_by_factor(x):
        return x * SETTINGS.factor

    f = nptf.compile(scaled_by_factor, fallback="raise")
    np.testing.assert_array_equal(f(np.ones(3)), np.full(3, 6.0))
    assert f.cache_info().fallbacks == 0 and SETTINGS.factor == 6.0

    def setup():
        vars(SETTINGS).pop("ramp", None)
        return (np.arange(3.0),), lambda: SETTINGS
    check(scaled_by_ramp, setup, "SETTINGS.ramp", _line(scaled_by_ramp, "ramp"))


# ----------------------------------------------------------------- closures
def test_a_nonlocal_counter_and_a_closure_list():
    count = 0
    seen = []

    def counted(x):
        nonlocal count
        count += 1              # nonlocal
        return x * 2

    def appended(x):
        seen.append(x.sum())    # closure list
        return x * 2

    def setup_count():
        nonlocal count
        count = 0
        return (np.arange(3.0),), lambda: count

    def setup_seen():
        seen.clear()
        return (np.arange(3.0),), lambda: seen
    check(counted, setup_count, "count", _line(counted, "nonlocal"))
    check(appended, setup_seen, "seen", _line(appended, "closure list"))


# ------------------------------------------------------ what still compiles
SCALE = 3.0
WEIGHTS = {"w": np.arange(3.0), "b": 1.0}
STEPS = [1.0, 2.0, 4.0]


def test_reads_and_local_containers_compile_where_writes_do_not():
    offset = np.ones(3)

    def reads(x, params):
        parts = []                              # the function's own list
        for s in STEPS:
            parts.append(x * s * SCALE + WEIGHTS["w"] * WEIGHTS["b"])
        table = {"sum": np.stack(parts).sum(axis=0)}   # its own dict
        table["offset"] = offset + params["a"]
        params["a"][0] = 5.0                    # into an array argument: written back
        params["b"] += 1.0                      # likewise, in place
        return table["sum"] + table["offset"], MODEL.scale

    def writes(x, params):
        WEIGHTS["w"] = x                        # the same global, written
        return x

    x, params = np.arange(3.0), {"a": np.zeros(3), "b": np.ones(3)}
    expected = reads(x, {k: v.copy() for k, v in params.items()})
    f = nptf.compile(reads, fallback="raise")
    got = f(x, params)
    _expect_same(expected, got, "results")
    assert f.cache_info().fallbacks == 0
    np.testing.assert_array_equal(params["a"], [5.0, 0.0, 0.0])
    np.testing.assert_array_equal(params["b"], [2.0, 2.0, 2.0])
    assert STEPS == [1.0, 2.0, 4.0] and SCALE == 3.0 and list(WEIGHTS) == ["w", "b"]
    with pytest.raises(nptf.UnsupportedError, match="`WEIGHTS`"):
        nptf.compile(writes, fallback="raise")(x, params)
    np.testing.assert_array_equal(WEIGHTS["w"], np.arange(3.0))


def test_random_numbers_and_static_arguments_still_compile_where_writes_do_not():
    def draw(x, n):
        return x + np.random.normal(size=x.shape) * n

    def draw_and_log(x, n):
        LOG.append(n)
        return draw(x, n)

    f = nptf.compile(draw, static_argnames=("n",), fallback="raise")
    np.random.seed(0)
    got = f(np.zeros(3), 2)
    assert got.shape == (3,) and f.cache_info().fallbacks == 0
    LOG.clear()
    with pytest.raises(nptf.UnsupportedError, match="`LOG`"):
        nptf.compile(draw_and_log, static_argnames=("n",), fallback="raise")(np.zeros(3), 2)
    assert LOG == []


def test_the_error_names_the_variable_and_line_of_a_write_through_another_name():
    def through_alias(x, d):
        table = d
        table["y"] = x          # alias
        return x

    with pytest.raises(nptf.UnsupportedError) as info:
        nptf.compile(through_alias, fallback="raise")(np.arange(3.0), {"a": np.ones(3)})
    message = str(info.value)
    assert "`d` (passed in as an argument) by `table[...] = ...`" in message
    assert message.endswith(f"at {_line(through_alias, 'alias')}")
    assert isinstance(info.value, nptf.UnsupportedError)


# ------------------------------------------- Python objects changed in traced regions
# A branch on a traced value and the body of a graph loop are traced once, whatever the
# data decide later: a Python object they change that existed before the statement
# would change as if the branch always ran, or hold values only that branch's graph
# defines.
def _append_to(rows, y):
    rows.append(y)


class _Box:
    pass


def _list_appended_in_branch(a, b):
    rows = [b[1]]
    y = b[0] * 2
    if a.max() > 20:
        rows.append(y)
    return np.stack(rows)


def _dict_stored_in_branch(a, b):
    d = {"k": b[1]}
    if a.max() > 20:
        d["k"] = b[0] * 2
    return d["k"]


def _helper_appends_in_branch(a, b):
    rows = [b[1]]
    if a.max() > 20:
        _append_to(rows, b[0] * 2)
    return np.stack(rows)


def _attribute_set_in_branch(a, b):
    o = _Box()
    o.v = b[1]
    if a.max() > 20:
        o.v = b[0] * 2
    return o.v


def _nested_list_appended_in_branch(a, b):
    d = {"l": [b[1]]}
    if a.max() > 20:
        d["l"].append(b[0])
    return np.stack(d["l"])


def _appended_after_a_traced_break(a, b, n):
    rows = []
    for i in range(1, n):
        if np.abs(a).max() > 20:    # traced break
            break
        rows.append(b[0] + i)
    return np.stack(rows)


@pytest.mark.parametrize("fn, variable", [
    (_helper_appends_in_branch, "`rows`"), (_nested_list_appended_in_branch, "`d['l']`")])
@pytest.mark.parametrize("scale", [1.0, 100.0], ids=["false", "true"])
def test_a_python_object_changed_in_a_branch_on_a_traced_value(fn, variable, scale, tmp_path):
    """A list a path appends to through a helper or inside a dict: the trace assumes the
    false path and the graph checks it; data that take the true path run a second graph,
    traced with that path."""
    a = np.linspace(-1, 1, 7).astype(np.float32) * scale
    b = np.linspace(0, 2, 7).astype(np.float32)
    compiled = nptf.compile(fn, fallback="raise")
    _expect_same(fn(a, b), compiled(a, b), "results")
    assert compiled.cache_info().traces == 1
    other = a / scale if scale > 1 else a * 100
    _expect_same(fn(other, b), compiled(other, b), "results")
    assert compiled.cache_info().traces == 2
    # A SavedModel has one graph: export refuses, naming the list and the line.
    with pytest.raises(nptf.Error) as info:
        nptf.export(fn, tmp_path / "m", nptf.Spec((7,), np.float32), nptf.Spec((7,), np.float32))
    assert variable in str(info.value) and f"{__file__}:" in str(info.value)
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize("scale", [1.0, 100.0], ids=["false", "true"])
def test_a_dict_item_set_in_a_branch_on_a_traced_value_follows_the_data(scale):
    """An item of a dict made before the `if` (an array or number there) is one of the
    `if`'s variables, set in the dict after it (``docs/control-flow.md``)."""
    a = np.linspace(-1, 1, 7).astype(np.float32) * scale
    b = np.linspace(0, 2, 7).astype(np.float32)
    got = nptf.compile(_dict_stored_in_branch, fallback="raise")(a, b)
    _expect_same(_dict_stored_in_branch(a, b), got, "results")


@pytest.mark.parametrize("scale", [1.0, 100.0], ids=["false", "true"])
def test_an_attribute_set_in_a_branch_on_a_traced_value_follows_the_data(scale):
    """An attribute of an object made before the `if`, an array or number there, is
    one of the `if`'s variables: merged as the data choose, set on the object after."""
    a = np.linspace(-1, 1, 7).astype(np.float32) * scale
    b = np.linspace(0, 2, 7).astype(np.float32)
    got = nptf.compile(_attribute_set_in_branch, fallback="raise")(a, b)
    _expect_same(_attribute_set_in_branch(a, b), got, "results")


@pytest.mark.parametrize("scale", [1.0, 100.0], ids=["false", "true"])
def test_a_list_appended_in_a_branch_on_a_traced_value_grows_as_the_data_say(scale):
    # The function's own list, in one variable: one array of its items, as long as the
    # data make it (docs/control-flow.md).
    a = np.linspace(-1, 1, 7).astype(np.float32) * scale
    b = np.linspace(0, 2, 7).astype(np.float32)
    got = nptf.compile(_list_appended_in_branch, fallback="raise")(a, b)
    _expect_same(_list_appended_in_branch(a, b), got, "results")


def test_a_list_appended_after_a_break_on_a_traced_value():
    b = np.linspace(0, 2, 7).astype(np.float32)
    for a in (np.ones(7, np.float32), np.full(7, 30, np.float32)):
        expected, err = None, None
        try:
            expected = _appended_after_a_traced_break(a, b, 6)
        except ValueError as e:     # np.stack of an empty list
            err = e
        if err is None:
            _expect_same(expected, nptf.compile(_appended_after_a_traced_break,
                                                fallback="raise")(a, b, 6), "results")
        else:
            # NumPy raises for an empty list there; the graph cannot: NumPy runs the call.
            with pytest.raises(nptf.OutsideTheGraphError, match="empty on this call"):
                nptf.compile(_appended_after_a_traced_break, fallback="raise")(a, b, 6)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if err is None:
                _expect_same(expected, nptf.compile(_appended_after_a_traced_break)(a, b, 6))
            else:
                with pytest.raises(ValueError):
                    nptf.compile(_appended_after_a_traced_break)(a, b, 6)


def test_a_python_object_changed_in_a_graph_loop_body():
    def while_traced(a, b):
        d = [b[1]]
        while d[0] < 5:
            d[0] = d[0] + 1.0
        return d[0]

    def long_for(a, b, n):
        d = [b[1]]
        for i in range(n):
            d[0] = d[0] + a[0]
        return d[0]

    a = np.linspace(-1, 1, 7).astype(np.float32)
    b = np.linspace(0, 2, 7).astype(np.float32)
    # A list whose items the body writes is carried as an array by one graph loop.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _expect_same(while_traced(a, b), nptf.compile(while_traced, fallback="raise")(a, b))
        _expect_same(long_for(a, b, 20), nptf.compile(long_for, fallback="raise")(a, b, 20))

    # An item of another dtype than the list's (a float32 into a list of Python ints):
    # with a trip count known when tracing, the first iteration runs in Python, after
    # which the list holds a float32 the other iterations only change: one graph loop.
    def other_dtype_for(a, b, n):
        d = [0]
        for i in range(n):
            d[0] = d[0] + a[0]
        return d[0]

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = nptf.compile(other_dtype_for, fallback="raise")(a, b, 20)
    _expect_same(other_dtype_for(a, b, 20), got)

    # A dict whose items the body assigns by a string key is carried item by item.
    def dict_item(a, b):
        d = {"k": b[1]}
        while d["k"] < 5:
            d["k"] = d["k"] + 1.0
        return d["k"]

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _expect_same(dict_item(a, b), nptf.compile(dict_item, fallback="raise")(a, b))


def test_python_objects_made_inside_a_branch_or_only_read_in_a_loop_still_compile():
    def made_in_branch(a, b):
        y = b[0]
        if a.max() > 20:
            parts = [b[0], b[1]]
            parts.append(b[2])
            y = np.stack(parts).sum()
        return y

    def read_in_loop(a, b, n):
        ws = [b[0], b[1]]
        s = a * 0
        for i in range(n):
            s = s + ws[0] * a + ws[1]
        return s

    a = np.linspace(-1, 1, 7).astype(np.float32)
    b = np.linspace(0, 2, 7).astype(np.float32)
    for x in (a, a * 100):
        got = nptf.compile(made_in_branch, fallback="raise")(x, b)
        assert type(got) is np.float32
        np.testing.assert_allclose(got, made_in_branch(x, b), rtol=1e-6)
    f = nptf.compile(read_in_loop, fallback="raise")
    got = f(a, b, 12)
    assert got.dtype == np.float32 and f.cache_info().fallbacks == 0
    np.testing.assert_allclose(got, read_in_loop(a, b, 12), rtol=1e-5)


def _appends_then_writes_and_rebinds(a, b, n, x):
    rows = []
    for i in range(n):              # a graph loop is tried first; Python runs it
        a[i % 5] = 1.0              # written in place ...
        a = a * 3                   # ... and bound to a new array
        rows.append(x)
    return len(rows), a


def _appends_then_needs_a_concrete_index(a, n):
    rows = []
    for i in range(n):
        rows.append(a[0] * i)
        a = a + np.zeros(i + 1)[i]  # a size from the index: Python runs it
    return np.array(rows)


def test_a_loop_python_runs_after_a_graph_loop_was_tried_appends_once():
    # The traces of the graph loop appended too; the list is put back before Python
    # runs the loop.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fn, args in [(_appends_then_writes_and_rebinds, (np.ones((5, 5)), np.ones(5), 17, 0.5)),
                         (_appends_then_needs_a_concrete_index, (np.ones(3), 12))]:
            expected = fn(*[copy.copy(a) for a in args])
            got = nptf.compile(fn, fallback="raise")(*[copy.copy(a) for a in args])
            _expect_same(expected, got, "results")


def test_list_methods_on_a_list_the_data_sized_say_so():
    def topo(a):
        ready = [i for i in range(len(a)) if a[i] == 0]
        out = []
        while ready:
            out.append(ready.pop(0))
        return np.array(out)

    def drain(a, ready):
        out = []
        while ready:
            out.append(ready.pop(0) * a[0])
        return np.array(out)
    a = np.array([0, 1, 0, 2])
    # The function's own list, as long as the data say: pop runs in the graph.
    np.testing.assert_array_equal(nptf.compile(topo, fallback="raise")(a), topo(a))
    # A list passed in is an array to the graph: its methods would change the caller's.
    with pytest.raises(nptf.SideEffectError,
                       match=r"ready.*(list passed in|passed in as an argument)"):
        nptf.compile(drain, fallback="raise")(a, [1, 2])
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        ready = [1, 2]
        np.testing.assert_array_equal(nptf.compile(drain)(a, ready), drain(a, [1, 2]))
    assert ready == []      # NumPy's run emptied the caller's list


# ---------------------------------------- lists at attributes and in closures, under ifs
class _EarlyStopping:
    def __init__(self, lr=0.2):
        self.lr, self.losses = lr, []

    def fit(self, x, epochs):
        w = 0.0
        for _ in range(epochs):
            loss = np.mean((x - w) ** 2)
            self.losses.append(loss)
            if loss < 0.95:
                break
            w = w + self.lr * np.mean(x - w)
        return w


def _early_stopping(x, epochs):
    model = _EarlyStopping()
    w = model.fit(x, epochs)
    return w, model.losses


class _Logger:
    def __init__(self):
        self.log = []

    def run(self, x, n):
        total = 0.0
        for i in range(n):
            total = total + x[i % x.size]
            if total > 1.0:
                self.log.append(total)      # on one path only
        if total > 2.0:
            self.log.append(-total)         # after a graph loop grew the list
        return total


def _logged(x, n):
    logger = _Logger()
    total = logger.run(x, n)
    return total, logger.log


def _callback_history(x):
    history = []

    def callback(r):
        history.append(np.linalg.norm(r))

    v = x.copy()
    for _ in range(6):
        v = v * 0.5
        if np.abs(v).max() > 0.2:
            callback(v)
    return v, np.array(history)


def _close(expected, got, where="results"):
    """``_expect_same`` up to the last bits of a mean, whose sums TensorFlow orders its way."""
    assert type(got) is type(expected), f"{where}: {type(got).__name__}"
    if isinstance(expected, (list, tuple)):
        assert len(got) == len(expected), f"{where}: length {len(got)} != {len(expected)}"
        for i, (e, g) in enumerate(zip(expected, got)):
            _close(e, g, f"{where}[{i}]")
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-12, err_msg=where)


@pytest.mark.parametrize("scale", [0.125, 1.0, 4.0])
def test_a_list_at_an_attribute_appended_under_a_traced_if_grows_as_the_data_say(scale):
    x = np.arange(10) * 0.25 * scale        # sums exact in any order
    _close(_early_stopping(x, 12), nptf.compile(_early_stopping, fallback="raise")(x, 12))
    # A graph loop (more steps than are unrolled) appends on one path, then an `if`.
    _expect_same(_logged(x, 30), nptf.compile(_logged, fallback="raise")(x, 30), "results")


@pytest.mark.parametrize("scale", [0.1, 1.0, 3.0])
def test_a_list_a_nested_function_appends_to_under_a_traced_if(scale):
    x = np.linspace(-1, 2, 5) * scale
    _expect_same(_callback_history(x), nptf.compile(_callback_history, fallback="raise")(x),
                 "results")


def _attribute_list_with_an_alias(x):
    o, other = _Box(), _Box()
    o.log = []
    other.log = o.log           # the same list at two attributes
    seen = o.log
    for i in range(3):
        if x[i] > 0.5:
            o.log.append(x[i])
    return other.log, seen, o.log


def _closure_list_with_an_alias(x):
    hist = []
    same = hist

    def note(v):
        hist.append(v)

    for i in range(3):
        if x[i] > 0.5:
            note(x[i])
    return same


@pytest.mark.parametrize("fn", [_attribute_list_with_an_alias, _closure_list_with_an_alias])
def test_a_list_reached_another_way_too_takes_the_paths_of_the_data(fn):
    # Another name for the list would not see a list the data grow in its place: each
    # `if` of the unrolled loop takes the path its data take, checked by the graph, and a
    # call runs the graph of a call before whose paths its data take.
    compiled = nptf.compile(fn, fallback="raise")
    for x in (np.linspace(0, 3, 10), np.linspace(3, 0, 10), np.linspace(0, 3, 10)):
        _expect_same(fn(x), compiled(x), "results")
    assert compiled.cache_info().traces == 2


def _quadtree(img, tol=0.02):
    out = np.empty_like(img)
    leaves = []

    def split(r0, r1, c0, c1):
        block = img[r0:r1, c0:c1]
        if block.var() <= tol or r1 - r0 <= 2:       # appended to on one path, in the
            out[r0:r1, c0:c1] = block.mean()        # paths of the paths before it
            leaves.append((r0, c0, r1 - r0))
            return
        rm, cm = (r0 + r1) // 2, (c0 + c1) // 2
        split(r0, rm, c0, cm)
        split(r0, rm, cm, c1)
        split(rm, r1, c0, cm)
        split(rm, r1, cm, c1)

    split(0, img.shape[0], 0, img.shape[1])
    return out, len(leaves), leaves


class _Events:
    def __init__(self):
        self.seen = []

    def visit(self, x):
        for i in range(3):
            if x[i] > 0:
                if x[i] > 1:
                    self.seen.append(x[i] * 10)
                else:
                    self.seen.append(x[i])
        return len(self.seen)


def _nested_events(x):
    e = _Events()
    return e.visit(x), e.seen


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lists_appended_to_under_ifs_inside_ifs(seed):
    rng = np.random.default_rng(seed)
    img = np.round(rng.random((8, 8)) * (seed + 1), 1) * 0.25
    _close(_quadtree(img), nptf.compile(_quadtree, fallback="raise")(img))
    x = np.round(rng.standard_normal(5) * 2, 2)
    _close(_nested_events(x), nptf.compile(_nested_events, fallback="raise")(x))


class _Recorder:
    def __init__(self, n):
        self.samples = list(range(n))       # a long list of numbers beside the log
        self.log = []

    def run(self, x):
        for i in range(3):
            if x[i] > 0.5:
                self.log.append(x[i] + self.samples[i])
        return self.log


def _recorded(x):
    return _Recorder(50_000).run(x)


def test_a_long_list_of_numbers_beside_the_list_does_not_stop_the_search():
    # The search for other names of the list skips numbers: it does not run out.
    x = np.array([0.25, 0.75, 1.5])
    _close(_recorded(x), nptf.compile(_recorded, fallback="raise")(x))

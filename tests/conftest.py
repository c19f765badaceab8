import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# A loaded CI machine compiles the suite's large combined graphs slowly: the budget
# stays as a guard against runaway compiles, not a timing target.
os.environ.setdefault("NPTF_COMPILE_BUDGET", "300")
# Every call runs the graph: the suite tests what the graphs compute. Adaptive dispatch,
# the default, is tested where a test asks for it (adaptive=True, or this variable unset).
os.environ.setdefault("NPTF_ADAPTIVE", "0")

import numpy as np  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(params=[False, True], ids=["graph", "xla"])
def jit(request):
    return request.param


@pytest.fixture(autouse=True)
def executors_compiled_in_turn(monkeypatch, request):
    """The executor trial compiles another executor in the call whose turn it is, so a
    test's calls meet the trial's steps in a fixed order; tests of the background
    compile (the default) turn it back on. Likewise each turn times repeated runs after
    a warm-up run, whatever a run takes on a loaded machine (runs of half a millisecond
    or more would skip the warm-up run or be timed by the caller's own run instead, one
    sample a call: tests on a fake clock would meet another order of readings), and XLA
    for one CPU is tried whatever the runs take; tests of those limits set
    ``OWN_RUN_S``, ``WARM_UP_BELOW_S``, ``LONG_RUN_S`` and ``ONE_CPU_BELOW_S``."""
    from nptf.runtime.xla_policy import ExecutorTrial
    if request.node.get_closest_marker("executor_trial") is None:
        # A graph stays on the executor it starts on: timing the others compiles each
        # graph two to four times, most of the suite's time, and what the executors
        # compute is tested by the jit fixture's two variants. Tests of the trial are
        # marked ``executor_trial``.
        monkeypatch.setattr(ExecutorTrial, "ENABLED", False)
    monkeypatch.setattr(ExecutorTrial, "COMPILE_IN_BACKGROUND", False)
    monkeypatch.setattr(ExecutorTrial, "OWN_RUN_S", float("inf"))
    monkeypatch.setattr(ExecutorTrial, "WARM_UP_BELOW_S", float("inf"))
    monkeypatch.setattr(ExecutorTrial, "LONG_RUN_S", float("inf"))
    monkeypatch.setattr(ExecutorTrial, "ONE_CPU_BELOW_S", float("inf"))


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def _xla_half_of_sweeps(config, items):
    """Tests swept over dtypes, shapes or cases as well as executors run under XLA on
    every other case of the sweep (in collection order), on the plain executor on all:
    XLA's compile costs about three times the plain executor's build, and what XLA does
    differently (its kernels, per dtype) shows on half a sweep as on all of it. The op
    records choose their XLA cases themselves (``XLA_EVERY``)."""
    seen, kept, dropped = {}, [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if params.get("jit") is not True or len(params) < 2 or \
                item.originalname == "test_compiled_matches_numpy":
            kept.append(item)
            continue
        key = (item.module.__name__, item.originalname)
        seen[key] = seen.get(key, -1) + 1
        (kept if seen[key] % 2 == 0 else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_collection_modifyitems(config, items):
    """Half of each XLA sweep (``_xla_half_of_sweeps``); the longest tests first (op
    records compiled in combined graphs, the processes of the CLI and of the distribution
    tests): with ``-n 2`` the workers then finish together instead of one of them running
    a long test alone at the end."""
    _xla_half_of_sweeps(config, items)

    def weight(item):
        if item.originalname == "test_compiled_matches_numpy":
            return 0 if "[xla-" in item.nodeid else 1
        if item.module.__name__ in ("test_cli", "test_random_programs", "test_distribute"):
            return 2
        return 3
    items.sort(key=weight)      # stable: the order within each group is kept

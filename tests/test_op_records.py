"""Every op record, against NumPy: the TF graph with and without XLA, and the IR interpreter."""
from __future__ import annotations

import re
import zlib

import numpy as np
import pytest

import nptf
from harness import mismatch, run_numpy
from op_records import RECORDS


def _cases(record):
    # crc32, not hash(): str hashes change from process to process, and so would the data.
    rng = np.random.default_rng(zlib.crc32(record.name.encode()))
    valid, failing, refused = [], [], []
    for dtype, args in record.cases(rng):
        expected, err = run_numpy(record.fn, *args)
        if err is not None:
            failing.append((dtype, args, err))
        elif dtype in record.unsupported:
            refused.append((dtype, args))
        else:
            valid.append((dtype, args, expected))
    return valid, failing, refused


def _label(dtype, args):
    shapes = [np.shape(a) if isinstance(a, np.ndarray) else repr(a) for a in args]
    return f"{np.dtype(dtype).name} {shapes}"


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_errors_match_numpy(record):
    _, failing, refused = _cases(record)
    problems = []
    for dtype, args, err in failing:
        try:
            nptf.compile(record.fn, fallback="raise").trace(*args)
        except type(err):
            continue
        except Exception as e:  # noqa: BLE001
            problems.append(f"{_label(dtype, args)}: NumPy raised {type(err).__name__}({err}), "
                            f"nptf raised {type(e).__name__}({e})")
            continue
        problems.append(f"{_label(dtype, args)}: NumPy raised {type(err).__name__}({err}), nptf traced")
    for dtype, args in refused:
        with pytest.raises(nptf.UnsupportedError):
            nptf.compile(record.fn, fallback="raise").trace(*args)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_interpreter_matches_numpy(record):
    """The traced IR (before and after every pass, verified) computes NumPy's answer."""
    valid, _, _ = _cases(record)
    problems = []
    for dtype, args, expected in valid:
        f = nptf.compile(record.fn, fallback="raise")
        for optimized in (False, True):
            got = f.interpret(*args, optimized=optimized, verify_passes=True)
            m = mismatch(expected, got, record.rtol_scale)
            if m:
                problems.append(f"{_label(dtype, args)} optimized={optimized}: {m}")
    assert not problems, "\n".join(problems)


def _arrays(tree):
    if isinstance(tree, dict):
        tree = list(tree.values())
    if isinstance(tree, (tuple, list)):
        return [a for t in tree for a in _arrays(t)]
    return [tree] if isinstance(tree, np.ndarray) else []


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.name)
def test_numpy_program_matches_numpy(record):
    """The NumPy program adaptive dispatch may run instead of the function computes NumPy's
    answer, leaves its arguments alone and returns new, writable arrays."""
    valid, _, _ = _cases(record)
    problems = []
    for dtype, args, expected in valid:
        f = nptf.compile(record.fn, fallback="raise")
        before = [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]
        try:
            with np.errstate(all="ignore"):
                got = f.interpret(*args, program=True)
        except nptf.UnsupportedError as e:
            # Only the exclusions adaptive dispatch documents (today no record hits one).
            assert re.search(r"no NumPy program .*(random|sub-graphs|run-time check|writes "
                             r"into its arguments)", str(e)), str(e)
            continue
        m = mismatch(expected, got, record.rtol_scale)
        if m:
            problems.append(f"{_label(dtype, args)}: {m}")
        for a, b in zip(args, before):
            if isinstance(a, np.ndarray) and not np.array_equal(a, b, equal_nan=True):
                problems.append(f"{_label(dtype, args)}: an argument was written")
        for out in _arrays(got):
            if not out.flags.writeable or any(
                    isinstance(a, np.ndarray) and np.shares_memory(out, a) for a in args):
                problems.append(f"{_label(dtype, args)}: an output is read-only or shares "
                                "memory with an argument")
    assert not problems, "\n".join(problems)


def _one_graph(records, valid, jit):
    """Run every valid case of ``records`` through one compiled function; problems found."""
    def all_cases(*flat):
        out, i = [], 0
        for record, (_, args, _) in valid:
            out.append(record.fn(*flat[i:i + len(args)]))
            i += len(args)
        return tuple(out)

    flat = [a for _, (_, args, _) in valid for a in args]
    try:
        got = nptf.compile(all_cases, jit_compile=jit, fallback="raise")(*flat)
    except Exception:  # noqa: BLE001  (find the case that breaks the graph)
        problems = []
        for record, (dtype, args, _) in valid:
            try:
                nptf.compile(record.fn, jit_compile=jit, fallback="raise")(*args)
            except Exception as e:  # noqa: BLE001
                problems.append(f"{record.name} {_label(dtype, args)}: {type(e).__name__}: "
                                f"{str(e)[:300]}")
        return problems or [f"combined graph of {[r.name for r in records]} failed"]
    problems = []
    for (record, (dtype, args, expected)), g in zip(valid, got):
        m = mismatch(expected, g, record.rtol_scale)
        if m:
            problems.append(f"{record.name} {_label(dtype, args)}: {m}")
    return problems


def _xla_compiles(record, case):
    """Whether XLA compiles the case's graph: one it cannot runs on the plain executor even
    when XLA is asked for, which the graph variant of the test runs already (test_runtime
    checks that fallback and its warning)."""
    from nptf.lowering import xla_obstacles
    try:
        graph = nptf.compile(record.fn, fallback="raise").trace(*case[1])
    except Exception:  # noqa: BLE001  (the compiled test reports it)
        return True
    return not xla_obstacles(graph)


# Several records share one compiled graph: building TensorFlow graphs (and XLA
# executables) has a fixed cost that would otherwise dominate the suite.
BATCHES = [RECORDS[i:i + 6] for i in range(0, len(RECORDS), 6)]

# At most this many cases a graph: Grappler's time grows faster than the graph's size,
# so a batch of hundreds of cases runs faster as several graphs.
CASES_PER_GRAPH = 30

# One case in XLA_EVERY runs under XLA, one in PLAIN_EVERY of the others on the plain
# executor (the interpreter and NumPy-program tests run every case): XLA's compile of
# these graphs costs about three times the plain executor's build, per case.
XLA_EVERY = 10
PLAIN_EVERY = 4


def _on_xla(valid, salt):
    """For each valid case of a record (they come dtype by dtype, shape by shape), whether
    its compiled run is XLA's: the choice rotates with the dtype, starting where the
    record's ``salt`` says, so that XLA sees every shape of a record and, over the
    records, every dtype with every shape, if not every triple (a record with fewer
    shapes than XLA_EVERY runs some dtypes on the plain executor only)."""
    chosen, dtypes, seen = [], {}, {}
    for dtype, _, _ in valid:
        d = dtypes.setdefault(np.dtype(dtype), len(dtypes))
        j = seen[d] = seen.get(d, -1) + 1
        chosen.append((j + d + salt) % XLA_EVERY == 0)
    return chosen


@pytest.mark.parametrize("batch", BATCHES, ids=lambda b: "+".join(r.name for r in b))
def test_compiled_matches_numpy(batch, jit):
    """The valid cases of the batch's records, compiled once: one in XLA_EVERY under XLA,
    of the others (and those XLA does not compile) one in PLAIN_EVERY on the plain
    executor. What the executors do differently (their kernels, per dtype) shows on a
    share of the cases as on all, and the interpreter and NumPy-program tests above still
    run every case."""
    records, valid = [], []
    for record in batch:
        cases = _cases(record)[0]
        salt = zlib.crc32(record.name.encode())
        on_xla = _on_xla(cases, salt)
        # A record none of whose cases XLA runs has its first on the plain executor.
        plain = [xla or (k + salt) % PLAIN_EVERY == 0 or (k == 0 and not any(on_xla))
                 for k, xla in enumerate(on_xla)]
        cases = [(record, case) for case, xla, p in zip(cases, on_xla, plain)
                 if jit == (xla and _xla_compiles(record, case)) and (jit or p)]
        if cases:
            records.append(record)
            valid += cases
    problems = []
    for i in range(0, len(valid), CASES_PER_GRAPH):
        problems += _one_graph(records, valid[i:i + CASES_PER_GRAPH], jit)
    assert not problems, "\n".join(problems)

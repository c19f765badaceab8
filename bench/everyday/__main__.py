"""``python -m bench.everyday [name ...]``: each function with NumPy and with
``nptf.compile(fn, fallback="raise")`` on both executors (a fresh compile, fresh copies
of the arguments); values, dtypes, shapes, Python types and the arguments after the
call compared (draws NumPy makes anew each run by shape and dtype only). Prints one line per run and the
counts: ok, refused (an nptf error), WRONG, other exception."""
from __future__ import annotations

import collections
import copy
import sys
import time
import warnings

import numpy as np

import nptf

from .cases import cases


def _chosen_by_draws(a, again):
    """Whether NumPy's other runs (``again``, a list) differ from ``a`` in kind, length
    or shape here."""
    for other in again or ():
        if type(other) is not type(a) or (len(other) != len(a) if isinstance(a, (tuple, list))
                                          else isinstance(a, np.ndarray) and
                                          other.shape != a.shape):
            return True
    return False


def _part(again, key):
    parts = []
    for other in again or ():
        try:
            parts.append(other[key])
        except (KeyError, IndexError, TypeError):
            pass
    return parts


def differences(a, b, path="out", random=False, again=None):
    """The places where ``b`` (nptf's) differs from ``a`` (NumPy's). ``random``: draws
    made anew each run, compared by shape and dtype only; where one of NumPy's other runs
    (``again``) has another shape or length at a place, the draws chose it: not compared."""
    if random and _chosen_by_draws(a, again):
        return []
    if isinstance(a, dict):
        if not isinstance(b, dict) or set(a) != set(b):
            return [f"{path}: a dict with other keys"]
        return [p for k in a for p in differences(a[k], b[k], f"{path}[{k!r}]", random,
                                                  _part(again, k))]
    if isinstance(a, (tuple, list)):
        if type(a) is not type(b) or len(a) != len(b):
            return [f"{path}: {type(b).__name__} where NumPy gives {type(a).__name__}[{len(a)}]"]
        return [p for i, (x, y) in enumerate(zip(a, b))
                for p in differences(x, y, f"{path}[{i}]", random, _part(again, i))]
    if a is None or b is None:
        return [] if a is b else [f"{path}: {b!r} where NumPy gives {a!r}"]
    if type(a) is not type(b):
        return [f"{path}: {type(b).__name__} where NumPy gives {type(a).__name__}"]
    xa, xb = np.asarray(a), np.asarray(b)
    if xa.dtype != xb.dtype or xa.shape != xb.shape:
        return [f"{path}: {xb.dtype}{xb.shape} where NumPy gives {xa.dtype}{xa.shape}"]
    if random or np.array_equal(xa, xb, equal_nan=xa.dtype.kind in "fc"):
        return []
    # Float32 and float16 sums add in another order than NumPy's pairwise one
    # (docs/differences-from-numpy.md): a few units in their last place.
    rtol = {2: 1e-3, 4: 2e-6, 8: 2e-6 if xa.dtype.kind == "c" else 1e-7}.get(xa.dtype.itemsize, 1e-7)
    if xa.dtype.kind in "fc" and np.allclose(xa, xb, rtol=rtol, atol=1e-12, equal_nan=True):
        return []
    return [f"{path}: values differ (NumPy {np.array2string(xa, threshold=8)[:120]}, "
            f"nptf {np.array2string(xb, threshold=8)[:120]})"]


def run(name, fn, args, kwargs, random, jit):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        np_args, np_kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
        expected = fn(*np_args, **np_kwargs)
        again = None
        if random:
            # A function that seeds its own stream gives the same numbers every run:
            # those are compared by value.
            again_args, again_kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
            again = fn(*again_args, **again_kwargs)
            random = bool(differences(expected, again) +
                          differences(np_args, again_args, "arguments"))
            # Runs enough to see which shapes the draws choose (a count of random
            # components: two runs may agree by chance).
            again = [again] + [fn(*copy.deepcopy(args), **copy.deepcopy(kwargs))
                               for _ in range(4)] if random else None
        tf_args, tf_kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
        try:
            got = nptf.compile(fn, fallback="raise", jit_compile=jit)(*tf_args, **tf_kwargs)
        except nptf.Error as e:
            return "refused", f"{type(e).__name__}: {str(e).splitlines()[0][:110]}"
        except Exception as e:  # noqa: BLE001
            return "other exception", f"{type(e).__name__}: {str(e).splitlines()[0][:110]}"
    problems = differences(expected, got, random=random, again=again) + \
        differences(np_args, tf_args, "arguments", random)
    return ("WRONG", "; ".join(problems)[:200]) if problems else ("ok", "")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    table = cases()
    counts = collections.Counter()
    for name in argv or table:
        fn, args, kwargs, random = table[name]
        for jit in (False, True):
            start = time.perf_counter()
            status, detail = run(name, fn, args, kwargs, random, jit)
            counts[status] += 1
            print(f"{name:28s} jit_compile={jit!s:5s} {status:15s} "
                  f"{time.perf_counter() - start:5.1f} s  {detail}", flush=True)
    print(dict(counts))
    return 1 if counts["WRONG"] or counts["other exception"] else 0


if __name__ == "__main__":
    sys.exit(main())

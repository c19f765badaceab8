"""Running every contender on every kernel and size, in this one process."""
from __future__ import annotations

import contextlib
import warnings

import tensorflow as tf

from .timing import (MIN_WARMUP, MIN_WARMUP_ADAPTIVE, DeadlineExceeded, call_with_deadline,
                     median_time)
from .validate import leaves, mismatch
from .variants import VARIANTS, NotAvailable

COMPILE_DEADLINE_S = 60
# A default compile slower than this spares the xla/graph variants at that size:
# they trace the same program again, and the suite has a ten-minute budget.
SLOW_COMPILE_S = 15
MEMORY_BOUND_MIN_ELEMENTS = 2 ** 20


def device_scope(device):
    if device == "gpu":
        return tf.device("/GPU:0")
    return contextlib.nullcontext()


def runs_at(variant, size, sizes):
    # Adaptive dispatch has its target at the smallest size; larger sizes would
    # only repeat the default's compile to measure the same graph.
    return variant != "nptf adaptive" or size == sizes[0]


def count_steps(kernels, sizes):
    per_size = [1 + sum(runs_at(name, s, sizes) for name, _, _ in VARIANTS) for s in sizes]
    return len(kernels) * sum(per_size)


def run_suite(kernels, sizes, repeat, device, progress, all_variants=False, copy_ceiling=None):
    results = []
    for kernel in kernels:
        timed_out = {}                     # variant -> size where its first call timed out
        for size in sizes:
            args = kernel.make_inputs(size)
            with device_scope(device):
                expected = kernel.fn(*args)
                progress.step(f"{kernel.name} {size} numpy")
                numpy = _record(kernel, size, "numpy")
                numpy.update(_timed(kernel.fn, args, repeat, min_warmup=MIN_WARMUP))
                results.append(numpy)
                by_variant = {}
                for name, build, is_nptf in VARIANTS:
                    if not runs_at(name, size, sizes):
                        continue
                    progress.step(f"{kernel.name} {size} {name}")
                    rec = _record(kernel, size, name)
                    reason = _skip_reason(name, is_nptf, timed_out, by_variant.get("nptf"),
                                          all_variants)
                    if reason:
                        rec.update(status="skipped", note=reason)
                    else:
                        rec.update(_measure(kernel, build, args, expected, repeat, device,
                                            adaptive=name == "nptf adaptive"))
                    if rec["status"] == "timeout":
                        timed_out[name] = size
                    if rec.get("seconds"):
                        rec["speedup"] = numpy["seconds"] / rec["seconds"]
                    by_variant[name] = rec
                    results.append(rec)
            _add_bandwidth(kernel, args, expected, [numpy, *by_variant.values()], copy_ceiling)
    return results


def _record(kernel, size, variant):
    return {"kernel": kernel.name, "family": kernel.family, "size": size, "variant": variant,
            "status": "ok", "seconds": None, "speedup": None, "first_call_s": None, "note": ""}


def _skip_reason(name, is_nptf, timed_out, default, all_variants):
    if name in timed_out:
        return f"first call timed out at size {timed_out[name]}"
    if not is_nptf or name == "nptf":
        return None
    if "nptf" in timed_out:
        return f"default nptf timed out at size {timed_out['nptf']} (same trace)"
    if default is None:
        return None
    slow = (default["first_call_s"] or 0) > SLOW_COMPILE_S
    if slow and not all_variants and name in ("nptf xla", "nptf graph"):
        return f"default nptf took {default['first_call_s']:.0f} s to compile (--all-variants)"
    return None


def _measure(kernel, build, args, expected, repeat, device, adaptive):
    try:
        fn = build(kernel)
    except NotAvailable as e:
        return {"status": "n/a", "note": str(e)}
    except Exception as e:  # noqa: BLE001  (an optional contender that cannot build it)
        return {"status": "error", "note": _first_line(e)}

    def first_call():
        with device_scope(device):       # device scopes are per thread
            return fn(*args)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result, first = call_with_deadline(first_call, COMPILE_DEADLINE_S)
        except DeadlineExceeded as e:
            return {"status": "timeout", "note": str(e)}
        except Exception as e:  # noqa: BLE001  (a kernel that fails to trace is a finding)
            return {"status": "error", "note": _first_line(e)}
    messages = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)
                and str(w.message).startswith("nptf:")]
    fallback = [m for m in messages if "runs with NumPy" in m]
    if fallback:
        return {"status": "fallback", "first_call_s": first, "note": _first_line(fallback[0])}
    wrong = mismatch(result, expected, kernel.rtol, kernel.atol)
    if wrong:
        return {"status": "WRONG", "first_call_s": first, "note": wrong}
    out = {"first_call_s": first, "note": "; ".join(_first_line(m) for m in messages)}
    out.update(_timed(fn, args, repeat,
                      min_warmup=MIN_WARMUP_ADAPTIVE if adaptive else MIN_WARMUP))
    entry_for = getattr(fn, "entry_for", None)
    if entry_for is not None:       # nptf: which executor ran the graph
        entry = entry_for(*args)
        if entry.fallback_reason is None:
            out["executor"] = entry.executor
            out["executor_reason"] = entry.xla_reason
    return out


def _timed(fn, args, repeat, min_warmup):
    seconds, repeats, number = median_time(lambda: fn(*args), repeat, min_warmup)
    return {"seconds": seconds, "repeats": repeats, "number": number}


def _add_bandwidth(kernel, args, expected, records, copy_ceiling):
    """GB/s (bytes read + written) of memory-bound kernels at 2^20 elements and up."""
    outputs = leaves(expected)
    if not kernel.memory_bound or outputs[0].size < MEMORY_BOUND_MIN_ELEMENTS:
        return
    nbytes = sum(a.nbytes for a in args) + sum(o.nbytes for o in outputs)
    for rec in records:
        if rec.get("seconds"):
            rec["gbps"] = nbytes / rec["seconds"] / 1e9
            if copy_ceiling:
                rec["copy_fraction"] = rec["gbps"] / copy_ceiling


def _first_line(e):
    text = str(e).strip() or type(e).__name__
    line = text.splitlines()[0]
    if isinstance(e, BaseException):
        line = f"{type(e).__name__}: {line}"
    return line[:240]

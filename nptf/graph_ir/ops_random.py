"""Stateless random numbers: ``rng_split`` advances a key, ``random`` draws with one.

A key is an int64[2] value. The tracer threads one key through the program
like a mutable array (so loops and branches carry it), splitting it for every
draw; the graph's key comes from a fresh seed on every call. The streams are
not NumPy's: only shapes, dtypes and distributions match.
"""
from __future__ import annotations

import numpy as np

from .evaluate import EVAL_RULES
from .ops import declare, register
from .types import ArrayType

_KEY = np.dtype(np.int64)


@register("rng_split", kind="random")
def _rng_split(ts, params):
    if ts[0].shape != (2,) or ts[0].dtype != _KEY:
        raise TypeError("a random key is int64[2]")
    return [ArrayType((2,), _KEY), ArrayType((2,), _KEY)]


# Standard draws, transformed into a distribution's parameters by the tracer.
DISTRIBUTIONS = ("uniform", "normal", "integers", "binomial", "poisson")


@register("random", lambda ts, p: [_KEY] + [t.dtype for t in ts[1:]], kind="random")
def _random(ts, params):
    """``random(key, *args, *sizes)``: ``params["sizes"]`` inputs at the end give the sizes
    of the shape's None dims, in order."""
    if params["dist"] not in DISTRIBUTIONS:
        raise ValueError(f"unknown distribution {params['dist']!r}")
    return [ArrayType(params["shape"], params["dtype"], bool(params.get("weak")))]


def _generator(key):
    return np.random.default_rng(np.asarray(key, np.int64).view(np.uint64))


def _eval_split(p, key):
    a, b = _generator(key).integers(0, 2 ** 62, size=(2, 2), dtype=np.int64)
    return a, b


def _eval_random(p, key, *args):
    g, shape, dtype, dist = _generator(key), p["shape"], np.dtype(p["dtype"]), p["dist"]
    if p.get("sizes"):
        sizes = iter(int(n) for n in args[len(args) - p["sizes"]:])
        shape, args = tuple(next(sizes) if d is None else d for d in shape), args[:-p["sizes"]]
    if dist == "uniform":
        return g.random(shape).astype(dtype)
    if dist == "normal":
        return g.standard_normal(shape).astype(dtype)
    if dist == "integers":
        return g.integers(args[0], args[1], size=shape).astype(dtype)
    if dist == "binomial":
        return g.binomial(args[0], args[1], size=shape).astype(dtype)
    return g.poisson(args[0], size=shape).astype(dtype)


EVAL_RULES["rng_split"] = _eval_split
EVAL_RULES["random"] = _eval_random


# No XLA kernels for these samplers; nor a shape known only at run time.
declare("random", xla_obstacle=lambda in_types, params: params["dist"] in ("binomial", "poisson")
        or None in params["shape"])

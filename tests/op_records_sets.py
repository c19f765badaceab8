"""Op records for np.unique and its family, the set functions, bincount and trim_zeros.

Random values rarely repeat, so most records round them first (``_dup``) and
feed each array in twice (``_twice``): runs of equal values, repeated NaNs and
both signed zeros are then certain.
"""
from __future__ import annotations

import numpy as np

from op_records import ALL_DTYPES, SAMPLED_DTYPES, OpRecord as R

INTS = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
REAL = [d for d in ALL_DTYPES if np.dtype(d).kind != "c"]


def _dup(x):
    """``x`` with repeated values: integers already repeat, inexact values are rounded."""
    return x if x.dtype.kind in "biu" else np.round(x)


def _twice(x):
    """Every value of ``x`` (NaN included) at least twice, in a shuffled order."""
    flat = _dup(x).ravel()
    return np.concatenate([flat, flat[::-1]])


def _unique_values_summary(x):
    # NumPy orders unique_values by a hash table: compare what does not depend on the order.
    u = np.unique_values(_twice(x))
    return np.sum(u), np.sum(np.ones_like(u, dtype=np.int64))


def _padded(x, pad=2):
    """``x`` flattened between runs of zeros (and with its small values zeroed)."""
    z = np.zeros(pad, x.dtype)
    return np.concatenate([z, np.where(abs(x.ravel()) < 1.5, z[:1], x.ravel()), z])


UNIQUE_SHAPES = [((),), ((0,),), ((9,),), ((3, 4),), ((2, 0, 3),)]
# The set functions sort and compare: one narrow and one wide signed and unsigned integer
# stand for the rest.
SET_DTYPES = SAMPLED_DTYPES
# Unique rows sort them as the one-dimensional unique sorts values: a narrow integer, the
# widest unsigned one, and each kind of float stand for the rest.
AXIS_DTYPES = [np.bool_, np.uint64, np.float32, np.complex128]
PAIR_SHAPES = [((9,), (7,)), ((3, 4), (5,)), ((0,), (4,)), ((), (3,)), ((0,), (0,))]

SETS_RECORDS = [
    R("unique", lambda x: (np.unique(x), np.unique(_dup(x)), np.unique(_twice(x)),
                           np.unique(_dup(x), return_index=True, return_inverse=True, return_counts=True),
                           np.unique(_twice(x), return_counts=True, equal_nan=False),
                           np.unique(_twice(x), return_index=True, equal_nan=True),
                           np.unique(_dup(x), return_inverse=True, sorted=True)),
      UNIQUE_SHAPES, specials=True, dtypes=SET_DTYPES),
    R("unique_axis", lambda x: (np.unique(_dup(x), axis=0),
                                np.unique(_dup(x), axis=1, return_index=True, return_inverse=True,
                                          return_counts=True),
                                np.unique(np.concatenate([_dup(x), _dup(x)[::-1]]), axis=0,
                                          return_counts=True),
                                np.unique(_dup(x)[0], axis=0, return_inverse=True)),
      [((4, 3),), ((3, 2, 2),), ((0, 3),), ((3, 0),)], specials=True, dtypes=AXIS_DTYPES),
    R("unique_family", lambda x: (np.unique_all(_twice(x)), np.unique_counts(_twice(x)),
                                  np.unique_inverse(_dup(x)), np.unique_all(x), _unique_values_summary(x)),
      [((),), ((0,),), ((9,),), ((3, 4),)], specials=True, dtypes=SET_DTYPES),
    R("intersect1d", lambda a, b: (np.intersect1d(_dup(a), _dup(b)),
                                   np.intersect1d(_twice(a), _dup(b), return_indices=True),
                                   np.intersect1d(a, b, assume_unique=True),
                                   np.intersect1d(_dup(a), _dup(b), assume_unique=True, return_indices=True)),
      PAIR_SHAPES, specials=True, dtypes=SET_DTYPES),
    R("union1d", lambda a, b: (np.union1d(_dup(a), _dup(b)), np.union1d(_twice(a), b)), PAIR_SHAPES,
      specials=True, dtypes=SET_DTYPES),
    R("setdiff1d", lambda a, b: (np.setdiff1d(_twice(a), _dup(b)),
                                 np.setdiff1d(_dup(a), _dup(b), assume_unique=True),
                                 np.setdiff1d(_dup(a).ravel()[::-1], b, assume_unique=True)),
      PAIR_SHAPES, specials=True, dtypes=SET_DTYPES),
    R("setxor1d", lambda a, b: (np.setxor1d(_twice(a), _dup(b)), np.setxor1d(_dup(a), _twice(b)),
                                np.setxor1d(_dup(a), _dup(b), assume_unique=True)),
      PAIR_SHAPES, specials=True, dtypes=SET_DTYPES),
    # Mixed dtypes: the set functions compare in the common dtype, setdiff1d keeps ar1's.
    R("sets_mixed_dtypes", lambda a, b: (np.intersect1d(_dup(a), _dup(b).astype(np.float32),
                                                        return_indices=True),
                                         np.union1d(_dup(a), np.int8(3)), np.setdiff1d(_dup(a), [1, 2.5, 3]),
                                         np.setxor1d(_dup(a), _dup(b).astype(np.int16)),
                                         np.intersect1d(_dup(a), 2)),
      [((9,), (7,))],
      dtypes=[np.bool_, np.int8, np.uint16, np.int64, np.float16, np.float64, np.complex64]),
    R("bincount", lambda x: (np.bincount(x), np.bincount(x.ravel(), minlength=3),
                             np.bincount(x, minlength=12),
                             np.bincount(x, weights=x), np.bincount(x, x * 0.5, 2),
                             np.bincount(x, weights=x.astype(np.float32))),
      [((9,),), ((0,),), ((),), ((3, 4),)], kinds=("small",)),
    R("bincount_weights_dtype", lambda x, w: np.bincount(x, weights=w), [((6,), (6,)), ((5,), (6,))],
      kinds=("small", "any")),
    R("trim_zeros", lambda x: (np.trim_zeros(_padded(x)), np.trim_zeros(_padded(x), "f"),
                               np.trim_zeros(_padded(x), "B"),
                               np.trim_zeros(_padded(x, 0)), np.trim_zeros(np.zeros_like(x.ravel())),
                               np.trim_zeros(np.zeros_like(x.ravel()), "b"), np.trim_zeros(x)),
      [((9,),), ((0,),), ((3, 4),), ((),)], specials=True),
    R("trim_zeros_nd", lambda x: (np.trim_zeros(np.pad(x * (abs(x) > 1), 1)),
                                  np.trim_zeros(np.pad(x * (abs(x) > 1), 1), "f", axis=0),
                                  np.trim_zeros(np.pad(x, ((0, 2), (1, 0))), "b", axis=-1),
                                  np.trim_zeros(np.zeros_like(x), axis=1)),
      [((3, 4),), ((2, 3, 2),)], dtypes=REAL),
]

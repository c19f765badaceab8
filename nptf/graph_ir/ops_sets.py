"""IR op for counting, with its NumPy meaning.

``bincount``: inputs ``(ids,)`` or ``(ids, weights)``, 1-D and of one
length. Bin ``i`` sums the weights (or counts the ids) equal to ``i``; the
result has ``max(max(ids) + 1, minlength)`` bins, a length known only once
the ids are. Negative ids are dropped, so the op stays defined on data that
NumPy rejects: the tracer puts a ``check`` in front that raises NumPy's
error after the run. With param ``bins``, the result has exactly that many
bins and ids at or past it are dropped, as where the tracer assumes them below
``minlength`` (and checks it).
"""
from __future__ import annotations

import numpy as np

from .evaluate import EVAL_RULES
from .ops import declare, register
from .types import ArrayType

_INTP = np.dtype(np.intp)


@register("bincount", lambda ts, p: [_INTP] + [t.dtype for t in ts[1:]])
def _bincount(ts, params):
    if any(t.ndim != 1 for t in ts):
        raise ValueError("bincount works on 1-D ids and weights")
    dtype = ts[1].dtype if len(ts) > 1 else _INTP
    return [ArrayType((params.get("bins"),), dtype)]


def _eval_bincount(p, ids, weights=None):
    ids = np.asarray(ids)
    length = p.get("bins") or max(p["minlength"], int(ids.max()) + 1 if ids.size else 0)
    weights = np.ones(ids.shape, _INTP) if weights is None else np.asarray(weights)
    out = np.zeros(length, weights.dtype)
    valid = (ids >= 0) & (ids < length)
    np.add.at(out, ids[valid], weights[valid])
    return out


EVAL_RULES["bincount"] = _eval_bincount


# Without ``bins`` its length depends on the data: XLA needs every size when it compiles.
declare("bincount", xla_obstacle=lambda in_types, params: params.get("bins") is None)

"""TF_RULES for ``call``: the callee's tensors around the lowered graph. The run-time
checks it reports join the calling graph's."""
from __future__ import annotations

from .lower import checked_runner
from .rules import rule


@rule("call")
def _call(ctx, *xs, graph, callee):
    outs, checks = callee.tensors(checked_runner(graph, ctx.xla, ctx.portable), list(xs))
    ctx.checks.extend(checks)
    return tuple(outs)

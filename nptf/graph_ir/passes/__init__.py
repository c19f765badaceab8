"""Graph -> Graph passes, run in ``PIPELINE`` order.

Each pass is a pure function named by what it does. Tests run the verifier
after every one; ``Compiled.trace(..., stage=...)`` shows any intermediate graph.
Passes that rewrite one equation at a time keep their rules in a table keyed by op
and run on the one walk ``rewrite.rewrite_eqns``.
"""
from .bounds import bound_loop_counters
from .branches import sink_branch_writes
from .broadcast import broadcast_operands, implicit_broadcasts
from .fold import fold_constants, simplify_algebra
from .padding import pad_bounded_slices
from .promote import promote_dtypes
from .selects import select_small_branches
from .simplify import eliminate_dead_code, eliminate_common_subexpressions
from .trig_bounds import bound_trig_arguments
from .unroll import unroll_loops
from .writes import merge_element_writes

PIPELINE = [promote_dtypes, fold_constants, simplify_algebra, broadcast_operands,
            bound_loop_counters, unroll_loops, eliminate_common_subexpressions, pad_bounded_slices,
            sink_branch_writes, select_small_branches,
            merge_element_writes, bound_trig_arguments, eliminate_dead_code]

# For graphs TensorFlow differentiates: ``where`` in place of a ``cond`` multiplies the
# derivative of the path not taken by zero, which a non-finite one there makes NaN.
DIFFERENTIABLE_PIPELINE = [p for p in PIPELINE if p is not select_small_branches]


def run_pipeline(graph, verify_each=False):
    from ..verify import verify
    for p in PIPELINE:
        graph = p(graph)
        if verify_each:
            verify(graph)
    return graph


__all__ = ["PIPELINE", "DIFFERENTIABLE_PIPELINE", "run_pipeline", "select_small_branches", "promote_dtypes", "fold_constants", "simplify_algebra",
           "broadcast_operands", "bound_loop_counters", "unroll_loops", "sink_branch_writes",
           "merge_element_writes", "bound_trig_arguments", "eliminate_dead_code", "pad_bounded_slices",
           "eliminate_common_subexpressions", "implicit_broadcasts"]

"""nptf's intermediate representation. Never imports TensorFlow."""
from .evaluate import evaluate
from .ir import Eqn, Graph, Literal, Var, format_graph, literal
from .ops import OPS, Op
from .types import ArrayType
from .verify import VerifyError, verify
# The modules that add ops to OPS (and their NumPy evaluation to EVAL_RULES) as they
# load, beyond ops.py's own: the one list of them, loaded with the package.
from . import ops_indexing
from . import ops_control
from . import ops_random
from . import ops_checks
from . import ops_sorting
from . import ops_linalg
from . import ops_fft
from . import ops_sets
from . import ops_calls
from . import ops_io

OP_MODULES = (ops_indexing, ops_control, ops_random, ops_checks, ops_sorting, ops_linalg, ops_fft,
              ops_sets, ops_calls, ops_io)

__all__ = ["ArrayType", "Eqn", "Graph", "Literal", "Var", "literal", "OPS", "Op", "evaluate",
           "format_graph", "verify", "VerifyError"]

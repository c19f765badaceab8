"""nptf's intermediate representation. Never imports TensorFlow."""
from .evaluate import evaluate
from .ir import Eqn, Graph, Literal, Var, format_graph, literal
from .ops import OPS, Op
from .types import ArrayType
from .verify import VerifyError, verify

__all__ = ["ArrayType", "Eqn", "Graph", "Literal", "Var", "literal", "OPS", "Op", "evaluate",
           "format_graph", "verify", "VerifyError"]
from . import ops_indexing as _ops_indexing  # noqa: E402,F401
from . import ops_control as _ops_control  # noqa: E402,F401
from . import ops_random as _ops_random  # noqa: E402,F401
from . import ops_checks as _ops_checks  # noqa: E402,F401  (registers ops)
from . import ops_sorting as _ops_sorting  # noqa: E402,F401
from . import ops_linalg as _ops_linalg  # noqa: E402,F401
from . import ops_fft as _ops_fft  # noqa: E402,F401
from . import ops_sets as _ops_sets  # noqa: E402,F401
from . import ops_calls as _ops_calls  # noqa: E402,F401

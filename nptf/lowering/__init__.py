"""IR -> TensorFlow."""
from .lower import checked_runner, lower_graph, xla_obstacles
from .rules import TF_RULES, VECTORIZED
from .gradients import missing_gradients
# The modules that add lowering rules to TF_RULES as they load, beyond rules.py's own:
# the one list of them, loaded with the package.
from . import structural
from . import rules_indexing
from . import rules_random
from . import rules_checks
from . import rules_sorting
from . import rules_linalg
from . import rules_fft
from . import rules_sets
from . import rules_control
from . import rules_calls
from . import rules_io

RULE_MODULES = (structural, rules_indexing, rules_random, rules_checks, rules_sorting, rules_linalg,
                rules_fft, rules_sets, rules_control, rules_calls, rules_io)

__all__ = ["checked_runner", "lower_graph", "xla_obstacles", "TF_RULES", "VECTORIZED",
           "missing_gradients"]

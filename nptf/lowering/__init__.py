"""IR -> TensorFlow."""
from .lower import checked_runner, lower_graph, xla_obstacles
from .rules import TF_RULES
from .gradients import missing_gradients

__all__ = ["checked_runner", "lower_graph", "xla_obstacles", "TF_RULES", "missing_gradients"]

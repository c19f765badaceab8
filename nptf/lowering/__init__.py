"""IR -> TensorFlow."""
from .lower import lower_graph, xla_obstacles
from .rules import TF_RULES
from .gradients import missing_gradients

__all__ = ["lower_graph", "xla_obstacles", "TF_RULES", "missing_gradients"]

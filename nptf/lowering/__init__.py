"""IR -> TensorFlow."""
from .lower import lower_graph, xla_obstacles
from .rules import TF_RULES

__all__ = ["lower_graph", "xla_obstacles", "TF_RULES"]

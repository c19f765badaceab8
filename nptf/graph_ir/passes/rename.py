"""Renaming for passes: the vars a pass has replaced, applied to what follows.

A pass that drops or rewrites an equation hands its outputs' new atoms to a
``Renamer``; every later input and the graph's outputs read through it. Copying a
graph's equations in place of the equation that holds it (inlining a branch,
unrolling a loop body) gives each copy fresh outputs with ``copy``.
"""
from __future__ import annotations

from ..ir import Var, map_subgraphs


def substitute(atoms, rename):
    """``atoms`` with each var that ``rename`` maps replaced, as a tuple."""
    return tuple(rename.get(a, a) if isinstance(a, Var) else a for a in atoms)


class Renamer:
    """Vars replaced by other atoms (``atoms``: var -> atom)."""

    def __init__(self, pairs=()):
        self.atoms = dict(pairs)

    def __call__(self, atoms):
        return substitute(atoms, self.atoms)

    def update(self, old, new):
        """``old`` vars read as ``new`` atoms from here on (in order)."""
        self.atoms.update(zip(old, new))

    def eqn(self, eqn, subgraphs=None):
        """``eqn`` reading the renamed atoms; ``subgraphs`` (a pass) applied to the graphs in
        its params."""
        eqn = eqn.replace(inputs=self(eqn.inputs))
        return eqn if subgraphs is None else map_subgraphs(eqn, subgraphs)

    def copy(self, eqn, inputs=None):
        """``eqn`` with fresh outputs, which its old outputs read as from here on;
        ``inputs`` in place of its renamed inputs."""
        copied = eqn.replace(inputs=self(eqn.inputs) if inputs is None else inputs,
                             outputs=tuple(Var(v.type) for v in eqn.outputs))
        self.update(eqn.outputs, copied.outputs)
        return copied


__all__ = ["Renamer", "substitute"]

"""A minimal pytree: tuples, lists and dicts of leaves, flattened and rebuilt."""
from __future__ import annotations


class TreeDef:
    __slots__ = ("kind", "meta", "children", "_hash")

    def __init__(self, kind, meta, children):
        self.kind, self.meta, self.children = kind, meta, children
        self._hash = hash((kind, meta, children))

    def __eq__(self, other):
        return isinstance(other, TreeDef) and (self.kind, self.meta, self.children) == \
            (other.kind, other.meta, other.children)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"TreeDef({self.kind}, {self.meta}, {self.children})"

    @property
    def num_leaves(self):
        return 1 if self.kind == "leaf" else sum(c.num_leaves for c in self.children)


LEAF = TreeDef("leaf", None, ())


def flatten(tree, is_leaf=None):
    leaves = []
    return leaves, _flatten_into(tree, is_leaf, leaves)   # see unflatten on closures


def _flatten_into(x, is_leaf, leaves):
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        return LEAF
    if type(x) is tuple or type(x) is list or getattr(type(x), "nptf_list", False):
        # (a list of nptf's own that the user's code sees as a list is one here too)
        return TreeDef("tuple" if type(x) is tuple else "list", len(x),
                       tuple([_flatten_into(v, is_leaf, leaves) for v in x]))
    if isinstance(x, tuple) and hasattr(type(x), "_fields"):   # namedtuple
        return TreeDef("namedtuple", type(x), tuple([_flatten_into(v, is_leaf, leaves) for v in x]))
    flatten_node = getattr(type(x), "nptf_children", None)
    if flatten_node is not None:
        # A node of nptf's own (a value that may be None, a dict keyed by traced values):
        # its class, or the static facts it names (``nptf_spec``), rebuilds it from its
        # children (``nptf_rebuilt``).
        spec = getattr(type(x), "nptf_spec", None)
        meta = type(x) if spec is None else spec(x)
        return TreeDef("node", meta, tuple([_flatten_into(v, is_leaf, leaves)
                                            for v in x.nptf_children()]))
    if type(x) is dict:
        keys = tuple(x.keys())
        return TreeDef("dict", keys, tuple([_flatten_into(x[k], is_leaf, leaves) for k in keys]))
    leaves.append(x)
    return LEAF


def unflatten(treedef, leaves):
    if treedef.kind == "leaf":
        (leaf,) = leaves
        return leaf
    # No recursive closure here: a closure that calls itself is a reference cycle, and
    # it would keep the leaves (a call's output buffers) alive until the cyclic garbage
    # collector runs, so every call would get fresh, cold memory from the allocator.
    return _build(treedef, iter(leaves))


def _build(t, it):
    if t.kind == "leaf":
        return next(it)
    children = [_build(c, it) for c in t.children]
    if t.kind == "tuple":
        return tuple(children)
    if t.kind == "list":
        return children
    if t.kind == "namedtuple":
        return t.meta(*children)
    if t.kind == "node":
        return t.meta.nptf_rebuilt(children)
    return dict(zip(t.meta, children))


def node_metas(treedef):
    """The metas (classes or specs) of the nodes of nptf's own in ``treedef``."""
    if treedef.kind == "node":
        yield treedef.meta
    for c in treedef.children:
        yield from node_metas(c)


def has_nodes(treedef):
    """Whether ``treedef`` holds a node of nptf's own (see ``_flatten_into``)."""
    return treedef.kind == "node" or any(has_nodes(c) for c in treedef.children)

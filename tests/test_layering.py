"""nptf's modules import one way: no import cycles inside the package, each module
imports on its own, and no module reaches into another's private names or hides an
import behind ``noqa``."""
import ast
import os
import re
import subprocess
import sys
import tempfile
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "nptf")

# The import cycles inside nptf, each as the sorted list of its modules: none, and
# test_no_import_cycles fails on a new one.
KNOWN_CYCLES = []

# ``noqa: E402`` where it cannot go: nptf/__init__.py sets TensorFlow's environment
# (logging, allocator, XLA flags) and imports TensorFlow quietly before any of its own
# modules imports TensorFlow.
NOQA_ALLOWED = {("nptf/__init__.py", "E402")}


def _modules():
    """``{module name: path}`` of every module of nptf."""
    found = {}
    for directory, _, files in os.walk(PACKAGE):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(directory, f)
                name = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                found[name[:-len(".__init__")] if name.endswith(".__init__") else name] = path
    return found


def _imports(name, path, modules):
    """``[(imported module, imported name, line)]``: every import of ``name`` of a module
    of nptf, at module level or inside a function; the name is None for ``import x``
    and ``from . import module``."""
    tree = ast.parse(open(path).read(), path)
    package = name if path.endswith("__init__.py") else name.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                target = ".".join(parts + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                if f"{target}.{alias.name}" in modules:
                    found.append((f"{target}.{alias.name}", None, node.lineno))
                elif target in modules:
                    found.append((target, alias.name, node.lineno))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, None, node.lineno) for alias in node.names
                         if alias.name in modules)
    return found


def _cycles(edges):
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(edges)))
    try:
        for v in sorted(edges):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(components)


def test_no_import_cycles():
    modules = _modules()
    edges = {name: {target for target, _, _ in _imports(name, path, modules)} - {name}
             for name, path in modules.items()}
    assert _cycles(edges) == sorted(sorted(c) for c in KNOWN_CYCLES)


def test_cycle_finder_finds_cycles():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"f"}, "f": {"e"}, "g": set()}
    assert _cycles(edges) == [["a", "b", "c"], ["e", "f"]]


def test_each_module_imports_alone():
    """Each module imports in an interpreter that has imported no nptf module before
    (one process for all, clearing nptf from sys.modules between them: TensorFlow and
    NumPy stay loaded), with the package ``nptf`` itself standing empty: its
    ``__init__`` imports every module, so a module then loads only what it imports itself.
    Not nptf.__main__: importing it runs the command line."""
    names = sorted(set(_modules()) - {"nptf.__main__"})
    script = textwrap.dedent("""
        import importlib, sys, traceback, types
        import nptf         # TensorFlow loaded once, configured as nptf configures it
        path = list(nptf.__path__)
        failed = []
        for name in sys.argv[1:]:
            for loaded in [m for m in sys.modules if m == "nptf" or m.startswith("nptf.")]:
                del sys.modules[loaded]
            if name != "nptf":
                sys.modules["nptf"] = types.ModuleType("nptf")
                sys.modules["nptf"].__path__ = path
            try:
                importlib.import_module(name)
            except BaseException:
                failed.append(name + ":\\n" + traceback.format_exc())
        print("\\n".join(failed))
        sys.exit(1 if failed else 0)
    """)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # Each module is imported afresh about a hundred times: bytecode cached outside the
    # tree spares compiling every source each time (most of the test's time where
    # PYTHONDONTWRITEBYTECODE is set).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as cache:
        env["PYTHONPYCACHEPREFIX"] = cache
        result = subprocess.run([sys.executable, "-c", script, *names], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]


def test_no_noqa_for_imports():
    marker = re.compile(r"#\s*noqa:\s*([A-Z0-9, ]+)")
    found = []
    for path in _modules().values():
        rel = os.path.relpath(path, ROOT).replace(os.sep, "/")
        for number, line in enumerate(open(path), 1):
            m = marker.search(line)
            codes = {c.strip() for c in m.group(1).split(",")} if m else set()
            found += [f"{rel}:{number}: noqa: {c}" for c in sorted(codes & {"E402", "F401"})
                      if (rel, c) not in NOQA_ALLOWED]
    assert not found, "\n".join(found)


def test_no_module_imports_private_names():
    """No ``from .x import _name`` and no ``x._name`` on a module ``x`` of nptf."""
    modules = _modules()
    found = []
    for name, path in modules.items():
        rel = os.path.relpath(path, ROOT)
        found += [f"{rel}:{line}: {target}.{imported}"
                  for target, imported, line in _imports(name, path, modules)
                  if imported and imported.startswith("_") and not imported.startswith("__")]
        tree = ast.parse(open(path).read(), path)
        aliases = {}
        package = name if path.endswith("__init__.py") else name.rsplit(".", 1)[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1]) if node.level else ""
                target = ".".join(p for p in (base, node.module) if p)
                for alias in node.names:
                    if f"{target}.{alias.name}" in modules:
                        aliases[alias.asname or alias.name] = f"{target}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules and alias.asname:
                        aliases[alias.asname] = alias.name
        found += [f"{rel}:{node.lineno}: {aliases[node.value.id]}.{node.attr}"
                  for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id in aliases and node.attr.startswith("_")
                  and not node.attr.startswith("__")]
    assert not found, "\n".join(found)

"""Seeds "Python definition deleted while still used through a re-export or an attribute"
slop and counts how many `slopguard check` blocks, and by which guard.

usage: seed-py-uses.py REPO_CLONE BINARY [MAX]

The uses are found with Python's own `ast` (so slopguard's parser does not pick its own cases).
Each tracked `.py` file inside a package (a directory with `__init__.py`) has a dotted module
name (`src/attr/_make.py` -> `attr._make`). A top-level `def`/`class` NAME of such a module
(defined once, not bound at top level any other way) is a case when another file uses it
- `reexport`: a package `__init__.py` imports it from the module (`from ._make import NAME`,
  `from humanize.number import NAME`), or star-imports the module while the module's
  `__all__` lists NAME (`from .more import *`);
- `attr`: an attribute of an expression that resolves to the module (`_make.NAME`,
  `pkg.mod.NAME`, `m.NAME` after `import pkg.mod as m`, `mod.NAME` after `from pkg import
  mod`), and no package `__init__.py` re-exports it.
The first MAX (default 100) cases in path order each get the definition deleted (decorators
and all), in turn, and `slopguard check` judges the working tree.

The JSON line has the usual fields (`cases`, `blocked`, `by_guard`, `rare`, `missed`) and
`classes`: cases and blocked per class.
"""
import ast
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seedlib import Tally, tracked  # noqa: E402


def module_name(repo, path):
    """The dotted module name of `path` (relative to `repo`), None outside a package."""
    parts = path[:-3].split("/")
    if not os.path.exists(os.path.join(repo, *parts[:-1], "__init__.py")) or len(parts) < 2:
        return None
    k = len(parts) - 1
    while k > 1 and os.path.exists(os.path.join(repo, *parts[:k - 1], "__init__.py")):
        k -= 1
    names = parts[k - 1:]
    if names[-1] == "__init__":
        names = names[:-1]
    return ".".join(names)


def absolute(mod, level, here, is_init):
    """The module a `from` import names, resolved against the importing module `here`."""
    if level == 0:
        return mod
    if here is None:
        return None
    base = here.split(".")
    if not is_init:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([mod] if mod else []))


class Uses(ast.NodeVisitor):
    """The module uses of one file: `imports` (module, name, line), `stars` (module) and
    `attrs` (module, name, line) through the file's module aliases."""

    def __init__(self, here, is_init, modules):
        self.here, self.is_init, self.modules = here, is_init, modules
        self.alias = {}
        self.imports, self.stars, self.attrs = [], [], []

    def visit_Import(self, node):
        for a in node.names:
            if a.asname:
                self.alias[a.asname] = a.name
            else:
                head = a.name.split(".")[0]
                self.alias[head] = head

    def visit_ImportFrom(self, node):
        mod = absolute(node.module, node.level, self.here, self.is_init)
        if mod is None:
            return
        for a in node.names:
            if a.name == "*":
                self.stars.append(mod)
                continue
            self.imports.append((mod, a.name, node.lineno))
            sub = f"{mod}.{a.name}"
            if sub in self.modules:
                self.alias[a.asname or a.name] = sub

    def resolve(self, node):
        if isinstance(node, ast.Name):
            return self.alias.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def visit_Attribute(self, node):
        base = self.resolve(node.value)
        if base in self.modules:
            self.attrs.append((base, node.attr, node.lineno))
        self.generic_visit(node)


def parse(repo, path):
    try:
        with open(os.path.join(repo, path)) as f:
            return ast.parse(f.read())
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return None


def top_level_bindings(tree):
    """How many times each name is bound at the module's top level (defs, assignments,
    imports, also inside top-level `if`/`try`)."""
    count = {}

    def add(n):
        count[n] = count.get(n, 0) + 1

    def walk(stmts):
        for s in stmts:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                add(s.name)
            elif isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = s.targets if isinstance(s, ast.Assign) else [s.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            add(n.id)
            elif isinstance(s, (ast.Import, ast.ImportFrom)):
                for a in s.names:
                    add((a.asname or a.name).split(".")[0])
            elif isinstance(s, ast.If):
                walk(s.body)
                walk(s.orelse)
            elif isinstance(s, ast.Try):
                walk(s.body)
                walk(s.orelse)
                walk(s.finalbody)
                for h in s.handlers:
                    walk(h.body)
    walk(tree.body)
    return count


def dunder_all(tree):
    for s in tree.body:
        if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                             for t in s.targets):
            try:
                return set(ast.literal_eval(s.value))
            except ValueError:
                return set()
    return set()


def main():
    repo, binary = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    files = tracked(repo, "*.py")
    mods = {f: module_name(repo, f) for f in files}
    modules = {m for m in mods.values() if m}
    trees = {f: parse(repo, f) for f in files}
    # Every file's uses of modules, once.
    uses = {}
    for f, t in trees.items():
        if t is None:
            continue
        u = Uses(mods[f], f.endswith("__init__.py"), modules)
        u.visit(t)
        uses[f] = u
    tally = Tally(repo, binary)
    classes = {}
    for f in files:
        mod, tree = mods[f], trees[f]
        if mod is None or tree is None or tally.cases >= limit:
            continue
        bound = top_level_bindings(tree)
        exported = dunder_all(tree)
        with open(os.path.join(repo, f)) as fh:
            lines = fh.read().splitlines(keepends=True)
        for node in tree.body:
            if tally.cases >= limit:
                break
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            name = node.name
            if bound.get(name, 0) != 1:
                continue
            reexport = attr = False
            for g, u in uses.items():
                if g == f:
                    continue
                if g.endswith("__init__.py"):
                    reexport |= any(m == mod and n == name for m, n, _ in u.imports)
                    reexport |= mod in u.stars and name in exported
                attr |= any(m == mod and n == name for m, n, _ in u.attrs)
            if not (reexport or attr):
                continue
            kind = "reexport" if reexport else "attr"
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            seeded = "".join(lines[: start - 1] + lines[node.end_lineno:])
            guards = tally.judge(f, seeded, f"{f}:{name} ({kind})")
            c = classes.setdefault(kind, {"cases": 0, "blocked": 0})
            c["cases"] += 1
            c["blocked"] += bool(guards)
    line = tally.report(most_missed=100)
    print(line[:-1] + ', "classes": ' + __import__("json").dumps(classes) + "}")


main()

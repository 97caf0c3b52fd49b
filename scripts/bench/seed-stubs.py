"""Seeds "stub under a kept docstring" slop into real Python functions and counts how many
`slopguard check` blocks, and by which guard. (Rust, Go and JavaScript: seed-stubs-braces.py.)

usage: seed_stubs.py REPO_CLONE BINARY [MAX]
"""
import ast, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seedlib import Tally, tracked  # noqa: E402

STUBS = [
    "raise NotImplementedError",
    "pass  # TODO: implement",
    "...",
    "return None  # TODO",
    None,  # docstring only
]

def already_stub(body):
    """A body that is a placeholder already: nothing to gut."""
    if len(body) != 1:
        return False
    b = body[0]
    if isinstance(b, ast.Pass):
        return True
    if isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant) and b.value.value is Ellipsis:
        return True
    return isinstance(b, ast.Raise) and "NotImplemented" in ast.unparse(b)

def functions(path):
    src = open(path).read()
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return src, []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and ast.get_docstring(node):
            body = node.body[1:]
            if not body or already_stub(body):
                continue
            decos = [ast.unparse(d) for d in node.decorator_list]
            if any("abstract" in d or "overload" in d for d in decos):
                continue
            out.append((node.name, node.body[0], body))
    return src, out

def main():
    repo, binary = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    files = tracked(repo, "*.py")
    files = [f for f in files if not f.startswith(("tests/", "docs/", "examples/")) and "/tests/" not in f]
    tally = Tally(repo, binary)
    for f in files:
        path = os.path.join(repo, f)
        src, fns = functions(path)
        lines = src.splitlines(keepends=True)
        for name, doc, body in fns:
            if tally.cases >= limit:
                break
            stub = STUBS[tally.cases % len(STUBS)]
            indent = lines[body[0].lineno - 1][: body[0].col_offset]
            start, end = body[0].lineno - 1, body[-1].end_lineno
            new = lines[:start] + ([indent + stub + "\n"] if stub else []) + lines[end:]
            tally.judge(f, "".join(new), f"{f}:{name} ({stub})")
    print(tally.report())

main()

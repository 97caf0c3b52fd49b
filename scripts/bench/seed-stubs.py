"""Seeds "stub under a kept docstring" slop into real Python functions and counts how many
`slopguard check` blocks, and by which guard.

usage: seed_stubs.py REPO_CLONE BINARY [MAX]
"""
import ast, json, os, subprocess, sys

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
    files = subprocess.run(["git", "-C", repo, "ls-files", "*.py"], capture_output=True, text=True).stdout.split()
    files = [f for f in files if not f.startswith(("tests/", "docs/", "examples/")) and "/tests/" not in f]
    cases = 0; blocked = 0; by_guard = {}; missed = []
    for f in files:
        path = os.path.join(repo, f)
        src, fns = functions(path)
        lines = src.splitlines(keepends=True)
        for name, doc, body in fns:
            if cases >= limit:
                break
            stub = STUBS[cases % len(STUBS)]
            indent = lines[body[0].lineno - 1][: body[0].col_offset]
            start, end = body[0].lineno - 1, body[-1].end_lineno
            new = lines[:start] + ([indent + stub + "\n"] if stub else []) + lines[end:]
            open(path, "w").write("".join(new))
            r = subprocess.run([binary, "check", "-C", repo, "--format", "json"], capture_output=True, text=True)
            open(path, "w").write(src)
            cases += 1
            d = json.loads(r.stdout)
            guards = sorted({x["guard"] for x in d["findings"] if x["severity"] == "block"})
            if guards:
                blocked += 1
                for g in guards:
                    by_guard[g] = by_guard.get(g, 0) + 1
            else:
                missed.append(f"{f}:{name} ({stub})")
    print(json.dumps({"cases": cases, "blocked": blocked, "by_guard": by_guard, "missed": missed[:10]}))

main()

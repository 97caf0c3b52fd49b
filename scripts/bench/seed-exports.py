"""Seeds "CommonJS export deleted while still used" slop: each top-level `exports.NAME = ...` /
`module.exports.NAME = ...` statement of the given files is deleted in turn (through its
closing `};` for a function), only when another file of the repository mentions NAME; counts
how many `slopguard check` blocks and by which guard.

usage: seed_exports.py REPO_CLONE BINARY FILE...
"""
import json, re, subprocess, sys

repo, binary, files = sys.argv[1], sys.argv[2], sys.argv[3:]
START = re.compile(r"^(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=")
cases = blocked = 0; by_guard = {}; missed = []
for f in files:
    path = f"{repo}/{f}"
    src = open(path).read()
    lines = src.splitlines(keepends=True)
    for i, line in enumerate(lines):
        m = START.match(line)
        if not m:
            continue
        name = m.group(1)
        users = subprocess.run(["git", "-C", repo, "grep", "-lw", name], capture_output=True, text=True).stdout.split()
        if not [u for u in users if u != f and u.endswith((".js", ".ts", ".mjs"))]:
            continue
        end = i
        if not line.rstrip().endswith(";") or line.rstrip().endswith("{"):
            while end < len(lines) and not lines[end].startswith("}"):
                end += 1
        new = lines[:i] + lines[end + 1:]
        open(path, "w").write("".join(new))
        r = subprocess.run([binary, "check", "-C", repo, "--format", "json"], capture_output=True, text=True)
        open(path, "w").write(src)
        cases += 1
        guards = sorted({x["guard"] for x in json.loads(r.stdout)["findings"] if x["severity"] == "block"})
        if guards:
            blocked += 1
            for g in guards:
                by_guard[g] = by_guard.get(g, 0) + 1
        else:
            missed.append(f"{f}:{name}")
print(json.dumps({"cases": cases, "blocked": blocked, "by_guard": by_guard, "missed": missed}))

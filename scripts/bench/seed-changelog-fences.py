"""Seeds "the code examples stripped from a Markdown changelog" and counts how many `slopguard
check` blocks, and by which guard.

usage: seed-changelog-fences.py REPO_CLONE BINARY [PATH] [MAX]

PATH (default CHANGELOG.md) is a Markdown changelog of the clone. Up to MAX (default 30) of its
historical versions, taken evenly from the commits that changed it, each holding fenced code
(``` or ~~~ blocks) of at least 50 characters, are each committed in turn on a scratch branch
as the file's text, and then judged twice on the working tree:
- `stripped`: every fenced block removed, the prose kept (what a model "tidying" release notes
  does);
- `control`: the commit that made the next version, a human's, judged whole (`check
  --commit`: release notes moved into another file are seen as moved); a doc-preservation
  block on PATH there is a false alarm.
The scratch branch is deleted at the end and the clone's branch checked out again.

The JSON line has the usual fields (`cases`, `blocked`, `by_guard`, `rare`, `missed`) and
`classes`: cases and blocked per class.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seedlib import Tally  # noqa: E402

# A fenced block, indented or not (inside a list item), up to its closing fence.
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\1[ \t]*(?:\n|\Z)", re.M | re.S)


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=True).stdout


def code(block):
    """The code of a fenced block: its lines without the two fences."""
    return "".join(block.splitlines(keepends=True)[1:-1])


def count(classes, kind, blocked):
    c = classes.setdefault(kind, {"cases": 0, "blocked": 0})
    c["cases"] += 1
    c["blocked"] += blocked


def human_blocked(repo, binary, commit, path):
    """Whether `check --commit` blocks the human commit `commit` by doc-preservation on `path`."""
    r = subprocess.run([binary, "check", "-C", repo, "--commit", commit, "--format", "json"],
                       capture_output=True, text=True)
    findings = json.loads(r.stdout)["findings"]
    return any(f["guard"] == "doc-preservation" and f["severity"] == "block" and f["path"] == path
               for f in findings)


def main():
    repo, binary = sys.argv[1], sys.argv[2]
    path = sys.argv[3] if len(sys.argv) > 3 else "CHANGELOG.md"
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    branch = git(repo, "rev-parse", "--abbrev-ref", "HEAD").strip()
    commits = git(repo, "log", "--format=%H", "--", path).split()[::-1]  # oldest first
    versions = []
    for i, c in enumerate(commits[:-1]):
        text = git(repo, "show", f"{c}:{path}")
        if sum(len(code(m.group(0))) for m in FENCE.finditer(text)) >= 50:
            versions.append((text, commits[i + 1]))
    step = max(1, len(versions) // limit)
    chosen = versions[::step][:limit]
    tally = Tally(repo, binary)
    classes = {}
    git(repo, "checkout", "-q", "-B", "slopguard-seed-changelog")
    try:
        for n, (text, following) in enumerate(chosen):
            with open(os.path.join(repo, path), "w") as f:
                f.write(text)
            git(repo, "-c", "user.email=seed@example.com", "-c", "user.name=seed", "commit", "-q",
                "--allow-empty", "-am", f"changelog version {n}")
            guards = tally.judge(path, FENCE.sub("", text), f"version {n} (stripped)")
            count(classes, "stripped", bool(guards))
            count(classes, "control", human_blocked(repo, binary, following, path))
    finally:
        git(repo, "checkout", "-q", "-f", branch)
        git(repo, "branch", "-q", "-D", "slopguard-seed-changelog")
    line = tally.report(most_missed=20)
    print(line[:-1] + ', "classes": ' + json.dumps(classes) + "}")


main()

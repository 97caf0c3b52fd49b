"""Seeds "export deleted while still used" slop and counts how many `slopguard check` blocks,
and by which guard.

usage: seed_exports.py REPO_CLONE BINARY FILE...

Each top-level export statement of the given files is deleted in turn, only when another
JS/TS file of the repository mentions its name:
- CommonJS: `exports.NAME = ...` / `module.exports.NAME = ...` (through its closing `};` for
  a function);
- ESM: `export function NAME`, `export async function NAME`, `export class NAME`,
  `export const|let|var NAME = ...`, with the lines that continue it in formatted code (the
  indented lines and closing brackets after it, blank lines among them, up to the next
  statement at column 0).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seedlib import Tally, mentioned_elsewhere  # noqa: E402

COMMONJS = re.compile(r"^(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=")
ESM = re.compile(r"^export\s+(?:(?:async\s+)?function\s*\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)")
SCRIPTS = (".js", ".ts", ".mjs", ".cjs", ".tsx", ".jsx")


def commonjs_end(lines, i):
    end = i
    line = lines[i]
    if not line.rstrip().endswith(";") or line.rstrip().endswith("{"):
        while end < len(lines) and not lines[end].startswith("}"):
            end += 1
    return end


def esm_end(lines, i):
    """The last line of the statement starting at line `i`: the lines after it that are
    indented or start with a closing bracket belong to it, blank lines between them too."""
    end = i
    k = i + 1
    while k < len(lines):
        if not lines[k].strip():
            k += 1
        elif lines[k][0] in " \t)]}":
            end = k
            k += 1
        else:
            break
    return end


def main():
    repo, binary, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    tally = Tally(repo, binary)
    for f in files:
        with open(f"{repo}/{f}") as fh:
            lines = fh.read().splitlines(keepends=True)
        for i, line in enumerate(lines):
            m = COMMONJS.match(line) or ESM.match(line)
            if not m or not mentioned_elsewhere(repo, m.group(1), f, SCRIPTS):
                continue
            end = commonjs_end(lines, i) if m.re is COMMONJS else esm_end(lines, i)
            kind = "commonjs" if m.re is COMMONJS else "esm"
            tally.judge(f, "".join(lines[:i] + lines[end + 1:]), f"{f}:{m.group(1)} ({kind})")
    print(tally.report(most_missed=100))


main()

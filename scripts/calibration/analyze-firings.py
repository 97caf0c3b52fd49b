#!/usr/bin/env python3
"""Triage every blocking firing of the defect and grounding guards found by run-replay.sh.

    scripts/calibration/analyze-firings.py [HISTORIES_DIR [REPLAY_DIR]]
        HISTORIES_DIR default /tmp/sg-histories, REPLAY_DIR default HISTORIES_DIR/replay

Reads REPLAY_DIR/json/*.json and writes REPLAY_DIR/triage.tsv with one row per
blocking finding and a first, mechanical classification that a human then checks:

symbol-preservation ("still used"):
  split-artifact      per-file history only: the same symbol in the same file does not fire on the
                      whole-release commit of that version, i.e. the use goes away (or the new
                      definition arrives) in a later per-file commit of the same release
  enclosing-rename    the member name is still defined in the file after the change (its impl /
                      class / trait / module was renamed or re-nested), yet reported as removed
  member-name-match   a method/associated item (`Type::name`, `Class.name`) reported as "still
                      used" because some other call of the same bare name exists
  top-level           anything else: read the diff
syntax / placeholder / containment / grounding guards: `review` (read each by hand).
Prints counts per guard and class.
"""
import collections
import glob
import json
import os
import re
import subprocess
import sys

HIST = sys.argv[1] if len(sys.argv) > 1 else "/tmp/sg-histories"
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HIST, "replay")
DEFECT = ["syntax", "symbol-preservation", "placeholder", "containment"]
GROUNDING = ["config-schema", "content-grounding", "config-grounding", "doc-preservation",
             "link-grounding", "phantom-import", "psi-lite"]
DEF_RE = r"(?:\bfn|\bdef|\bfunction|\bclass|\bstruct|\benum|\btrait|\bconst|\bstatic|\btype|\bmod|macro_rules!|\binterface)\s+{}\b"


def load():
    runs = {}
    for f in sorted(glob.glob(os.path.join(OUT, "json", "*.json"))):
        variant, name = os.path.basename(f)[:-5].split("--", 1)
        runs[(variant, name)] = json.load(open(f))
    return runs


def release_key(subject):
    return subject.split(":", 1)[0]


def show(repo, commit, path):
    p = subprocess.run(["git", "-C", repo, "show", f"{commit}:{path}"], capture_output=True)
    return p.stdout.decode("utf-8", "replace") if p.returncode == 0 else ""


def main():
    runs = load()
    # (repo, version, path, symbol) of release-history G7 blocks
    release_g7 = set()
    for (variant, name), d in runs.items():
        if variant != "release":
            continue
        for firing in d["guards"].get("symbol-preservation", {}).get("commits", []):
            for f in firing["findings"]:
                if f["severity"] == "block":
                    sym = (f.get("data") or {}).get("symbol")
                    release_g7.add((name, release_key(firing["subject"]), f.get("path"), sym))
    rows = []
    counts = collections.Counter()
    g7_commits = collections.defaultdict(set)  # (variant, name, commit) -> classes
    for (variant, name), d in sorted(runs.items()):
        repo = os.path.join(HIST, variant, name)
        for g in DEFECT + GROUNDING:
            for firing in d["guards"].get(g, {}).get("commits", []):
                for f in firing["findings"]:
                    if f["severity"] != "block" or f["guard"] != g:
                        continue
                    cls = "review"
                    if g == "symbol-preservation":
                        sym = (f.get("data") or {}).get("symbol") or ""
                        rname = re.split(r"[.#:]", sym)[-1]
                        after = show(repo, firing["commit"], f.get("path") or "")
                        if variant == "perfile" and (name, release_key(firing["subject"]), f.get("path"), sym) not in release_g7:
                            cls = "split-artifact"
                        elif rname != sym and rname and re.search(DEF_RE.format(re.escape(rname)), after):
                            cls = "enclosing-rename"
                        elif rname != sym:
                            cls = "member-name-match"
                        else:
                            cls = "top-level"
                    counts[(variant, g, cls)] += 1
                    if g == "symbol-preservation":
                        g7_commits[(variant, name, firing["commit"])].add(cls)
                    rows.append([variant, name, firing["commit"][:10], firing["subject"], g, cls,
                                 f"{f.get('path')}:{f.get('line') or ''}", f["message"].replace("\n", " ").replace("\t", " ")[:300]])
    with open(os.path.join(OUT, "triage.tsv"), "w") as fh:
        fh.write("variant\trepo\tcommit\tsubject\tguard\tclass\tlocation\tmessage\n")
        for r in rows:
            fh.write("\t".join(r) + "\n")
    for (variant, g, cls), n in sorted(counts.items()):
        print(f"{variant:8} {g:22} {cls:18} {n}")
    for variant in ("release", "perfile"):
        total = sum(d["commits"] for (v, _), d in runs.items() if v == variant)
        blocked = [k for k in g7_commits if k[0] == variant]
        real = [k for k in blocked if g7_commits[k] - {"split-artifact"}]
        if total:
            print(f"{variant}: symbol-preservation blocked {len(blocked)}/{total} commits "
                  f"({100.0 * len(blocked) / total:.2f}%), {len(real)} ({100.0 * len(real) / total:.2f}%) "
                  "without the per-file split artifacts")
    print(f"{len(rows)} blocking findings -> {os.path.join(OUT, 'triage.tsv')}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Manages the bug-fix benchmark corpus under bench/corpus/ (stdlib only, Python 3.11+).

    scripts/bench/corpus.py [--corpus DIR] list [--half dev|heldout|all] [--lang L]
    scripts/bench/corpus.py materialize --out DIR [--half H] [--lang L] [--force] [IDS...]
    scripts/bench/corpus.py verify [--lang L] [--half H] [--keep] [IDS...]
    scripts/bench/corpus.py split --seed 20261125 [--force]
    scripts/bench/corpus.py stats [--sources]

--corpus DIR (default bench/corpus; a relative DIR is taken from the current directory, or else
from the repository root) points every subcommand at another directory of the same layout, such
as the tuning pool bench/tuning/. A directory without split.json has no halves: there --half
must be all (the default), and split is refused for any directory but bench/corpus.

Each task is bench/corpus/tasks/<id>/ with task.toml, repo/ (the correct project and its
tests) and bug.patch (a git diff, paths relative to repo/, that seeds one bug in a non-test
file). See bench/corpus/README.md.

materialize: DIR/<id>/ becomes a fresh git repository holding repo/ with bug.patch applied, in
one commit (so the correct code is not in its history), and DIR/<id>.task.json (task.toml as
JSON) is written beside it.

verify: in a temporary directory, repo/ must pass test_cmd (exit 0); with bug.patch applied it
must fail (nonzero exit; a timeout counts as failing only when mutation = "infinite-loop").
Also checks the task.toml keys, that bug_files are exactly the files the patch touches and that
none of them is a test file. Prints one line per task and exits 1 on any failure.
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = ROOT / "bench" / "corpus"
CORPUS = DEFAULT_CORPUS
TASKS = CORPUS / "tasks"
SPLIT = CORPUS / "split.json"

LANGUAGES = ("python", "javascript", "typescript", "go", "rust", "ruby")
ORIGINS = ("real", "synthetic")
REQUIRED = {
    "id": str, "language": str, "origin": str, "source": str, "license": str,
    "mutation": str, "bug_files": list, "test_files": list, "test_cmd": str,
}
DEFAULT_TIMEOUT_S = 60
# Build and cache directories never copied out of repo/.
JUNK = ("__pycache__", ".pytest_cache", "node_modules", "target", ".git", "*.pyc",
        ".mypy_cache", ".ruff_cache", "*.egg-info", "Cargo.lock.bak")

AUTHOR = ("corpus", "corpus@example.invalid")
COMMIT_DATE = "2026-01-01T00:00:00+00:00"

TEST_NAME = re.compile(
    r"(^|/)(tests?|spec|__tests__)/"      # under a test directory
    r"|(^|/)test_[^/]*\.py$|_test\.py$"   # python
    r"|_test\.go$"                        # go
    r"|\.(test|spec)\.[cm]?[jt]sx?$"      # javascript / typescript
    r"|_(test|spec)\.rb$"                 # ruby
    r"|(^|/)conftest\.py$"
)


# ---------------------------------------------------------------- loading

def corpus_path(path):
    """The corpus directory `--corpus path` names: an absolute path, else relative to the
    current directory when it is one there, else to the repository root. Exits when it has no
    `tasks/` directory. Every bench script resolves `--corpus` here."""
    p = Path(path)
    if not p.is_absolute():
        p = Path.cwd() / p if (Path.cwd() / p).is_dir() else ROOT / p
    if not (p / "tasks").is_dir():
        sys.exit(f"--corpus {path}: no tasks/ directory there")
    return p.resolve()


def task_ids(corpus, half=None):
    """The tasks of `half` of `corpus`'s split.json (None: dev), or every task of a directory
    without one, where a half other than all is refused. For the scripts beside this one."""
    corpus = Path(corpus)
    split_file = corpus / "split.json"
    if not split_file.is_file():
        if half not in (None, "all"):
            sys.exit(f"{corpus} has no split.json, so no halves: use --half all")
        return sorted(p.name for p in (corpus / "tasks").iterdir() if (p / "task.toml").is_file())
    split = json.loads(split_file.read_text())
    half = half or "dev"
    return split["dev"] + split["heldout"] if half == "all" else split[half]


def set_corpus(path):
    """Points CORPUS, TASKS and SPLIT at another directory of the corpus's layout."""
    global CORPUS, TASKS, SPLIT
    CORPUS = corpus_path(path)
    TASKS = CORPUS / "tasks"
    SPLIT = CORPUS / "split.json"



def load_task(task_dir):
    with open(task_dir / "task.toml", "rb") as f:
        t = tomllib.load(f)
    t.setdefault("timeout_s", DEFAULT_TIMEOUT_S)
    return t


def all_task_ids():
    if not TASKS.is_dir():
        return []
    return sorted(p.name for p in TASKS.iterdir() if (p / "task.toml").is_file())


def rel(path):
    try:
        return path.relative_to(ROOT)
    except ValueError:
        return path


def load_split():
    if not SPLIT.is_file():
        sys.exit(f"{rel(SPLIT)} does not exist (run `corpus.py split --seed N` once)")
    with open(SPLIT) as f:
        return json.load(f)


def select(ids=None, half="all", lang=None):
    """Task ids chosen by explicit ids, a half of the split and a language."""
    known = all_task_ids()
    if ids:
        unknown = [i for i in ids if i not in known]
        if unknown:
            sys.exit("unknown task id(s): " + ", ".join(unknown))
        chosen = list(ids)
    else:
        chosen = known
    if half and half != "all":
        if not SPLIT.is_file() and CORPUS != DEFAULT_CORPUS:
            sys.exit(f"{rel(CORPUS)} has no split.json, so no halves: use --half all")
        split = load_split()
        if half not in ("dev", "heldout"):
            sys.exit(f"--half must be dev, heldout or all, not {half!r}")
        members = set(split[half])
        chosen = [i for i in chosen if i in members]
    if lang:
        chosen = [i for i in chosen if load_task(TASKS / i).get("language") == lang]
    return chosen


# ---------------------------------------------------------------- helpers

def git(args, cwd, check=True, env_extra=None):
    env = dict(os.environ)
    env.update({
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": AUTHOR[0], "GIT_AUTHOR_EMAIL": AUTHOR[1],
        "GIT_COMMITTER_NAME": AUTHOR[0], "GIT_COMMITTER_EMAIL": AUTHOR[1],
        "GIT_AUTHOR_DATE": COMMIT_DATE, "GIT_COMMITTER_DATE": COMMIT_DATE,
        # Never let git find an enclosing repository (e.g. when DIR is inside one).
        "GIT_CEILING_DIRECTORIES": str(Path(cwd).resolve().parent),
    })
    if env_extra:
        env.update(env_extra)
    r = subprocess.run(["git", "-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false",
                        *args], cwd=cwd, env=env, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {r.stderr.strip() or r.stdout.strip()}")
    return r


def copy_repo(task_dir, dest):
    shutil.copytree(task_dir / "repo", dest, ignore=shutil.ignore_patterns(*JUNK), symlinks=True)


def apply_patch(task_dir, dest):
    patch = str((task_dir / "bug.patch").resolve())
    git(["apply", "--whitespace=nowarn", patch], cwd=dest)


def patch_files(task_dir):
    """Paths that bug.patch touches (relative to repo/)."""
    r = git(["apply", "--numstat", str((task_dir / "bug.patch").resolve())], cwd=task_dir)
    files = []
    for line in r.stdout.splitlines():
        parts = line.split("\t", 2)
        if len(parts) == 3:
            files.append(parts[2])
    return files


def changed_old_lines(task_dir):
    """{path: [old line numbers touched]} from bug.patch (insertions count at their position)."""
    out, path, old = {}, None, 0
    for line in (task_dir / "bug.patch").read_text().splitlines():
        if line.startswith("--- "):
            continue
        if line.startswith("+++ "):
            p = line[4:].strip()
            path = p[2:] if p.startswith("b/") else p
            out.setdefault(path, [])
            continue
        m = re.match(r"@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@", line)
        if m:
            old = int(m.group(1))
            continue
        if path is None or not line or line.startswith(("diff ", "index ", "\\")):
            continue
        if line[0] == "-":
            out[path].append(old)
            old += 1
        elif line[0] == "+":
            out[path].append(old)
        elif line[0] == " ":
            old += 1
    return out


def run_cmd(cmd, cwd, timeout_s):
    """Runs cmd in its own process group; returns (exit code or None on timeout, output, secs)."""
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("GOFLAGS", "-mod=mod")
    env["GOTOOLCHAIN"] = "local"
    env["NO_COLOR"] = "1"
    env["CI"] = "true"
    start = time.monotonic()
    proc = subprocess.Popen(["bash", "-c", cmd], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout_s)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = proc.communicate()
        code = None
    # Anything the command left behind in its group.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return code, out.decode("utf-8", "replace"), time.monotonic() - start


def count_results(output):
    """(failed, passed) test counts parsed from common runners' summaries, None where unknown."""
    failed = passed = None
    # cargo test: "test result: FAILED. 10 passed; 2 failed;" (summed over test binaries).
    # First: its "finished in 0.00s" would pass for pytest's summary below.
    results = re.findall(r"test result: \w+\. (\d+) passed; (\d+) failed", output)
    if results:
        return sum(int(b) for _, b in results), sum(int(a) for a, _ in results)
    # pytest: "== 2 failed, 10 passed in 0.1s ==" / "2 failed, 10 passed in 0.1s"
    m = re.search(r"^[= ]*(.*\b(?:passed|failed|error|errors)\b.*) in [\d.]+s", output, re.M)
    if m:
        s = m.group(1)
        # Parametrized cases and subtests of one test function count once (short summary lines).
        nodes = re.findall(r"^(?:SUB)?(?:FAILED|ERROR)(?:\([^)]*\))? ([^\s\[]+)", output, re.M)
        p = re.search(r"(\d+) passed", s)
        if nodes:
            return len(set(nodes)), int(p.group(1)) if p else 0
        f = re.search(r"(\d+) failed", s)
        e = re.search(r"(\d+) errors?", s)
        p = re.search(r"(\d+) passed", s)
        failed = (int(f.group(1)) if f else 0) + (int(e.group(1)) if e else 0)
        passed = int(p.group(1)) if p else 0
        return failed, passed
    # node --test: "# pass 10" / "# fail 2"
    p, f = re.search(r"^# pass (\d+)", output, re.M), re.search(r"^# fail (\d+)", output, re.M)
    if p and f:
        return int(f.group(1)), int(p.group(1))
    # minitest: "12 runs, 20 assertions, 1 failures, 0 errors, 0 skips"
    m = re.search(r"(\d+) runs, \d+ assertions, (\d+) failures, (\d+) errors", output)
    if m:
        runs, fl, er = map(int, m.groups())
        return fl + er, runs - fl - er
    # go test: top-level "--- FAIL: TestX" lines (passes are not listed without -v)
    fails = re.findall(r"^--- FAIL: ", output, re.M)
    if fails:
        return len(fails), None
    return failed, passed


# ---------------------------------------------------------------- checks

def check_task_toml(task_id, t):
    problems = []
    for key, typ in REQUIRED.items():
        if key not in t:
            problems.append(f"task.toml lacks {key}")
        elif not isinstance(t[key], typ):
            problems.append(f"task.toml {key} should be a {typ.__name__}")
    if problems:
        return problems
    if t["id"] != task_id:
        problems.append(f"id {t['id']!r} differs from the directory name")
    if t["language"] not in LANGUAGES:
        problems.append(f"language {t['language']!r} not one of {', '.join(LANGUAGES)}")
    elif not task_id.startswith(t["language"] + "-"):
        problems.append(f"id does not start with {t['language']}-")
    if t["origin"] not in ORIGINS:
        problems.append(f"origin {t['origin']!r} not real or synthetic")
    if t["origin"] == "synthetic" and t["source"] != "synthetic":
        problems.append('synthetic task whose source is not "synthetic"')
    if not isinstance(t.get("timeout_s"), int) or t["timeout_s"] <= 0:
        problems.append("timeout_s should be a positive integer")
    if not t["bug_files"]:
        problems.append("bug_files is empty")
    if not t["test_files"]:
        problems.append("test_files is empty")
    return problems


def check_patch(task_dir, t):
    problems = []
    try:
        touched = patch_files(task_dir)
    except RuntimeError as e:
        return [f"bug.patch unreadable: {e}"]
    if sorted(set(touched)) != sorted(set(t["bug_files"])):
        problems.append(f"bug_files {t['bug_files']} != files the patch touches {touched}")
    for f in touched:
        if f in t["test_files"] or TEST_NAME.search(f):
            problems.append(f"bug.patch touches test file {f}")
    for f in t["test_files"]:
        if not (task_dir / "repo" / f).is_file():
            problems.append(f"test file {f} missing from repo/")
    # Rust/inline test modules: the patch must change code above `#[cfg(test)]`.
    for f, lines in changed_old_lines(task_dir).items():
        src = task_dir / "repo" / f
        if not src.is_file() or not lines:
            continue
        text = src.read_text(errors="replace").splitlines()
        marker = next((i + 1 for i, l in enumerate(text) if l.strip() == "#[cfg(test)]"), None)
        if marker is not None and max(lines) >= marker:
            problems.append(f"bug.patch changes {f} inside its #[cfg(test)] module")
    return problems


def verify_task(task_id, keep=False):
    """Returns (ok, seconds, reason)."""
    task_dir = TASKS / task_id
    start = time.monotonic()
    try:
        t = load_task(task_dir)
    except (OSError, tomllib.TOMLDecodeError) as e:
        return False, 0.0, f"task.toml: {e}"
    problems = check_task_toml(task_id, t)
    if problems:
        return False, time.monotonic() - start, "; ".join(problems)
    if not (task_dir / "repo").is_dir() or not (task_dir / "bug.patch").is_file():
        return False, time.monotonic() - start, "repo/ or bug.patch missing"
    problems = check_patch(task_dir, t)
    if problems:
        return False, time.monotonic() - start, "; ".join(problems)

    tmp = Path(tempfile.mkdtemp(prefix=f"corpus-{task_id}-"))
    work = tmp / "repo"
    try:
        copy_repo(task_dir, work)
        code, out, _ = run_cmd(t["test_cmd"], work, t["timeout_s"])
        if code != 0:
            why = "timed out" if code is None else f"exit {code}"
            return False, time.monotonic() - start, \
                f"correct code does not pass ({why}): {tail(out)}"
        shutil.rmtree(work)
        copy_repo(task_dir, work)
        try:
            apply_patch(task_dir, work)
        except RuntimeError as e:
            return False, time.monotonic() - start, f"bug.patch does not apply: {e}"
        code, out, _ = run_cmd(t["test_cmd"], work, t["timeout_s"])
        secs = time.monotonic() - start
        if code is None:
            if t["mutation"] == "infinite-loop":
                return True, secs, "buggy: timed out (infinite-loop)"
            return False, secs, f"buggy code hangs (timeout {t['timeout_s']}s) but mutation is not infinite-loop"
        if code == 0:
            return False, secs, "buggy code passes the tests"
        failed, passed = count_results(out)
        counts = f"failed={failed if failed is not None else '?'} passed={passed if passed is not None else '?'}"
        if failed is not None and failed > 3:
            return False, secs, f"too many failing tests with the bug ({counts}; at most 3)"
        if passed is not None and passed < 1:
            return False, secs, f"no test still passes with the bug ({counts})"
        return True, secs, f"buggy: exit {code}, {counts}"
    finally:
        if keep:
            print(f"  kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def tail(out, n=300):
    s = " ".join(out.strip().splitlines()[-6:])
    return s[-n:]


# ---------------------------------------------------------------- subcommands

def cmd_list(a):
    for i in select(half=a.half, lang=a.lang):
        print(i)


def cmd_materialize(a):
    ids = select(a.ids, a.half, a.lang)
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    existing = [i for i in ids if (out / i).exists()]
    if existing and not a.force:
        sys.exit(f"{len(existing)} target(s) exist, e.g. {out / existing[0]} (use --force)")
    for i in ids:
        task_dir = TASKS / i
        t = load_task(task_dir)
        dest = out / i
        if dest.exists():
            shutil.rmtree(dest)
        copy_repo(task_dir, dest)
        apply_patch(task_dir, dest)
        git(["init", "-q", "-b", "main"], cwd=dest)
        git(["add", "-A"], cwd=dest)
        git(["commit", "-q", "-m", "initial"], cwd=dest)
        with open(out / f"{i}.task.json", "w") as f:
            json.dump(t, f, indent=2)
            f.write("\n")
        print(dest)


def cmd_verify(a):
    ids = select(a.ids, a.half, a.lang)
    if not ids:
        sys.exit("no tasks selected")
    failures = 0
    width = max(len(i) for i in ids)
    for i in ids:
        ok, secs, reason = verify_task(i, keep=a.keep)
        failures += not ok
        print(f"{i:<{width}}  {'ok' if ok else 'FAIL':<4}  {secs:6.1f}s  {reason}", flush=True)
    print(f"{len(ids) - failures} ok, {failures} failed")
    sys.exit(1 if failures else 0)


def cmd_split(a):
    if CORPUS != DEFAULT_CORPUS:
        sys.exit(f"split is only for {rel(DEFAULT_CORPUS)}; {rel(CORPUS)} has no halves")
    if SPLIT.exists() and not a.force:
        sys.exit(f"{rel(SPLIT)} exists (use --force to overwrite)")
    by_lang = {}
    for i in all_task_ids():
        by_lang.setdefault(load_task(TASKS / i)["language"], []).append(i)
    dev, heldout = [], []
    for lang in sorted(by_lang):
        ids = sorted(by_lang[lang])
        random.Random(a.seed).shuffle(ids)
        half = len(ids) // 2          # the odd one goes to heldout
        dev += ids[:half]
        heldout += ids[half:]
    with open(SPLIT, "w") as f:
        json.dump({"seed": a.seed, "dev": sorted(dev), "heldout": sorted(heldout)}, f, indent=2)
        f.write("\n")
    print(f"wrote {rel(SPLIT)}: {len(dev)} dev, {len(heldout)} heldout")


def cmd_stats(a):
    tasks = [load_task(TASKS / i) for i in all_task_ids()]
    print(f"{len(tasks)} tasks")
    for key in ("language", "origin", "mutation", "license"):
        counts = {}
        for t in tasks:
            counts[t.get(key, "?")] = counts.get(t.get(key, "?"), 0) + 1
        print(f"\nby {key}:")
        for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {n:4d}  {k}")
    print("\nby language and origin:")
    langs = sorted({t["language"] for t in tasks})
    for lang in langs:
        real = sum(t["language"] == lang and t["origin"] == "real" for t in tasks)
        synth = sum(t["language"] == lang and t["origin"] == "synthetic" for t in tasks)
        print(f"  {lang:<12} real {real:3d}  synthetic {synth:3d}")
    if SPLIT.is_file():
        split = load_split()
        print(f"\nsplit (seed {split['seed']}): {len(split['dev'])} dev, {len(split['heldout'])} heldout")
    if a.sources:
        print("\n| id | origin | mutation | license | source |")
        print("|---|---|---|---|---|")
        for t in tasks:
            print(f"| {t['id']} | {t['origin']} | {t['mutation']} | {t['license']} | {t['source']} |")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", metavar="DIR", default=None,
                   help="the task directory to work on (default: bench/corpus), e.g. bench/tuning")
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("list", help="print task ids")
    s.add_argument("--half", default="all", choices=("dev", "heldout", "all"))
    s.add_argument("--lang")
    s.set_defaults(func=cmd_list)

    s = sub.add_parser("materialize", help="make buggy git repositories of tasks")
    s.add_argument("--out", required=True)
    s.add_argument("--half", default="all", choices=("dev", "heldout", "all"))
    s.add_argument("--lang")
    s.add_argument("--force", action="store_true")
    s.add_argument("ids", nargs="*")
    s.set_defaults(func=cmd_materialize)

    s = sub.add_parser("verify", help="check that each task passes, and fails with its bug")
    s.add_argument("--half", default="all", choices=("dev", "heldout", "all"))
    s.add_argument("--lang")
    s.add_argument("--keep", action="store_true", help="keep the temporary directories")
    s.add_argument("ids", nargs="*")
    s.set_defaults(func=cmd_verify)

    s = sub.add_parser("split", help="write bench/corpus/split.json (dev / heldout)")
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--force", action="store_true")
    s.set_defaults(func=cmd_split)

    s = sub.add_parser("stats", help="counts per language, origin, mutation, license")
    s.add_argument("--sources", action="store_true", help="also a provenance table (markdown)")
    s.set_defaults(func=cmd_stats)

    for sp in sub.choices.values():           # also accepted after the subcommand
        sp.add_argument("--corpus", metavar="DIR", default=argparse.SUPPRESS,
                        help="the task directory to work on (default: bench/corpus)")
    a = p.parse_args(argv)
    if a.corpus is not None:
        set_corpus(a.corpus)
    a.func(a)


if __name__ == "__main__":
    main()

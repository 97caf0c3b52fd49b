#!/usr/bin/env python3
"""slopguard and aider side by side on the bug-fix corpus (bench/corpus), same model endpoint,
same wall-clock limit per task; one markdown table per model x half (stdlib only, Python 3.11+).

    scripts/bench/side-by-side.py [--systems slopguard,aider] [--half dev|heldout|all]
        [--lang L] [--ids ID ...] [--reps 1] [--model 0.5b|1.5b] [--limit 420] [--out DIR]
    scripts/bench/side-by-side.py --report OUT [OUT ...]    # re-print the table(s) only

Per task x rep x system: materialize a fresh buggy repository (scripts/bench/corpus.py
materialize: one commit "initial"), wait until the model server is idle (a one-token request
queued behind whatever a killed run left on it; the wait is `server_wait_s`), run the system
in its own process group under --limit seconds (the group is killed at the limit; whatever it
committed by then is judged), then judge the result the same way for both systems: in a fresh
copy of the result's tree, test_cmd with the task's timeout_s; solved = exit 0 and no test
file changed against "initial".

  slopguard  `slopguard run <repo> --format json` as a user runs it (planner, defaults); the env
             of scripts/live-bench.sh (SLOPGUARD_LLM_URL, SLOPGUARD_LLM_MODEL,
             SLOPGUARD_LLM_TIMEOUT=600, SLOPGUARD_LLM_RETRIES=0,
             SLOPGUARD_WORKER_MAX_TOKENS=1536 unless set) and SLOPGUARD_DB=sqlite://OUT/store-<model>-rep<N>.db
             (a store per repetition, as live-bench keeps one per output). Result: the run's
             branch (the summary's `branch`, else the state file's, else refs/heads/slopguard/*).
             Tokens: the summary's usage (else the state file's, when it was killed).
  aider      aider's test-fixing mode (--auto-test --test-cmd, --edit-format whole, auto-commits),
             every non-test source file in the chat, the test files --read, and a message with the
             failing test output (test_cmd on "initial": its last 60 lines, or
             40 from the first failure and the last 20). Result: HEAD. Tokens:
             the sum of its "Tokens: X sent, Y received" lines. Installed by
             scripts/bench/aider-setup.sh (into .venv-aider/) unless --aider is given.

The model: --url, else SLOPGUARD_LLM_URL, else http://127.0.0.1:${LLM_PORT:-8080}/v1; when
nothing answers there, LLM_MODEL=<--model> scripts/llm-setup.sh starts the server (left
running). Both systems get the same URL and the served model name.

The slopguard binary: --slopguard-bin, else SLOPGUARD_BIN, else target/debug/slopguard (not
built here); it is copied to OUT/bin/ first so a rebuild cannot change it during the bench.

OUT (default target/side-by-side/<UTC time>) gets results.jsonl (one line per run; a run
already there is skipped when the same OUT is given again), table.md, baseline/<id>.json, and
runs/<model>/<system>/rep<N>/ with each materialized repository and its logs.
"""
import argparse
import contextlib
import importlib.util
import io
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("slopguard", "aider")
MODELS = {"0.5b": "qwen2.5-coder-0.5b-instruct", "1.5b": "qwen2.5-coder-1.5b-instruct"}
# Defaults scripts/live-bench.sh sets for a small local model (unless given).
SLOPGUARD_ENV_DEFAULTS = {
    "SLOPGUARD_LLM_TIMEOUT": "600",
    "SLOPGUARD_LLM_RETRIES": "0",
    "SLOPGUARD_WORKER_MAX_TOKENS": "1536",
}
SOURCE_EXT = {".py", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts", ".go", ".rs",
              ".rb", ".java", ".kt", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".php", ".swift",
              ".scala", ".sh"}
TEST_OUTPUT_LINES = 60
GIT_ID = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
          "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid"}


def log(msg):
    print(f"side-by-side: {msg}", file=sys.stderr, flush=True)


def load_corpus_module(corpus_dir):
    """scripts/bench/corpus.py as a module (its task loading, materialize and test runner), its
    corpus directory pointed at corpus_dir when given (e.g. toy tasks elsewhere)."""
    spec = importlib.util.spec_from_file_location("corpus", ROOT / "scripts/bench/corpus.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    if corpus_dir:
        mod.set_corpus(corpus_dir)
    return mod


# ---------------------------------------------------------------- processes

def run_group(cmd, cwd, env, limit, stdout_path, stderr_path, stdin_text=None):
    """Runs cmd in its own process group with stdout/stderr to files; kills the group at limit
    seconds (TERM, then KILL 10 s later). Returns (exit code, timed out, seconds)."""
    start = time.monotonic()
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        timed_out = False
        try:
            code = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            timed_out = True
            killpg(proc.pid, signal.SIGTERM)
            try:
                code = proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                killpg(proc.pid, signal.SIGKILL)
                code = proc.wait()
    secs = time.monotonic() - start
    killpg(proc.pid, signal.SIGKILL)  # anything left behind in its group
    return code, timed_out, secs


def killpg(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def git(repo, *args, check=True):
    r = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def rev(repo, ref):
    r = subprocess.run(["git", "-C", str(repo), "rev-parse", "-q", "--verify", f"{ref}^{{commit}}"],
                       capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else ""


def tree_copy(repo, commit, dest):
    """The commit's tree (tracked files only) in dest."""
    dest.mkdir(parents=True)
    arch = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", commit],
                          capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=arch.stdout, check=True)


# ---------------------------------------------------------------- tests

def failing_ids(output):
    """Names of failing tests in common runners' output (empty when none can be read)."""
    pats = [
        r"^FAILED (\S+)",                         # pytest short summary
        r"^ERROR (\S+::\S+)",                     # pytest errors in a test
        r"^\s*--- FAIL: (\S+)",                   # go test
        r"^not ok \d+ - (.+?)\s*(?:#.*)?$",       # TAP (node --test when not a TTY)
        r"^\s*✖ (.+?)(?: \([\d.]+m?s\))?$",       # node --test spec reporter
        r"^test (\S+) \.\.\. FAILED",             # cargo test
        r"^\s*✕ (.+?)(?: \(\d+ m?s\))?$",         # jest / vitest
        r"^rspec (\./\S+)",                       # rspec
        r"^\s*(?:Failure|Error):\s*\n?\s*(\w+#\w+)",  # minitest
    ]
    ids = set()
    for p in pats:
        ids.update(m.strip() for m in re.findall(p, output, re.M))
    # node's spec reporter repeats failures under "failing tests:"; TAP nests subtests.
    return sorted(i for i in ids if i and not i.startswith("failing tests"))


def run_tests(corpus, task, tree):
    code, out, secs = corpus.run_cmd(task["test_cmd"], tree, task["timeout_s"])
    failed, passed = corpus.count_results(out)
    return {"exit": code, "seconds": round(secs, 1), "failed": failed, "passed": passed,
            "failing": failing_ids(out), "output": out}


def tail_lines(text, n):
    return "\n".join(text.rstrip().splitlines()[-n:])


# ---------------------------------------------------------------- the model

def http_json(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read().decode())


def served_models(url):
    try:
        d = http_json(url.rstrip("/") + "/models")
    except Exception:
        return None
    return d.get("data") or [{"id": m.get("name") or m.get("model")} for m in d.get("models", [])]


def ensure_model(args):
    """(url with /v1, model name, context size). Starts scripts/llm-setup.sh if nothing answers."""
    url = args.url or os.environ.get("SLOPGUARD_LLM_URL") or \
        f"http://127.0.0.1:{os.environ.get('LLM_PORT', '8080')}/v1"
    url = url.rstrip("/")
    if not url.endswith("/v1"):
        url += "/v1"
    models = served_models(url)
    if models is None:
        log(f"no model server answers at {url}; starting LLM_MODEL={args.model} scripts/llm-setup.sh")
        env = dict(os.environ, LLM_MODEL=args.model)
        r = subprocess.run(["bash", str(ROOT / "scripts/llm-setup.sh")], env=env,
                           stdout=subprocess.PIPE, text=True)
        m = re.search(r"export SLOPGUARD_LLM_URL=(\S+)", r.stdout)
        if r.returncode != 0 or not m:
            sys.exit("side-by-side: llm-setup.sh did not start the model server")
        url = m.group(1).rstrip("/")
        models = served_models(url)
        if models is None:
            sys.exit(f"side-by-side: still no model server at {url}")
    ids = [m.get("id") for m in models if m.get("id")]
    want = os.environ.get("SLOPGUARD_LLM_MODEL") or MODELS[args.model]
    name = want if want in ids or not ids else ids[0]
    if name != MODELS[args.model]:
        log(f"note: the server at {url} serves {ids}, not {MODELS[args.model]} (--model {args.model}); using {name}")
    ctx = next((m.get("meta", {}).get("n_ctx") for m in models if m.get("id") == name), None)
    return url, name, int(ctx or os.environ.get("LLM_CTX", 4096))


def wait_for_idle_server(url, model, limit):
    """Seconds spent waiting until the model server has nothing left to do.

    A run the bench kills at its limit leaves its last request on the server: llama.cpp notices
    the closed connection only between batches, so a long prompt it was reading can hold the
    one slot for minutes, and the next task's first request would wait for it (up to 195 s at
    the start of a task with llama.cpp's default batch of 2048 tokens; BENCHMARKS.md). One one-token request queues behind
    whatever is left and returns when the server is free; every system starts its task on an
    idle server."""
    body = json.dumps({"model": model, "prompt": "\n", "max_tokens": 1, "temperature": 0}).encode()
    req = urllib.request.Request(url.rstrip("/") + "/completions", body,
                                 {"Content-Type": "application/json"})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=limit) as r:
            r.read()
    except Exception as e:  # a server that cannot answer now fails the task's own run visibly
        log(f"note: the idle check of the model server failed: {e}")
    return round(time.monotonic() - started, 1)


# ---------------------------------------------------------------- the systems

def system_env(model_url, model_name):
    env = dict(os.environ)
    # Same as corpus.py's test runner, so the systems' own test runs match the judge's.
    env.update({"PYTHONDONTWRITEBYTECODE": "1", "GOTOOLCHAIN": "local", "NO_COLOR": "1",
                "CI": "true"})
    env.setdefault("GOFLAGS", "-mod=mod")
    env.update({"SLOPGUARD_LLM_URL": model_url, "SLOPGUARD_LLM_MODEL": model_name})
    for k, v in GIT_ID.items():
        env.setdefault(k, v)
    return env


def exchanges_usage(repo):
    """The tokens of every model exchange the run recorded (its exchanges.jsonl): a run killed
    at the limit writes no summary, and its state file holds no usage until an attempt has
    ended (where both are there, they agree: session 31's 31 held-out runs)."""
    prompt = completion = 0
    for p in (repo / ".slopguard/runs").glob("*/exchanges.jsonl"):
        for line in p.read_text(errors="replace").splitlines():
            try:
                usage = json.loads(line).get("usage") or {}
            except json.JSONDecodeError:
                continue  # a line cut short by the kill
            prompt += int(usage.get("prompt_tokens", 0))
            completion += int(usage.get("completion_tokens", 0))
    return {"prompt": prompt, "completion": completion}


def run_slopguard(ctx, task, repo, logs):
    env = system_env(ctx["url"], ctx["model"])
    for k, v in SLOPGUARD_ENV_DEFAULTS.items():
        env.setdefault(k, v)
    env.setdefault("SLOPGUARD_DB", f"sqlite://{ctx['out']}/store-{ctx['model_key']}-rep{ctx['rep']}.db")
    cmd = [ctx["slopguard_bin"], "run", str(repo), "--format", "json"]
    code, timed_out, secs = run_group(cmd, repo, env, ctx["limit"],
                                      logs / "stdout.txt", logs / "stderr.txt")
    summary = load_json(logs / "stdout.txt") or {}
    state = {}
    for p in sorted((repo / ".slopguard/runs").glob("*/state.json")):
        st = load_json(p) or {}
        state = st.get("run", st)
    branch = summary.get("branch") or state.get("branch") or ""
    if not branch or not rev(repo, f"refs/heads/{branch}"):
        heads = git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/slopguard/",
                    check=False).split()
        branch = heads[-1] if heads else ""
    usage = summary.get("usage")
    if not usage:
        # A killed run's state file holds the usage of its ended attempts only (zeros while
        # the first one runs): the exchanges count every answer that came back.
        recorded, exchanged = state.get("usage") or {}, exchanges_usage(repo)
        usage = max(recorded, exchanged, key=lambda u: int(u.get("prompt", 0)) + int(u.get("completion", 0)))
    prompt, completion = int(usage.get("prompt", 0)), int(usage.get("completion", 0))
    status = summary.get("status") or ("killed" if timed_out else state.get("status", ""))
    result = rev(repo, f"refs/heads/{branch}") if branch else ""
    return {"exit_code": code, "timed_out": timed_out, "wall_s": round(secs, 1),
            "result_commit": result, "branch": branch, "status": status,
            "tokens": {"sent": prompt, "received": completion, "total": prompt + completion},
            "command": cmd}


def cleanup_slopguard(repo):
    """Removes the run's worktrees (left under the temp dir when the run was killed)."""
    out = git(repo, "worktree", "list", "--porcelain", check=False)
    main = str(Path(repo).resolve())
    for line in out.splitlines():
        if line.startswith("worktree "):
            wt = line[len("worktree "):]
            if Path(wt).resolve() != Path(main):
                git(repo, "worktree", "remove", "--force", wt, check=False)
                shutil.rmtree(wt, ignore_errors=True)
    git(repo, "worktree", "prune", check=False)


def aider_files(corpus, task, repo):
    """(source files for the chat, test files to --read), repo-relative."""
    tracked = git(repo, "ls-files", "-z").split("\0")
    tests = set(task["test_files"])
    srcs, reads = [], []
    for f in tracked:
        if not f:
            continue
        is_test = f in tests or corpus.TEST_NAME.search(f)
        if is_test:
            if f in tests or Path(f).suffix in SOURCE_EXT:
                reads.append(f)
        elif Path(f).suffix in SOURCE_EXT:
            srcs.append(f)
    return srcs, reads


FAILURE_LINE = re.compile(r"^\s*(not ok |FAILED |--- FAIL|✖ |✕ |E   |Failure:|thread '.*' panicked)")


def failure_excerpt(output, n=TEST_OUTPUT_LINES):
    """The last n lines of the test output; when the first failure is further up (node's TAP
    puts it above long subtest listings), 40 lines from it and the last 20."""
    lines = output.rstrip().splitlines()
    if len(lines) <= n:
        return "\n".join(lines)
    first = next((i for i, l in enumerate(lines) if FAILURE_LINE.match(l)), None)
    if first is None or first >= len(lines) - n:
        return "\n".join(lines[-n:])
    head = lines[first:first + 40]
    return "\n".join(head + ["..."] + lines[max(first + 40, len(lines) - 20):])


def aider_message(task, baseline):
    # A test's output may hold NUL bytes (Go prints raw bytes), which no argv can carry.
    out = failure_excerpt(baseline["output"]).replace("\x00", "\\0")
    return (f"The tests fail (`{task['test_cmd']}`). Fix the bug in the code so that they pass; "
            f"do not change the tests.\n\n```\n{out}\n```\n")


def aider_command(ctx, task, repo, baseline):
    srcs, reads = aider_files(ctx["corpus"], task, repo)
    cmd = [ctx["aider_bin"],
           "--model", f"openai/{ctx['model']}",
           "--openai-api-base", ctx["url"],
           "--openai-api-key", "none",
           "--model-metadata-file", str(ctx["aider_metadata"]),
           "--edit-format", "whole",
           "--test-cmd", task["test_cmd"], "--auto-test",
           "--auto-commits", "--yes-always", "--no-pretty", "--no-stream",
           "--no-check-update", "--analytics-disable", "--no-show-model-warnings",
           "--no-show-release-notes", "--no-gitignore", "--no-fancy-input"]
    for f in reads:
        cmd += ["--read", f]
    cmd += srcs
    cmd += ["--message", aider_message(task, baseline)]
    return cmd


TOKENS_RE = re.compile(r"Tokens: ([\d.,]+)(k?) sent(?:, [^\n]*?)?, ([\d.,]+)(k?) received")


def aider_tokens(text):
    def num(v, k):
        x = float(v.replace(",", ""))
        return int(round(x * 1000)) if k else int(x)
    sent = received = 0
    for m in TOKENS_RE.finditer(text):
        sent += num(m.group(1), m.group(2))
        received += num(m.group(3), m.group(4))
    return sent, received


def run_aider(ctx, task, repo, logs, baseline):
    env = system_env(ctx["url"], ctx["model"])
    env.update({"LITELLM_LOCAL_MODEL_COST_MAP": "True", "OPENAI_API_KEY": "none",
                "AIDER_ANALYTICS": "false", "AIDER_CHECK_UPDATE": "false"})
    cmd = aider_command(ctx, task, repo, baseline)
    code, timed_out, secs = run_group(cmd, repo, env, ctx["limit"],
                                      logs / "stdout.txt", logs / "stderr.txt")
    text = (logs / "stdout.txt").read_text(errors="replace") + \
        (logs / "stderr.txt").read_text(errors="replace")
    sent, received = aider_tokens(text)
    dirty = [l[3:] for l in git(repo, "status", "--porcelain", "--untracked-files=no",
                                check=False).splitlines() if l.strip()]
    return {"exit_code": code, "timed_out": timed_out, "wall_s": round(secs, 1),
            "result_commit": rev(repo, "HEAD"), "branch": git(repo, "branch", "--show-current",
                                                                check=False).strip(),
            "status": "killed" if timed_out else f"exit {code}",
            "uncommitted": dirty,
            "tokens": {"sent": sent, "received": received, "total": sent + received},
            "command": cmd}


# ---------------------------------------------------------------- judging

def looks_like_test(corpus, task, path):
    return path in task["test_files"] or bool(corpus.TEST_NAME.search(path))


def judge(ctx, task, repo, initial, run, baseline):
    corpus = ctx["corpus"]
    result = run["result_commit"] or initial
    changed = [l for l in git(repo, "diff", "--name-only", initial, result).splitlines() if l]
    tests_edited = sorted(f for f in changed if looks_like_test(corpus, task, f))
    outside = sorted(f for f in changed if f not in task["bug_files"])
    with tempfile.TemporaryDirectory(prefix=f"sbs-judge-{task['id']}-") as tmp:
        tree = Path(tmp) / "tree"
        tree_copy(repo, result, tree)
        after = run_tests(corpus, task, tree)
    (ctx["logs"] / "judge-tests.txt").write_text(after["output"])
    broke = sorted(set(after["failing"]) - set(baseline["failing"]))
    if not broke and after["exit"] != 0:
        fb, fa = baseline["failed"], after["failed"]
        if fb is not None and fa is not None and fa > fb:
            broke = [f"({fa - fb} more failing tests than before)"]
        elif baseline["passed"] and not after["passed"] and not after["failing"]:
            broke = ["(suite fails on tests that passed before)"]
    solved = after["exit"] == 0 and not tests_edited
    if solved:
        reason = ""
    elif not changed:
        reason = "timeout, no change" if run["timed_out"] else "no change"
    elif tests_edited and after["exit"] == 0:
        reason = "passes only with edited tests"
    elif after["exit"] is None:
        reason = "tests time out"
    else:
        reason = "tests still fail" + (" (killed at limit)" if run["timed_out"] else "")
    return {"solved": solved, "reason": reason, "changed_files": changed,
            "tests_edited": tests_edited, "outside_fix": outside, "broke_passing": broke,
            "test_exit": after["exit"], "tests_failed": after["failed"],
            "tests_passed": after["passed"], "failing_after": after["failing"]}


# ---------------------------------------------------------------- driver

def load_json(p):
    try:
        with open(p) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def materialize(corpus, task_id, out_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    for p in (out_dir / task_id, out_dir / f"{task_id}.task.json"):
        if p.is_dir():
            shutil.rmtree(p)
        elif p.exists():
            p.unlink()
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            corpus.main(["materialize", "--out", str(out_dir), task_id])
    except SystemExit as e:
        raise RuntimeError(f"materialize {task_id}: {e}") from None
    return out_dir / task_id


def baseline_for(ctx, task):
    """test_cmd on the buggy "initial" tree, once per task (cached in OUT/baseline/)."""
    path = ctx["out"] / "baseline" / f"{task['id']}.json"
    cached = load_json(path)
    if cached:
        return cached
    with tempfile.TemporaryDirectory(prefix=f"sbs-base-{task['id']}-") as tmp:
        repo = materialize(ctx["corpus"], task["id"], Path(tmp))
        base = run_tests(ctx["corpus"], task, repo)
    if base["exit"] == 0:
        log(f"warning: {task['id']}: test_cmd passes on the buggy tree")
    elif base["exit"] is None:
        # The bug loops forever: a hang is how the buggy tree fails, not a missing toolchain.
        log(f"{task['id']}: test_cmd timed out on the buggy tree after {base['seconds']} s "
            "(a hang counts as failing)")
    elif not base["failing"] and not base.get("failed"):
        # No test ran: every system would be judged on a task it cannot see fail (session 27's
        # fresh machine had no pytest; slopguard then planned a README).
        tail = "\n".join(base["output"].strip().splitlines()[-5:])
        sys.exit(f"side-by-side: {task['id']}: `{task['test_cmd']}` ran no test on the buggy "
                 f"tree (exit {base['exit']}); install its toolchain and start again:\n{tail}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(base, indent=1))
    return base


def ensure_toolchains(tasks):
    """The toolchains the selected tasks' test commands need, installed as
    scripts/live-bench.sh does: pytest from PyPI, Go and Ruby from Debian (as root). Rust and
    Node.js are on the machine. A toolchain that cannot be installed stops the bench later, at
    the first task whose tests it cannot run (baseline_for)."""
    programs = {t["test_cmd"].split()[0] for t in tasks}
    if any("pytest" in t["test_cmd"] for t in tasks) and subprocess.run(
            [sys.executable, "-c", "import pytest"], capture_output=True).returncode != 0:
        log("installing pytest (PyPI) for the Python tasks")
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "pytest"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    debian = {"go": "golang-go", "ruby": "ruby"}
    missing = [pkg for prog, pkg in debian.items()
               if prog in programs and shutil.which(prog) is None]
    if missing and os.geteuid() == 0:
        log(f"installing {' '.join(missing)} (Debian)")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], env=env, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "-qq", *missing], env=env,
                       stdout=subprocess.DEVNULL)


def prepare_binaries(args, out, systems):
    sg = aider = None
    if "slopguard" in systems:
        src = Path(args.slopguard_bin or os.environ.get("SLOPGUARD_BIN")
                   or ROOT / "target/debug/slopguard")
        if not src.is_file():
            sys.exit(f"side-by-side: no slopguard binary at {src} (cargo build -p slopguard-cli, "
                     "or --slopguard-bin)")
        dst = out / "bin" / "slopguard"
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.resolve() != dst.resolve():
            shutil.copy2(src, dst)
        sg = str(dst)
    if "aider" in systems:
        aider = args.aider
        if not aider:
            r = subprocess.run(["bash", str(ROOT / "scripts/bench/aider-setup.sh")],
                               stdout=subprocess.PIPE, text=True)
            if r.returncode != 0 or not r.stdout.strip():
                sys.exit("side-by-side: scripts/bench/aider-setup.sh failed")
            aider = r.stdout.strip().splitlines()[-1]
    return sg, aider


def version_of(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True"))
        return (r.stdout.strip() or r.stderr.strip()).splitlines()[-1]
    except Exception:
        return "?"


def bench(args):
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    bad = [s for s in systems if s not in SYSTEMS]
    if bad:
        sys.exit(f"side-by-side: unknown system(s) {bad}; known: {', '.join(SYSTEMS)}")
    corpus = load_corpus_module(args.corpus)
    try:
        ids = corpus.select(args.ids, args.half, args.lang)
    except SystemExit as e:
        sys.exit(f"side-by-side: {e}")
    if not ids:
        sys.exit("side-by-side: no tasks selected")
    out = Path(args.out or ROOT / "target/side-by-side" /
               datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")).resolve()
    out.mkdir(parents=True, exist_ok=True)
    ensure_toolchains([corpus.load_task(corpus.TASKS / i) for i in ids])
    sg_bin, aider_bin = prepare_binaries(args, out, systems)
    url, model, n_ctx = ensure_model(args)
    meta = out / "aider-model-metadata.json"
    # aider's documented way to describe a local model (context window, zero cost); it also keeps
    # aider from fetching litellm's price list.
    meta.write_text(json.dumps({f"openai/{model}": {
        "max_input_tokens": n_ctx, "max_tokens": n_ctx, "max_output_tokens": n_ctx,
        "input_cost_per_token": 0.0, "output_cost_per_token": 0.0,
        "litellm_provider": "openai", "mode": "chat"}}, indent=1))
    versions = {}
    if sg_bin:
        versions["slopguard"] = version_of([sg_bin, "--version"])
    if aider_bin:
        versions["aider"] = version_of([aider_bin, "--version"])
    log(f"{len(ids)} task(s) x {args.reps} rep(s) x {systems}; model {model} at {url} "
        f"(ctx {n_ctx}); limit {args.limit} s; out {out}")
    results_path = out / "results.jsonl"
    done = set()
    if results_path.exists():
        for line in results_path.read_text().splitlines():
            try:
                r = json.loads(line)
                done.add((r["model"], r["task"], r["system"], r["rep"]))
            except (ValueError, KeyError):
                pass
    model_key = next((k for k, v in MODELS.items() if v == model), model)
    for task_id in ids:
        task = corpus.load_task(corpus.TASKS / task_id)
        baseline = None
        for rep in range(1, args.reps + 1):
            for system in systems:
                if (model, task_id, system, rep) in done:
                    log(f"{task_id} rep{rep} {system}: already in results.jsonl, skipped")
                    continue
                if baseline is None:
                    baseline = baseline_for({"out": out, "corpus": corpus}, task)
                work = out / "runs" / model_key / system / f"rep{rep}"
                repo = materialize(corpus, task_id, work)
                logs = work / f"{task_id}.logs"
                shutil.rmtree(logs, ignore_errors=True)
                logs.mkdir(parents=True)
                initial = rev(repo, "HEAD")
                ctx = {"out": out, "corpus": corpus, "url": url, "model": model,
                       "model_key": model_key, "rep": rep, "limit": args.limit,
                       "slopguard_bin": sg_bin, "aider_bin": aider_bin, "aider_metadata": meta,
                       "logs": logs}
                waited = wait_for_idle_server(url, model, args.limit)
                if waited >= 2:
                    log(f"{task_id} rep{rep} {system}: waited {waited} s for the model server "
                        "to finish the last run's request")
                log(f"{task_id} rep{rep} {system}: running (limit {args.limit} s)")
                if system == "slopguard":
                    run = run_slopguard(ctx, task, repo, logs)
                else:
                    run = run_aider(ctx, task, repo, logs, baseline)
                verdict = judge(ctx, task, repo, initial, run, baseline)
                if system == "slopguard":
                    cleanup_slopguard(repo)
                rec = {"model": model, "model_key": model_key, "half": args.half,
                       "task": task_id, "language": task.get("language", "?"),
                       "system": system, "version": versions.get(system, "?"), "rep": rep,
                       "limit_s": args.limit, **verdict,
                       **{k: v for k, v in run.items() if k != "command"},
                       "bug_files": task["bug_files"], "initial_commit": initial,
                       "baseline_failing": baseline["failing"],
                       "logs": str(logs.relative_to(out)), "server_wait_s": waited,
                       "finished": datetime.now(timezone.utc).isoformat(timespec="seconds")}
                (logs / "command.json").write_text(json.dumps(run["command"], indent=1))
                with open(results_path, "a") as f:
                    f.write(json.dumps(rec) + "\n")
                log(f"{task_id} rep{rep} {system}: {'SOLVED' if rec['solved'] else rec['reason']} "
                    f"in {rec['wall_s']} s, {rec['tokens']['total']} tokens, changed {rec['changed_files']}")
    text = report([out])
    (out / "table.md").write_text(text)
    print(text)
    log(f"results in {results_path}, table in {out / 'table.md'}")


# ---------------------------------------------------------------- the table

def fmt_list(xs, n=3):
    xs = list(xs)
    if not xs:
        return "—"
    s = ", ".join(f"`{x}`" for x in xs[:n])
    return s + (f" +{len(xs) - n}" if len(xs) > n else "")


def report(outs):
    recs = []
    for o in outs:
        p = Path(o) / "results.jsonl"
        if not p.exists():
            log(f"{p}: missing")
            continue
        for line in p.read_text().splitlines():
            if line.strip():
                try:
                    recs.append(json.loads(line))
                except ValueError:
                    pass
    if not recs:
        return "no results\n"
    parts = []
    groups = {}
    for r in recs:
        groups.setdefault((r["model"], r["half"]), []).append(r)
    for (model, half), rs in sorted(groups.items()):
        systems = [s for s in SYSTEMS if any(r["system"] == s for r in rs)] + \
            sorted({r["system"] for r in rs} - set(SYSTEMS))
        langs = sorted({r["language"] for r in rs})
        tasks = sorted({r["task"] for r in rs})
        limits = sorted({r.get("limit_s") for r in rs})
        parts.append(f"### Model `{model}`, half `{half}`: {len(tasks)} task(s), "
                     f"limit {', '.join(str(l) for l in limits)} s per run\n")
        head = ["system", "solved"] + langs + ["median wall (solved)", "mean tokens",
                                               "edited a test", "touched files outside bug_files",
                                               "broke passing tests", "killed at limit"]
        rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for s in systems:
            sr = [r for r in rs if r["system"] == s]
            solved = [r for r in sr if r["solved"]]
            cells = [f"**{s}**", f"{len(solved)}/{len(sr)}"]
            for lang in langs:
                lr = [r for r in sr if r["language"] == lang]
                cells.append(f"{sum(r['solved'] for r in lr)}/{len(lr)}" if lr else "—")
            walls = [r["wall_s"] for r in solved]
            cells.append(f"{statistics.median(walls):.0f} s" if walls else "—")
            toks = [r["tokens"]["total"] for r in sr]
            cells.append(f"{statistics.mean(toks):,.0f}" if toks else "—")
            cells.append(str(sum(1 for r in sr if r["tests_edited"])))
            cells.append(str(sum(1 for r in sr if r["outside_fix"])))
            cells.append(str(sum(1 for r in sr if r["broke_passing"])))
            cells.append(str(sum(1 for r in sr if r["timed_out"])))
            rows.append("| " + " | ".join(cells) + " |")
        parts.append("\n".join(rows) + "\n")
        rows = ["| task | language | " + " | ".join(systems) + " |",
                "|---|---|" + "---|" * len(systems)]
        for t in tasks:
            tr = [r for r in rs if r["task"] == t]
            cells = [t, tr[0]["language"]]
            for s in systems:
                sr = sorted((r for r in tr if r["system"] == s), key=lambda r: r["rep"])
                cells.append(" / ".join(outcome(r) for r in sr) if sr else "—")
            rows.append("| " + " | ".join(cells) + " |")
        parts.append("\n".join(rows) + "\n")
    return "\n".join(parts)


def outcome(r):
    tok = r["tokens"]["total"]
    tok_s = f"{tok / 1000:.1f}k tok" if tok >= 1000 else f"{tok} tok"
    if r["solved"]:
        s = f"✅ {r['wall_s']:.0f} s, {tok_s}"
    else:
        s = f"❌ {r['reason']} ({r['wall_s']:.0f} s, {tok_s})"
    extra = []
    if r["tests_edited"]:
        extra.append("edited " + fmt_list(r["tests_edited"]))
    if r["outside_fix"]:
        extra.append("outside " + fmt_list(r["outside_fix"]))
    if r["broke_passing"]:
        extra.append("broke " + fmt_list(r["broke_passing"]))
    return s + ("; " + "; ".join(extra) if extra else "")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("--systems", default="slopguard,aider")
    p.add_argument("--half", default="all", choices=("dev", "heldout", "all"))
    p.add_argument("--lang")
    p.add_argument("--ids", nargs="*")
    p.add_argument("--reps", type=int, default=1)
    p.add_argument("--model", default=os.environ.get("LLM_MODEL", "0.5b"), choices=tuple(MODELS))
    p.add_argument("--limit", type=int, default=420, help="wall-clock seconds per run (420)")
    p.add_argument("--out", help="output directory (target/side-by-side/<UTC time>)")
    p.add_argument("--url", help="model endpoint with /v1 (SLOPGUARD_LLM_URL)")
    p.add_argument("--slopguard-bin", help="slopguard binary (SLOPGUARD_BIN, target/debug/slopguard)")
    p.add_argument("--aider", help="aider executable (default: scripts/bench/aider-setup.sh)")
    p.add_argument("--corpus", help="corpus directory with tasks/ (default bench/corpus)")
    p.add_argument("--report", nargs="+", metavar="OUT",
                   help="only print the table(s) from these OUT dirs' results.jsonl")
    a = p.parse_args(argv)
    if a.report:
        text = report(a.report)
        print(text)
        if len(a.report) == 1:
            (Path(a.report[0]) / "table.md").write_text(text)
        return
    bench(a)


if __name__ == "__main__":
    main()

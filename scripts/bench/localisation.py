#!/usr/bin/env python3
"""Where `slopguard run` looks first: is the seeded bug inside the functions it targets, and at
which rank (stdlib only, Python 3.11+).

For each task of a half (default: dev), a fresh buggy repository is materialized and
`slopguard run` starts on it as a user runs it (defaults) against a model endpoint that never
answers (started here); as soon as the run's trace holds its `worker.function_target` event
(the functions the worker asks the model about, most likely first; written before the first
model call) the run is stopped. The bug's lines are the lines bug.patch adds to the buggy
file (or, for a deletion, the line after it); the rank is the first target whose line range
holds one of them, "miss" when none does, "none" when the run named no function. The
trace's `worker.coverage` event says whether the tests' coverage was recorded. When no frame names
a statement, the statements offered alone (`worker.suspect_lines`, in the order the candidates
ask for them) are reported too, with the rank of the one holding the bug. For a bug that
replaces one line, the rank of its fix in the repair templates' queue
(`worker.templates.queued`: the fix that writes the original line back at the bug's line) is
reported last: "miss" when no queued template writes it; for a bug that deletes one line,
the rank of the insertion that puts it back there.

Deterministic apart from timing (a suite that outruns the limit is not covered); it measures
the localisation, not the fix.

    scripts/bench/localisation.py [--half dev|heldout|all] [--bin target/debug/slopguard]
        [--limit 90] [--dump DIR] [--corpus DIR] [ids ...]

`--corpus DIR` reads another directory of the corpus's layout (a tuning pool); one without
split.json has no halves, so there every task is measured unless ids are given (and --half
dev or heldout is refused).

`--dump DIR` writes each task's targets, statements and template queue to DIR/<task>.json.
"""

import argparse
import http.server
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from corpus import corpus_path, task_ids  # scripts/bench/corpus.py, beside this file

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "bench" / "corpus"


class Silent(http.server.BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint that lists one model and never answers a chat."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        body = json.dumps({"object": "list", "data": [{"id": "silent", "object": "model"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        time.sleep(3600)


def bug_lines(patch: str):
    """(path, set of 1-based lines of the buggy file the bug touches)."""
    path, lines, new_line = None, set(), 0
    for line in patch.splitlines():
        if line.startswith("+++ b/"):
            path = line[6:]
        elif line.startswith("---") or line.startswith("diff ") or line.startswith("index "):
            continue
        elif m := re.match(r"@@ -\d+(?:,\d+)? \+(\d+)", line):
            new_line = int(m.group(1))
        elif line.startswith("+"):
            lines.add(new_line)
            new_line += 1
        elif line.startswith("-"):
            lines.add(new_line)  # a deletion: the line now where it was
        else:
            new_line += 1
    return path, lines


def one_line_fix(patch: str):
    """The original line (stripped) when the bug replaces exactly one line, else None."""
    minus = [l[1:] for l in patch.splitlines() if l.startswith("-") and not l.startswith("---")]
    plus = [l[1:] for l in patch.splitlines() if l.startswith("+") and not l.startswith("+++")]
    return minus[0].strip() if len(minus) == 1 and len(plus) == 1 else None


def one_line_deletion(patch: str):
    """The deleted line (stripped) when the bug only deletes exactly one line, else None."""
    minus = [l[1:] for l in patch.splitlines() if l.startswith("-") and not l.startswith("---")]
    plus = [l[1:] for l in patch.splitlines() if l.startswith("+") and not l.startswith("+++")]
    return minus[0].strip() if len(minus) == 1 and not plus else None


def trace_event(repo: Path, name: str):
    for trace in sorted(repo.glob(".slopguard/runs/*/trace.jsonl")):
        for line in trace.read_text(errors="replace").splitlines():
            if f'"event":"{name}"' in line:
                return json.loads(line)["data"]
    return None


def start_run(binary: Path, repo: Path, url: str):
    """`slopguard run` on `repo` as a user runs it, against the model endpoint `url`, in its
    own process group (its store beside the repository)."""
    env = dict(os.environ, SLOPGUARD_LLM_URL=url, SLOPGUARD_LLM_MODEL="silent",
               SLOPGUARD_DB=f"sqlite://{repo.parent / (repo.name + '.db')}")
    return subprocess.Popen([str(binary), "run", str(repo)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def stop_run(proc):
    """Stops a run `start_run` started, with its children, unless it ended."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()


def run_one(binary: Path, repo: Path, url: str, limit: float):
    proc = start_run(binary, repo, url)
    start = time.time()
    targets = None
    while time.time() - start < limit and proc.poll() is None:
        targets = trace_event(repo, "worker.function_target")
        if targets is not None:
            break
        time.sleep(0.5)
    coverage = trace_event(repo, "worker.coverage")
    # The statements offered alone are written just after the targets (or a frame's line),
    # and the templates' queue just after them.
    suspects, queued, waited = None, None, time.time()
    while targets is not None and time.time() - waited < 5 and proc.poll() is None:
        suspects = trace_event(repo, "worker.suspect_lines")
        queued = trace_event(repo, "worker.templates.queued")
        if queued is not None:
            break
        time.sleep(0.2)
    stop_run(proc)
    return targets, coverage, suspects, queued, time.time() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", default=None, choices=["dev", "heldout", "all"],
                    help="half of split.json (default: dev; all tasks where there is no split.json)")
    ap.add_argument("--bin", default=str(ROOT / "target" / "debug" / "slopguard"))
    ap.add_argument("--limit", type=float, default=90)
    ap.add_argument("--dump", type=Path)
    ap.add_argument("--corpus", type=corpus_path, default=CORPUS)
    ap.add_argument("ids", nargs="*")
    args = ap.parse_args()
    ids = args.ids or task_ids(args.corpus, args.half)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Silent)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    ranks, statement_ranks, queue_ranks, deletion_ranks = {}, {}, {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "bench" / "corpus.py"),
                        "--corpus", str(args.corpus), "materialize", "--out", tmp, *ids], check=True, stdout=subprocess.DEVNULL)
        print("| task | bug at | targets (most likely first) | rank | statements offered alone | bug's statement | coverage | fix in the template queue |")
        print("|---|---|---|---|---|---|---|---|")
        for task in ids:
            patch = (args.corpus / "tasks" / task / "bug.patch").read_text()
            path, lines = bug_lines(patch)
            targets, coverage, suspects, queued, took = run_one(Path(args.bin), Path(tmp) / task, url, args.limit)
            original = one_line_fix(patch)
            if args.dump:
                args.dump.mkdir(parents=True, exist_ok=True)
                (args.dump / f"{task}.json").write_text(json.dumps(
                    {"bug": {"path": path, "lines": sorted(lines), "original": original},
                     "targets": targets, "suspects": suspects, "queued": queued}))
            qrank = "-"
            if original is not None:
                qrank = "miss"
                for i, f in enumerate((queued or {}).get("fixes", []), 1):
                    if f["path"] == path and f["line"] in lines and f["after"] == original:
                        qrank = f"{i} ({f['operator']})"
                        break
            queue_ranks[task] = qrank
            deleted = one_line_deletion(patch)
            if deleted is not None:
                # The fix inserts the deleted line back where it was.
                qrank = "miss"
                for i, f in enumerate((queued or {}).get("fixes", []), 1):
                    if f["path"] == path and f["line"] in lines and f["after"] == deleted \
                            and f["operator"] == "inserted-statement":
                        qrank = f"{i} ({f['operator']})"
                        break
                deletion_ranks[task] = qrank
            functions = (targets or {}).get("functions", [])
            rank = "none" if not functions else "miss"
            for i, f in enumerate(functions, 1):
                lo, hi = f["lines"]
                if f["path"] == path and any(lo <= l <= hi for l in lines):
                    rank = str(i)
                    break
            ranks[task] = rank
            offered = (suspects or {}).get("lines", [])
            srank = "-" if not offered else "miss"
            for i, (lo, hi) in enumerate(offered, 1):
                if (suspects or {}).get("path") == path and any(lo <= l <= hi for l in lines):
                    srank = str(i)
                    break
            statement_ranks[task] = srank
            names = ", ".join(f["name"] for f in functions)
            cov = f'{coverage["tests"]} tests' if coverage else "no"
            lines_offered = ", ".join(str(lo) for lo, _ in offered) or "-"
            print(f"| {task} | {path}:{min(lines) if lines else '?'} | {names} | {rank} | {lines_offered} | {srank} | {cov} | {qrank} |",
                  flush=True)
    server.shutdown()
    first = sum(1 for r in ranks.values() if r == "1")
    top3 = sum(1 for r in ranks.values() if r in ("1", "2", "3"))
    print(f"\nbug in the first target: {first} of {len(ranks)}; in the targets: {top3} of {len(ranks)}")
    with_suspects = [r for r in statement_ranks.values() if r != "-"]
    print(f"statements offered alone in {len(with_suspects)} tasks: the bug's first in "
          f"{sum(r == '1' for r in with_suspects)}, among them in {sum(r != 'miss' for r in with_suspects)}")
    one_line = [r for r in queue_ranks.values() if r != "-"]
    queued_at = sorted(int(r.split()[0]) for r in one_line if r != "miss")
    print(f"one-line bugs: {len(one_line)}; their fix in the template queue in {len(queued_at)}, "
          f"positions {queued_at}")
    inserted_at = sorted(int(r.split()[0]) for r in deletion_ranks.values() if r != "miss")
    print(f"one-line deletions: {len(deletion_ranks)}; the line inserted back in the template queue "
          f"in {len(inserted_at)}, positions {inserted_at}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""How fast `slopguard run` judges its repair templates, without a model (stdlib only, Python
3.11+).

For each task (default: a sample of the development half, two per language), a fresh buggy
repository is materialized and `slopguard run` starts on it as a user runs it (defaults)
against a model endpoint that never answers (`localisation.py`'s), so that only the repair
templates are judged; the run is stopped when the trace holds the phase's `worker.templates`
event (a template won, or the queue or the phase's time ran out). Per task: templates judged,
how long the phase took, the time per template, and the winner. Several binaries are run one
after the other on each task, so that the machine's load changes alike for all.

    scripts/bench/template-speed.py --bin A [--bin B ...] [--limit 240] [--dump DIR]
        [--corpus DIR] [ids ...]

`--dump DIR` writes, for the first binary, each task's bug lines and judged templates
(`worker.template.judged`: where, which operator, the failing tests it fixed and the passing
ones it broke) and the statements offered alone (`worker.suspect_lines`, `worker.fault_line`)
to DIR/<task>.json, for studying where the templates' outcomes point. `--corpus DIR` takes the
tasks from another directory of the corpus's layout (default: every task there when no ids are
given), such as the tuning pool `bench/tuning`.

Timing figures: run it on a quiet machine, twice, and compare medians, not single tasks.
"""

import argparse
import http.server
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from localisation import ROOT, Silent, bug_lines, start_run, stop_run, trace_event  # noqa: E402

SAMPLE = [
    "go-semver-compare", "go-lru-cache",
    "javascript-lru-cache-recency", "javascript-dotenv-parse-trim",
    "python-toolz-dissoc", "python-humanize-metric",
    "ruby-money-allocate", "ruby-ini-config-parse",
    "rust-rle-codec", "rust-roman-numerals",
]


def judged_templates(repo: Path):
    """Every `worker.template.judged` event's data of the run's trace."""
    out = []
    for trace in sorted(repo.glob(".slopguard/runs/*/trace.jsonl")):
        for line in trace.read_text(errors="replace").splitlines():
            if '"event":"worker.template.judged"' in line:
                out.append(json.loads(line)["data"])
    return out


def run_one(binary: Path, repo: Path, url: str, limit: float):
    """The first `worker.templates` event's data, the seconds to it (None and the limit when
    it did not come) and the templates judged."""
    proc = start_run(binary, repo, url)
    start = time.time()
    phase = None
    while time.time() - start < limit and proc.poll() is None:
        phase = trace_event(repo, "worker.templates")
        if phase is not None:
            break
        time.sleep(0.2)
    took = time.time() - start
    stop_run(proc)
    offered = {e: trace_event(repo, e) for e in ("worker.suspect_lines", "worker.fault_line")}
    return phase, took, judged_templates(repo), offered


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", action="append", required=True)
    ap.add_argument("--limit", type=float, default=240)
    ap.add_argument("--dump", type=Path)
    ap.add_argument("--corpus", type=Path, default=ROOT / "bench" / "corpus")
    ap.add_argument("ids", nargs="*")
    args = ap.parse_args()
    corpus = args.corpus.resolve()
    default = SAMPLE if corpus == ROOT / "bench" / "corpus" else sorted(
        p.name for p in (corpus / "tasks").iterdir() if (p / "task.toml").is_file())
    ids = args.ids or default
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Silent)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    per_template = {b: [] for b in args.bin}
    print("| task | binary | judged | phase (s) | s per template | won |")
    print("|---|---|---|---|---|---|")
    for task in ids:
        for b in args.bin:
            with tempfile.TemporaryDirectory() as tmp:
                subprocess.run([sys.executable, str(ROOT / "scripts" / "bench" / "corpus.py"),
                                "--corpus", str(corpus), "materialize", "--out", tmp, task],
                               check=True, stdout=subprocess.DEVNULL)
                phase, took, judged, offered = run_one(Path(b), Path(tmp) / task, url, args.limit)
            if args.dump and b == args.bin[0]:
                patch = (corpus / "tasks" / task / "bug.patch").read_text()
                path, lines = bug_lines(patch)
                args.dump.mkdir(parents=True, exist_ok=True)
                (args.dump / f"{task}.json").write_text(json.dumps(
                    {"bug": {"path": path, "lines": sorted(lines)}, "judged": judged, **offered}))
            if phase is None:
                print(f"| {task} | {b} | - | > {took:.0f} | - | - |", flush=True)
                continue
            judged, secs = phase["evaluated"], phase["ms"] / 1000
            each = secs / judged if judged else float("nan")
            if judged:
                per_template[b].append(each)
            print(f"| {task} | {b} | {judged} | {secs:.1f} | {each:.2f} | {phase['landed'] or '-'} |",
                  flush=True)
    server.shutdown()
    print()
    for b, xs in per_template.items():
        if xs:
            print(f"{b}: median {statistics.median(xs):.2f} s per template over {len(xs)} tasks, "
                  f"sum of per-task means {sum(xs):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

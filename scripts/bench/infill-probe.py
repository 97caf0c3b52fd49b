#!/usr/bin/env python3
"""Does the failing test's message help the model fill in a buggy statement?

For every one-line bug of the corpus's development half (the changed line is given, so
localisation is perfect), asks a fill-in-the-middle prompt in two variants and runs each
distinct answer against the task's tests:

  plain    the lines of the failing test around the line the output names (as another file),
           then the code around the hole (40 lines before, 20 after);
  message  the same, with the failure's message (the runner's assertion, expected and actual
           lines) under the test as comments, as `worker::infill::test_with_failure` writes it.

Six answers per variant at temperatures 0.2, 0.8, 1.0 x4 (Qwen2.5-Coder's FIM tokens, `POST
/v1/completions`), the same seeds in both variants. Prints one markdown table: per task the
passing distinct answers of each variant, then the tasks solved by each.

    python3 scripts/bench/corpus.py materialize --out DIR --half dev
    python3 scripts/bench/infill-probe.py DIR http://127.0.0.1:8080/v1 [task-id ...]

The message extraction is a port of `slopguard_worker::context::failure_message` (kept small;
the Rust one is what the agent uses). Standard library only.
"""
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

TEMPS = [0.2, 0.8, 1.0, 1.0, 1.0, 1.0]
BEFORE, AFTER = 40, 20
STOPS = ["<|endoftext|>", "<|file_sep|>", "<|fim_pad|>", "\n"]


def one_line_bug(patch):
    """(path, 1-based line in the buggy file, original line, buggy line) or None."""
    path = re.search(r"^\+\+\+ b/(.+)$", patch, re.M).group(1)
    hunks = re.findall(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@.*\n((?:[ +\-\\].*\n?)*)", patch, re.M)
    if len(hunks) != 1:
        return None
    start, body = int(hunks[0][0]), hunks[0][1]
    minus = [l[1:] for l in body.splitlines() if l.startswith("-")]
    plus = [l for l in body.splitlines() if l.startswith("+")]
    if len(minus) != 1 or len(plus) != 1:
        return None
    line = start
    for l in body.splitlines():
        if l.startswith("+"):
            return path, line, minus[0], l[1:]
        if l.startswith(" "):
            line += 1
    return None


def failure_message(output, max_lines=6):
    out, panic_left, diff_left = [], 0, 0
    for line in output.splitlines():
        t = line.strip()
        kept = None
        if t == "--- expected":
            diff_left = 4
        elif diff_left:
            diff_left -= 1
            if (t.startswith("-") and not t.startswith("---")) or (t.startswith("+") and not t.startswith("+++")):
                kept = t
        elif panic_left:
            if (not t or t.startswith(("stack backtrace", "note:", "at ", "----", "failures:"))
                    or re.match(r"^\d+: ", t)):
                panic_left = 0
            else:
                panic_left -= 1
                kept = t
        elif "panicked at " in t:
            rest = t.split("panicked at ", 1)[1]
            if rest.startswith("'") and "', " in rest:
                kept = rest[1:].rsplit("', ", 1)[0]
            else:
                panic_left = 3
        elif t.startswith("E "):
            kept = t[2:]
        elif re.match(r"^\s+[\w.-]+_test\.go:\d+: (.+)$", line):
            kept = re.match(r"^\s+[\w.-]+_test\.go:\d+: (.+)$", line).group(1)
        elif (t.lower().startswith(("expected:", "actual:", "received:")) or t.startswith("error: '")) \
                and t.split(":", 1)[1].strip():
            kept = t
        elif re.match(r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Failure)(?: \[\w+\])?: \S", t):
            kept = t
        if kept and kept.strip():
            k = kept.strip()
            k = k if len(k) <= 160 else k[:160] + "..."
            if k not in out:
                out.append(k)
        if len(out) == max_lines:
            break
    return out


def run_tests(repo, cmd, timeout):
    try:
        p = subprocess.run(cmd, shell=True, cwd=repo, capture_output=True, text=True, timeout=timeout)
        return p.returncode == 0, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return False, "timed out"


def test_excerpt(repo, test_files, output):
    """(path, lines) of the failing test near the first test-file line the output names."""
    for tf in test_files:
        base = os.path.basename(tf)
        m = re.search(re.escape(base) + r":(\d+)", output)
        if m:
            lines = open(os.path.join(repo, tf), encoding="utf-8").read().splitlines()
            at = int(m.group(1))
            return tf, "\n".join(lines[max(0, at - 30):at + 10])
    tf = test_files[0]
    return tf, "\n".join(open(os.path.join(repo, tf), encoding="utf-8").read().splitlines()[:40])


def ask(url, prompt, temperature, seed):
    body = json.dumps({"prompt": prompt, "temperature": temperature, "seed": seed,
                       "max_tokens": 80, "stop": STOPS}).encode()
    req = urllib.request.Request(url + "/completions", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.load(r)["choices"][0]["text"]


def main():
    root, url = sys.argv[1], sys.argv[2].rstrip("/")
    only = set(sys.argv[3:])
    rows, solved = [], {"plain": 0, "message": 0}
    for name in sorted(os.listdir(root)):
        if not name.endswith(".task.json"):
            continue
        task = json.load(open(os.path.join(root, name)))
        tid = task["id"]
        if only and tid not in only:
            continue
        repo = os.path.join(root, tid)
        patch = open(os.path.join(os.path.dirname(__file__), "../../bench/corpus/tasks", tid, "bug.patch")).read()
        bug = one_line_bug(patch)
        if not bug:
            continue
        path, line, original, buggy = bug
        ok, output = run_tests(repo, task["test_cmd"], task["timeout_s"])
        if ok:
            print(f"{tid}: tests pass on the buggy tree; skipped", file=sys.stderr)
            continue
        message = failure_message(output)
        tpath, tsrc = test_excerpt(repo, task["test_files"], output)
        comment = "#" if task["language"] in ("python", "ruby") else "//"
        text = open(os.path.join(repo, path), encoding="utf-8").read()
        lines = text.split("\n")
        assert lines[line - 1] == buggy, (tid, lines[line - 1], buggy)
        indent = buggy[: len(buggy) - len(buggy.lstrip())]
        prefix = "\n".join(lines[max(0, line - 1 - BEFORE):line - 1]) + "\n" + indent
        suffix = "\n" + "\n".join(lines[line:line + AFTER])
        result = {}
        for variant in ("plain", "message"):
            test = tsrc
            if variant == "message" and message:
                test = tsrc.rstrip() + f"\n{comment} When run, this test fails:\n" + "".join(
                    f"{comment}   {m}\n" for m in message)
            prompt = (f"<|file_sep|>{tpath}\n{test.rstrip()}\n<|file_sep|>{path}\n"
                      f"<|fim_prefix|>{prefix}<|fim_suffix|>{suffix}<|fim_middle|>")
            tried, passing, t0 = set(), 0, time.time()
            for i, temp in enumerate(TEMPS):
                middle = ask(url, prompt, temp, 1000 + i).rstrip()
                new = indent + middle.strip()
                if not middle.strip() or new.strip() == buggy.strip() or new in tried:
                    continue
                tried.add(new)
                changed = lines[:]
                changed[line - 1] = new
                with open(os.path.join(repo, path), "w", encoding="utf-8") as f:
                    f.write("\n".join(changed))
                ok, _ = run_tests(repo, task["test_cmd"], task["timeout_s"])
                passing += ok
            with open(os.path.join(repo, path), "w", encoding="utf-8") as f:
                f.write(text)
            result[variant] = (passing, len(tried), time.time() - t0)
            solved[variant] += passing > 0
        rows.append((tid, len(message), result))
        p, m = result["plain"], result["message"]
        print(f"{tid}: message lines {len(message)}; plain {p[0]}/{p[1]} ({p[2]:.0f} s); "
              f"message {m[0]}/{m[1]} ({m[2]:.0f} s)", file=sys.stderr, flush=True)
    print("| task | message lines | plain: passing / distinct | message: passing / distinct |")
    print("|---|---|---|---|")
    for tid, n, r in rows:
        print(f"| {tid} | {n} | {r['plain'][0]} / {r['plain'][1]} | {r['message'][0]} / {r['message'][1]} |")
    print(f"\nsolved (a passing answer): plain {solved['plain']}/{len(rows)}, "
          f"message {solved['message']}/{len(rows)}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Can the model fix the ladder's bugs at all, outside slopguard's worker?

Asks an OpenAI-compatible endpoint directly, in plain chat, for the fix of three rungs of
tests/ladder (rung-1 Go, rung-3 Python SQL, rung-4 JavaScript), with prompts that give more and
more help: the failing output and the code; the wrong line named; the cause said in words. Each
prompt is sampled N times (the first at temperature 0.1, the others at 0.8, seeds 1..N) and a
reply counts as a fix when it holds the fixed code (a regex per rung). Prints one markdown table.

    python3 scripts/bench/model-probe.py http://127.0.0.1:8081/v1 [N]

Used to tell a worker problem (the model fixes it in chat, not in the worker) from a model
limit (it does not fix it even in chat). Standard library only.
"""
import json
import re
import sys
import urllib.request

URL = sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:8080/v1"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 4

GO_DOC = (
    "// Count returns how often each lower-cased word occurs in text. Words are separated by any\n"
    "// run of whitespace (spaces, tabs, newlines).\n"
)
GO_FN = """func Count(text string) map[string]int {
\tcounts := make(map[string]int)
\tfor _, w := range strings.Split(text, " ") {
\t\tif w == "" {
\t\t\tcontinue
\t\t}
\t\tcounts[strings.ToLower(w)]++
\t}
\treturn counts
}"""
GO_FAIL = (
    "--- FAIL: TestCountMixedWhitespace\n"
    '    wordcount_test.go:28: Count("one two\\nthree\\tone\\n") = map[one:1 two\\nthree\\tone\\n:1], '
    "want map[one:2 three:1 two:1]"
)
GO_LOOP = 'for _, w := range strings.Split(text, " ") {'

SQL_LINE = "row = conn.execute(f\"SELECT id, name, email FROM users WHERE name = '{name}'\").fetchone()"
SQL_FAIL = (
    'E   sqlite3.OperationalError: near "brien": syntax error\n'
    "src/db.py:48: in find_user\n    " + SQL_LINE
)

JS_FN = """function slugify(title) {
  return String(title)
    .normalize('NFKD')
    .replace(/[\\u0300-\\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .replace(/^-+|-+$/g, '');
}"""
JS_FAIL = "'collapses punctuation and spaces into one dash'\nAssertionError: 'hello----world' !== 'hello-world'"
JS_LINE = ".replace(/[^a-z0-9]/g, '-')"

CASES = [
    # (rung, help given, prompt, what a fix contains)
    ("rung-1 Go", "failing output + function",
     f"This Go function has a bug. The test fails:\n{GO_FAIL}\n\n```go\n{GO_DOC}{GO_FN}\n```\n"
     "Write the fixed function in a ```go fence.", r"strings\.Fields"),
    ("rung-1 Go", "+ the wrong line named",
     f"The test fails:\n{GO_FAIL}\n\n```go\n{GO_DOC}{GO_FN}\n```\nThis line is wrong:\n`{GO_LOOP}`\n"
     "Write that line, fixed, in a ```go fence.", r"strings\.Fields"),
    ("rung-1 Go", "+ the cause in words",
     f"```go\n{GO_DOC}{GO_FN}\n```\nThe line `{GO_LOOP}` splits only on spaces, but the comment says "
     "words are separated by any whitespace (tabs, newlines too). Rewrite that one line correctly. "
     "Answer with the fixed line only.", r"strings\.Fields"),
    ("rung-3 SQL", "failing output + the wrong line named + the cause",
     f"The test fails:\n{SQL_FAIL}\n\nThis line is wrong (SQL injection, a quote in the name breaks "
     f"it):\n```python\n{SQL_LINE}\n```\nWrite the fixed line in a ```python fence.",
     r"name\s*=\s*\?['\"]\s*,\s*\(\s*name\s*,?\s*\)"),
    ("rung-4 JS", "failing output + function",
     f"The test fails:\n{JS_FAIL}\n\n```js\n{JS_FN}\n```\nWrite the fixed function in a ```js fence.",
     r"\[\^a-z0-9\]\+"),
    ("rung-4 JS", "+ the wrong line named + the cause",
     f"```js\n{JS_FN}\n```\nThe line `{JS_LINE}` turns every non-alphanumeric character into its own "
     "dash, so runs of spaces become several dashes. Rewrite that one line correctly. Answer with the "
     "fixed line only.", r"\[\^a-z0-9\]\+"),
]


def ask(prompt, temperature, seed):
    body = json.dumps({
        "model": "probe", "messages": [{"role": "user", "content": prompt}],
        "temperature": temperature, "seed": seed, "max_tokens": 400,
    }).encode()
    req = urllib.request.Request(URL + "/chat/completions", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.load(r)["choices"][0]["message"]["content"]


def main():
    print("| rung | help in the prompt | fixed | copied the code back unchanged |")
    print("|---|---|---|---|")
    for rung, helped, prompt, fixed in CASES:
        hits = copies = 0
        for seed in range(1, N + 1):
            reply = ask(prompt, 0.1 if seed == 1 else 0.8, seed)
            hits += bool(re.search(fixed, reply))
            copies += any(line in reply for line in (GO_LOOP, SQL_LINE, JS_LINE))
        print(f"| {rung} | {helped} | {hits}/{N} | {copies}/{N} |", flush=True)


if __name__ == "__main__":
    main()

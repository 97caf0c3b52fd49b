"""What the seeding scripts (seed-stubs.py, seed-stubs-braces.py, seed-exports.py) share: one
seeded case written into a clone, judged by `slopguard check` on its working tree, the file put
back, and the tally of blocked cases by guard.
"""
import json
import subprocess


def tracked(repo, *patterns):
    """The files git tracks in `repo` that match the pathspecs, sorted."""
    out = subprocess.run(["git", "-C", repo, "ls-files", *patterns], capture_output=True, text=True)
    return sorted(out.stdout.split())


def mentioned_elsewhere(repo, name, path, exts):
    """Whether a tracked file other than `path`, ending with one of `exts`, has the word `name`."""
    out = subprocess.run(["git", "-C", repo, "grep", "-lw", name], capture_output=True, text=True)
    return any(u != path and u.endswith(exts) for u in out.stdout.split())


class Tally:
    """Seeded cases of one run: how many, how many blocked, by which guard, the misses."""

    def __init__(self, repo, binary):
        self.repo, self.binary = repo, binary
        self.cases = self.blocked = 0
        self.by_guard = {}
        self.labels = {}
        self.missed = []

    def judge(self, path, seeded, label):
        """Writes `seeded` over `path` (relative to the clone), runs `slopguard check` on the
        working tree, restores the file and counts the verdict under `label`."""
        full = f"{self.repo}/{path}"
        with open(full) as f:
            original = f.read()
        with open(full, "w") as f:
            f.write(seeded)
        try:
            r = subprocess.run([self.binary, "check", "-C", self.repo, "--format", "json"],
                               capture_output=True, text=True)
        finally:
            with open(full, "w") as f:
                f.write(original)
        findings = json.loads(r.stdout)["findings"]
        guards = sorted({x["guard"] for x in findings if x["severity"] == "block"})
        self.cases += 1
        if guards:
            self.blocked += 1
            for g in guards:
                self.by_guard[g] = self.by_guard.get(g, 0) + 1
                self.labels.setdefault(g, []).append(label)
        else:
            self.missed.append(label)
        return guards

    def report(self, most_missed=10):
        """The tally as one JSON line; `rare` names the cases of each guard that blocked at
        most 5 of them (a seed that broke the file shows up there as `syntax`)."""
        rare = {g: v for g, v in self.labels.items() if len(v) <= 5}
        return json.dumps({"cases": self.cases, "blocked": self.blocked, "by_guard": self.by_guard,
                           "rare": rare, "missed": self.missed[:most_missed]})

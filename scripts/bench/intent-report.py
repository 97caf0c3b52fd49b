"""Compares two runs of scripts/bench/intent-calibration.sh: per repository the commits,
blocked with the message as the task and without a task, before -> after; per guard; and,
with --list, every commit still blocked in the after run with its findings; with --changes, every
(commit, guard) pair that blocks in one run and not in the other, with the blocking findings of
the run where it blocks, and the count of all findings (warnings too) per guard in each run.

usage: intent-report.py BEFORE_OUTDIR AFTER_OUTDIR [--list] [--changes] [--markdown]
"""
import json, os, sys

args = [a for a in sys.argv[1:] if not a.startswith('--')]
listing, markdown = '--list' in sys.argv, '--markdown' in sys.argv
changes = '--changes' in sys.argv
before, after = args


def load(d, mode, f):
    p = os.path.join(d, mode, f)
    try:
        return json.load(open(p))
    except Exception:
        return None


def blocked_by_guard(d):
    return {g: v['blocked_commits'] for g, v in d['guards'].items() if v['blocked_commits']}


rows, per_guard = [], {}
tot = [0, 0, 0, 0, 0]
for f in sorted(os.listdir(os.path.join(after, 'task'))):
    bt, at = load(before, 'task', f), load(after, 'task', f)
    bn, an = load(before, 'notask', f), load(after, 'notask', f)
    if not (bt and at):
        continue
    n = at['commits']
    vals = [n, bt['blocked_commits'], at['blocked_commits'],
            bn['blocked_commits'] if bn else 0, an['blocked_commits'] if an else 0]
    tot = [x + y for x, y in zip(tot, vals)]
    rows.append((f[:-5].replace('+', '/'), vals))
    gb, ga = blocked_by_guard(bt), blocked_by_guard(at)
    for g in set(gb) | set(ga):
        x = per_guard.setdefault(g, [0, 0])
        x[0] += gb.get(g, 0)
        x[1] += ga.get(g, 0)

pct = lambda x: f"{100 * x / max(tot[0], 1):.1f} %"
if markdown:
    print('| repo | commits | blocked before | blocked after | without a task before | without a task after |')
    print('|---|---:|---:|---:|---:|---:|')
    for name, v in rows:
        print(f'| {name} | {v[0]} | {v[1]} | {v[2]} | {v[3]} | {v[4]} |')
    print(f'| **all** | **{tot[0]:,}** | **{tot[1]} ({pct(tot[1])})** | **{tot[2]} ({pct(tot[2])})** '
          f'| **{tot[3]} ({pct(tot[3])})** | **{tot[4]} ({pct(tot[4])})** |')
    print()
    print('| guard | before | after |')
    print('|---|---:|---:|')
    for g, (x, y) in sorted(per_guard.items(), key=lambda kv: (-kv[1][0], kv[0])):
        print(f'| {g} | {x} | {y} |')
else:
    for name, v in rows:
        print(f'{name:24} {v[0]:4} commits: task {v[1]:4} -> {v[2]:4}   no task {v[3]:3} -> {v[4]:3}')
    print(f'all {tot[0]}: task {tot[1]} ({pct(tot[1])}) -> {tot[2]} ({pct(tot[2])}); '
          f'no task {tot[3]} ({pct(tot[3])}) -> {tot[4]} ({pct(tot[4])})')
    for g, (x, y) in sorted(per_guard.items(), key=lambda kv: (-kv[1][0], kv[0])):
        print(f'  {g:22} {x:4} -> {y:4}')


def blocking(d, width=150):
    """{(commit, guard): (subject, [blocking finding lines])} of one replay, in the replay's
    order; each message cut to `width` characters."""
    out = {}
    for g, v in d['guards'].items():
        for c in v['commits']:
            lines = [f"{x['path']}:{x['line']} {x['message'][:width]}"
                     for x in c['findings'] if x['severity'] == 'block']
            if lines:
                out[(c['commit'], g)] = (c['subject'], lines)
    return out


if listing:
    for mode in ('task', 'notask'):
        print(f'\n== still blocked ({mode})')
        for f in sorted(os.listdir(os.path.join(after, mode))):
            d = load(after, mode, f)
            if not d:
                continue
            seen = {}
            for (h, g), (s, lines) in blocking(d, width=140).items():
                seen.setdefault((h, s), []).extend(f'{g}: {x}' for x in lines)
            for (h, s), fs in seen.items():
                print(f'{f[:-5]} {h[:10]} {s[:72]}')
                for x in fs[:4]:
                    print('     ', x)


def findings_per_guard(d):
    return {g: sum(len(c['findings']) for c in v['commits']) for g, v in d['guards'].items()}


if changes:
    for mode in ('task', 'notask'):
        print(f'\n== changed blocks ({mode}): + blocks only after, - blocks only before')
        counts = {}
        for f in sorted(os.listdir(os.path.join(after, mode))):
            b, a = load(before, mode, f), load(after, mode, f)
            if not (b and a):
                continue
            for g, n in findings_per_guard(b).items():
                counts.setdefault(g, [0, 0])[0] += n
            for g, n in findings_per_guard(a).items():
                counts.setdefault(g, [0, 0])[1] += n
            bb, ab = blocking(b), blocking(a)
            for sign, mine, other in (('+', ab, bb), ('-', bb, ab)):
                for (h, g), (subject, lines) in sorted(mine.items()):
                    if (h, g) in other:
                        continue
                    print(f'{sign} {f[:-5]} {h[:10]} {g}: {subject[:70]}')
                    for x in lines[:3]:
                        print('      ', x)
        print(f'-- findings shown per guard ({mode}), before -> after:')
        for g, (x, y) in sorted(counts.items()):
            print(f'   {g:22} {x:5} -> {y:5}')

"""Compares two `slopguard replay --format json` runs of the same repositories, for one guard:
blocked commits before -> after, and the commits that started or stopped being blocked.

usage: replay-compare.py OLDTAG NEWTAG GUARD REPO...   (reads /tmp/s11/<TAG>-<REPO>.json,
written by `slopguard replay HEAD -C <mirror> --limit 1500 -j 2 --show 100000 --format json`)
"""
import json,sys
old,new,guard=sys.argv[1:4]
for r in sys.argv[4:]:
    try:
        o=json.load(open(f'/tmp/s11/{old}-{r}.json')); n=json.load(open(f'/tmp/s11/{new}-{r}.json'))
    except Exception as e:
        print(r, 'missing', e); continue
    def commits(d):
        g=d['guards'].get(guard,{'commits':[]})
        return {c['commit']:c for c in g['commits'] if c['severity']=='block'}
    oc,nc=commits(o),commits(n)
    print(f"{r}: commits {n['commits']} blocked(all) {o['blocked_commits']} -> {n['blocked_commits']}; {guard} {len(oc)} -> {len(nc)}")
    for c in set(nc)-set(oc):
        x=nc[c]; print('  NEW', c[:10], x['subject'][:70])
        for f in x['findings']:
            if f['guard']==guard: print('     ', f['path'], f['line'], f['message'][:150])
    for c in set(oc)-set(nc):
        print('  GONE', c[:10], oc[c]['subject'][:70])

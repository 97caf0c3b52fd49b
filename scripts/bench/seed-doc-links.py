"""Seeds "a link to a page, image or include that does not exist" into AsciiDoc and
reStructuredText documents and counts how many `slopguard check` blocks, and by which guard.

usage: seed-doc-links.py REPO_CLONE BINARY [MAX]

The first MAX (default 40) tracked `.adoc`/`.asciidoc`/`.rst` files in path order that have such
a paragraph each get, in turn, one new paragraph after their first paragraph that is outside any listing, literal or
comment block (a blank line before and after it), holding one seeded link of each class:
- `page`: a link to a document nobody wrote (`link:docs/tuning-guide.adoc[the tuning guide]`,
  `` `the tuning guide <docs/tuning-guide.rst>`_ ``);
- `xref`: an AsciiDoc cross reference to such a document (`xref:guides/scaling.adoc[...]`),
  or a reStructuredText `:doc:` role (`:doc:`guides/scaling``);
- `image`: an image that is not in the tree (`image::images/architecture-overview.png[]`,
  `.. image:: images/architecture-overview.png`);
- `include`: a file included that is not in the tree (`include::partials/invented-setup.adoc[]`,
  `.. include:: partials/invented-setup.rst`);
- `external` (the control, never slop): a real external URL (`https://www.python.org/`); a
  block here is a false alarm.
`slopguard check` judges the working tree after each, and the file is put back.

The JSON line has the usual fields (`cases`, `blocked`, `by_guard`, `rare`, `missed`: the
first 20, or as many as the environment variable MISSED says) and `classes`: cases and
blocked per class.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seedlib import Tally, tracked  # noqa: E402

SEEDS = {
    "adoc": {
        "page": "See link:docs/tuning-guide.adoc[the tuning guide] for the details.",
        "xref": "The xref:guides/scaling.adoc[scaling guide] covers larger setups.",
        "image": "image::images/architecture-overview.png[Architecture]",
        "include": "include::partials/invented-setup.adoc[]",
        "external": "See https://www.python.org/[the Python site] for more.",
    },
    "rst": {
        "page": "See `the tuning guide <docs/tuning-guide.rst>`_ for the details.",
        "xref": "The :doc:`scaling guide <guides/scaling>` covers larger setups.",
        "image": ".. image:: images/architecture-overview.png",
        "include": ".. include:: partials/invented-setup.rst",
        "external": "See `the Python site <https://www.python.org/>`_ for more.",
    },
}

# Lines that open or close a block whose text is not markup to read (AsciiDoc delimiters).
ADOC_DELIMITERS = ("----", "....", "////", "++++", "____", "====", "****", "```")


def insertion_point(lines, markup):
    """The index of the first blank line that ends a paragraph of prose: outside AsciiDoc's
    delimited blocks, not in an indented reStructuredText block, after at least one line of
    text (not a title, attribute or directive line). None when there is none."""
    open_block = None
    seen_text = False
    for i, line in enumerate(lines):
        s = line.rstrip("\n")
        if markup == "adoc":
            d = next((x for x in ADOC_DELIMITERS if s.startswith(x) and set(s) == set(x)), None)
            if d:
                open_block = None if open_block == d else (open_block or d)
                seen_text = False
                continue
            if open_block:
                continue
            if s.strip() == "" and seen_text:
                return i
            seen_text = bool(s.strip()) and not s.startswith(("=", ":", "[", "//", "include::", "ifdef", "endif", "ifndef"))
        else:
            if s.strip() == "" and seen_text:
                return i
            seen_text = bool(s.strip()) and not s.startswith((" ", "\t", "..", "=", "-", "~", "*", "#", "^"))
    return None


def main():
    repo, binary = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    tally = Tally(repo, binary)
    classes = {}
    seeded_files = 0
    for f in tracked(repo, "*.adoc", "*.asciidoc", "*.rst"):
        if seeded_files == limit:
            break
        markup = "rst" if f.endswith(".rst") else "adoc"
        with open(os.path.join(repo, f)) as fh:
            lines = fh.read().splitlines(keepends=True)
        at = insertion_point(lines, markup)
        if at is None:
            continue
        seeded_files += 1
        for kind, seed in SEEDS[markup].items():
            seeded = "".join(lines[:at] + ["\n", seed + "\n"] + lines[at:])
            guards = tally.judge(f, seeded, f"{f} ({kind})")
            c = classes.setdefault(kind, {"cases": 0, "blocked": 0})
            c["cases"] += 1
            c["blocked"] += bool(guards)
    line = tally.report(most_missed=int(os.environ.get("MISSED", "20")))
    print(line[:-1] + ', "classes": ' + json.dumps(classes) + "}")


main()

"""Parses versions (MAJOR.MINOR.PATCH[-pre]) and checks them against ranges.

A range is a space-separated list of comparators that must all hold; "||"
separates alternatives. Comparators:

    1.2.3  =1.2.3      exactly that version
    >1.2  >=1.2  <2  <=2.1.0
    ^1.2.3             compatible: no change to the left-most non-zero part
    ~1.2.3  ~1.2       patch-level changes (minor-level for ~1)
    1.x  1.2.*  *      wildcards

Pre-release versions sort before their release and only satisfy a range
when a comparator names the same MAJOR.MINOR.PATCH with a pre-release.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_VERSION = re.compile(r"^v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?$")


@dataclass(frozen=True, order=False)
class Version:
    major: int
    minor: int = 0
    patch: int = 0
    pre: tuple = field(default=())

    def _key(self):
        # A release sorts after all of its pre-releases; numeric identifiers
        # sort before alphanumeric ones.
        pre = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in self.pre)
        return (self.major, self.minor, self.patch, 0 if self.pre else 1, pre)

    def __lt__(self, other): return self._key() < other._key()
    def __le__(self, other): return self._key() <= other._key()
    def __gt__(self, other): return self._key() > other._key()
    def __ge__(self, other): return self._key() >= other._key()

    def __str__(self):
        s = f"{self.major}.{self.minor}.{self.patch}"
        return s + ("-" + ".".join(self.pre) if self.pre else "")


def parse_version(text: str) -> Version:
    m = _VERSION.match(text.strip())
    if not m or any(g and not g.isdigit() for g in m.group(2, 3)):
        raise ValueError(f"invalid version: {text!r}")
    major, minor, patch, pre = m.groups()
    return Version(int(major), int(minor or 0), int(patch or 0),
                   tuple(pre.split(".")) if pre else ())


def _partial(text: str):
    """(major, minor, patch, pre) with None for missing or wildcard parts."""
    if text in ("", "*", "x", "X"):
        return None, None, None, ()
    m = _VERSION.match(text)
    if not m:
        raise ValueError(f"invalid version in range: {text!r}")
    parts = [None if g is None or not g.isdigit() else int(g) for g in m.group(1, 2, 3)]
    pre = tuple(m.group(4).split(".")) if m.group(4) else ()
    return parts[0], parts[1], parts[2], pre


def _bounds(comp: str):
    """Translates one comparator into (low, low_inclusive, high, high_inclusive, pre)."""
    m = re.match(r"^(\^|~|>=|<=|>|<|=)?\s*(.*)$", comp)
    op, rest = m.group(1) or "", m.group(2)
    major, minor, patch, pre = _partial(rest)
    if major is None:
        return None, True, None, False, ()
    low = Version(major, minor or 0, patch or 0, pre)
    if op == "^":
        if major != 0:
            high = Version(major + 1, 0, 0)
        elif minor is None:
            high = Version(1, 0, 0)
        elif minor != 0:
            high = Version(0, minor + 1, 0)
        elif patch is None:
            high = Version(0, 1, 0)
        else:
            high = Version(0, 0, patch + 1)
        return low, True, high, False, pre
    if op == "~":
        high = Version(major + 1, 0, 0) if minor is None else Version(major, minor + 1, 0)
        return low, True, high, False, pre
    if op in (">", ">="):
        return low, op == ">=", None, False, pre
    if op in ("<", "<="):
        return None, True, low, op == "<=", pre
    # exact or wildcard
    if minor is None:
        return low, True, Version(major + 1, 0, 0), False, pre
    if patch is None:
        return low, True, Version(major, minor + 1, 0), False, pre
    return low, True, low, True, pre


def _satisfies_set(version: Version, comparators: list[str]) -> bool:
    allow_pre = False
    for comp in comparators:
        low, low_inc, high, high_inc, pre = _bounds(comp)
        if low is not None and (version < low or (version == low and not low_inc)):
            return False
        if high is not None and (version > high or (version == high and not high_inc)):
            return False
        if pre and (low or high) and version.pre:
            anchor = low or high
            if (anchor.major, anchor.minor, anchor.patch) == (version.major, version.minor, version.patch):
                allow_pre = True
    return not version.pre or allow_pre


def satisfies(version: str | Version, spec: str) -> bool:
    v = parse_version(version) if isinstance(version, str) else version
    for alternative in spec.split("||"):
        comparators = re.sub(r"(>=|<=|>|<|=|\^|~)\s+", r"\1", alternative.strip()).split()
        if _satisfies_set(v, comparators or ["*"]):
            return True
    return False


def max_satisfying(versions: list[str], spec: str) -> str | None:
    ok = [parse_version(v) for v in versions if satisfies(v, spec)]
    return str(max(ok)) if ok else None

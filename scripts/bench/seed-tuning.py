#!/usr/bin/env python3
"""Draws one seeded bug at random for a task of the tuning pool (stdlib only, Python 3.11+).

    scripts/bench/seed-tuning.py --repo DIR --file PATH --lines A-B --lang L --seed N [--list]
    scripts/bench/seed-tuning.py --task bench/tuning/tasks/<id> [--list]

Why: the tuning pool (bench/tuning/) is for growing the agent's repair templates on bugs that
are not of our choosing. A bug picked by hand tends to be one that some template already fixes,
or one that looks "nice"; a bug drawn by `random.Random(seed)` from every mutation point of the
function is not shaped to suit anything.

What it does: it lexes PATH (relative to DIR) just enough to tell code from strings and
comments, lists every candidate mutation point between lines A and B (1-based, inclusive) for
each kind below, then draws ONE: first the kind, uniformly among the kinds that have at least
one candidate, then the point, uniformly among that kind's candidates. It prints the draw as a
git diff (a/ b/ prefixes, paths relative to DIR), ready to save as bug.patch; a comment line
above the diff names the seed, the kind and the point. `--list` prints every candidate instead.
`--task` takes the repo, file (bug_files[0]), language, seed and line range (seed_lines) from a
tuning task's task.toml, so that a task's draw can be repeated and compared with its bug.patch.

Kinds (recorded in task.toml `mutation`):
  off-by-one          an integer literal n -> n+1 or n-1; `x + 1` / `x - 1` -> `x`
  wrong-comparison    < <= > >= == != (and === !==) -> a neighbouring comparison
  wrong-operator      + - * / % (and += -=) swapped; && <-> ||, and <-> or
  negated-condition   the condition of an if / elif / while / unless negated (or un-negated)
  wrong-constant      true <-> false; a string literal changed; a number other than 0/1 -> 0
  wrong-variable      a use of a local name replaced by another name used in the function
  swapped-arguments   two adjacent arguments of a one-line call swapped
  wrong-method        a call replaced by its sibling (startswith/endswith, min/max, push/unshift...)
  missing-statement   one single-line statement deleted (recorded as missing-call when it is a
                      call, missing-assignment when it is an assignment)
  missing-case        one if statement without else, one elif / else-if / case / when branch, or
                      one match arm deleted
  wrong-index         a subscript x[i] -> x[i + 1] / x[i - 1] (a literal index -> +-1)

The analysis is lexical and line-based (code is assumed formatted by the language's usual
formatter: binary operators spaced, one statement per line), so a draw can fail to compile or
change no test's outcome; the pool's rule is then to redraw with seed + 1 (see
bench/tuning/README.md), never to pick another point by hand.
"""
import argparse
import difflib
import random
import re
import sys
from pathlib import Path

KEYWORDS = {
    "python": "False None True and as assert async await break class continue def del elif else "
              "except finally for from global if import in is lambda nonlocal not or pass raise "
              "return try while with yield self cls match case print len str int float bool list "
              "dict set tuple isinstance range type object super",
    "javascript": "break case catch class const continue debugger default delete do else export "
                  "extends false finally for function if import in instanceof let new null return "
                  "super switch this throw true try typeof undefined var void while with yield "
                  "async await of NaN Infinity",
    "go": "break case chan const continue default defer else fallthrough for func go goto if "
          "import interface map package range return select struct switch type var nil true "
          "false len cap make new append copy panic string int int64 int32 uint uint64 uint32 "
          "uint8 byte rune float64 float32 bool error",
    "rust": "as break const continue crate else enum extern false fn for if impl in let loop "
            "match mod move mut pub ref return self Self static struct super trait true type "
            "unsafe use where while Some None Ok Err usize isize u8 u16 u32 u64 u128 i8 i16 i32 "
            "i64 i128 f32 f64 bool char str String Vec Option Result",
    "ruby": "BEGIN END alias and begin break case class def defined? do else elsif end ensure "
            "false for if in module next nil not or redo rescue retry return self super then "
            "true undef unless until when while yield raise require puts attr_reader",
}
KEYWORDS = {k: set(v.split()) for k, v in KEYWORDS.items()}
KEYWORDS["typescript"] = KEYWORDS["javascript"]

# Sibling methods / functions: a call of one may be replaced by the other.
SIBLINGS = [
    ("startswith", "endswith"), ("start_with?", "end_with?"), ("startsWith", "endsWith"),
    ("starts_with", "ends_with"), ("HasPrefix", "HasSuffix"), ("TrimPrefix", "TrimSuffix"),
    ("TrimLeft", "TrimRight"), ("lstrip", "rstrip"), ("ljust", "rjust"), ("min", "max"),
    ("Min", "Max"), ("push", "unshift"), ("pop", "shift"), ("find", "rfind"),
    ("index", "rindex"), ("indexOf", "lastIndexOf"), ("Index", "LastIndex"),
    ("IndexByte", "LastIndexByte"), ("floor", "ceil"), ("Floor", "Ceil"), ("upper", "lower"),
    ("toUpperCase", "toLowerCase"), ("ToUpper", "ToLower"), ("upcase", "downcase"),
    ("to_uppercase", "to_lowercase"), ("to_ascii_uppercase", "to_ascii_lowercase"),
    ("trim_start", "trim_end"), ("trim_start_matches", "trim_end_matches"),
    ("strip_prefix", "strip_suffix"), ("first", "last"), ("keys", "values"), ("any", "all"),
    ("some", "every"), ("split", "rsplit"), ("splitn", "rsplitn"), ("position", "rposition"),
    ("min_by", "max_by"), ("min_by_key", "max_by_key"), ("isupper", "islower"),
    ("is_uppercase", "is_lowercase"), ("is_ascii_uppercase", "is_ascii_lowercase"),
    ("sub", "gsub"), ("sub!", "gsub!"), ("lstrip!", "rstrip!"), ("trimStart", "trimEnd"),
    ("padStart", "padEnd"), ("floor_div", "ceil_div"), ("TrimLeftFunc", "TrimRightFunc"),
    ("IndexRune", "LastIndexRune"), ("IndexAny", "LastIndexAny"), ("partition", "rpartition"),
    ("insert", "append"), ("Fields", "Split"), ("Title", "ToTitle"), ("capitalize", "title"),
]
SIBLING = {}
for _a, _b in SIBLINGS:
    SIBLING.setdefault(_a, _b)
    SIBLING.setdefault(_b, _a)

OPS = sorted("""=== !== ** //= **= <<= >>= ... <=> == != <= >= && || += -= *= /= %= |= &= ^= -> => :: << >>
             // .. &. =~ !~ := ++ -- < > + - * / % = ! & | ^ ~ ? : . , ; ( ) [ ] { } @ $""".split(),
             key=len, reverse=True)
OP_RE = re.compile("|".join(re.escape(o) for o in OPS))
IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*[?!]?")
NUM_RE = re.compile(r"0[xXoObB][0-9a-fA-F_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?[a-z0-9]*")


# ---------------------------------------------------------------- lexing

def mask(text, lang):
    """(masked, strings): masked is text with comments blanked and string interiors replaced by
    's' (same length, newlines kept); strings is a list of (start, end) spans of literals."""
    out, strings, i, n = list(text), [], 0, len(text)
    hash_comment = lang in ("python", "ruby")
    prev_code = ""                      # last non-space code character (regex-literal heuristic)

    def blank(a, b, fill):
        for k in range(a, b):
            if text[k] != "\n":
                out[k] = fill

    while i < n:
        c = text[i]
        two = text[i:i + 2]
        if hash_comment and c == "#" or not hash_comment and two == "//":
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j, " ")
            i = j
            continue
        if not hash_comment and two == "/*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j, " ")
            i = j
            continue
        start = i
        end = None
        if lang == "python":
            m = re.match(r"[rRbBuUfF]{0,2}('''|\"\"\"|'|\")", text[i:])
            if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
                q = m.group(1)
                j = i + m.end()
                while j < n and text[j:j + len(q)] != q:
                    if text[j] == "\\":
                        j += 1
                    elif len(q) == 1 and text[j] == "\n":
                        break
                    j += 1
                end = min(n, j + len(q))
        elif lang == "rust":
            m = re.match(r"b?r(#*)\"", text[i:])
            if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
                close = '"' + m.group(1)
                j = text.find(close, i + m.end())
                end = n if j < 0 else j + len(close)
            elif c == '"' or two == 'b"':
                end = _quoted(text, i + (2 if two == 'b"' else 1), '"')
            elif c == "'" and re.match(r"'(\\.[^']*|[^\\'])'", text[i:]):
                end = i + re.match(r"'(\\.[^']*|[^\\'])'", text[i:]).end()
        elif lang == "go":
            if c == "`":
                j = text.find("`", i + 1)
                end = n if j < 0 else j + 1
            elif c in "\"'":
                end = _quoted(text, i + 1, c)
        else:  # javascript, typescript, ruby
            if c in "\"'`":
                end = _quoted(text, i + 1, c, multiline=(c == "`"))
            elif c == "/" and prev_code in "(,=:[!&|?{};" and text[i + 1:i + 2] not in "/*":
                j = i + 1
                while j < n and text[j] not in "/\n":
                    if text[j] == "\\":
                        j += 1
                    elif text[j] == "[":
                        k = text.find("]", j)
                        j = k if k > 0 else j
                    j += 1
                end = j + 1
                while end < n and text[end].isalpha():
                    end += 1
            elif lang == "ruby" and c == "%" and re.match(r"%[wWiIqQr]?[\[({<|]", text[i:]) \
                    and prev_code in "(,=[{;|&" :
                m = re.match(r"%[wWiIqQr]?([\[({<|])", text[i:])
                close = {"[": "]", "(": ")", "{": "}", "<": ">", "|": "|"}[m.group(1)]
                j = text.find(close, i + m.end())
                end = n if j < 0 else j + 1
        if end is not None:
            strings.append((start, end))
            blank(start + 1, end - 1, "s")
            prev_code = "s"
            i = end
            continue
        if not c.isspace():
            prev_code = c
            if c.isalnum() or c == "_":       # a keyword such as `return` lets a regex follow
                m = IDENT_RE.match(text, i)
                word = m.group(0) if m else c
                prev_code = "(" if word in ("return", "typeof", "when", "if", "unless") else "a"
                i += len(word)
                continue
        i += 1
    return "".join(out), strings


def _quoted(text, j, q, multiline=False):
    n = len(text)
    while j < n and text[j] != q:
        if text[j] == "\\":
            j += 1
        elif text[j] == "\n" and not multiline:
            return j
        j += 1
    return min(n, j + 1)


def tokens(masked, strings, lo, hi):
    """Code tokens (kind, start, end, text) whose start is within [lo, hi)."""
    in_string = {}
    for a, b in strings:
        in_string[a] = b
    out, i = [], lo
    while i < hi:
        c = masked[i]
        if i in in_string:
            out.append(("str", i, in_string[i], masked[i:in_string[i]]))
            i = in_string[i]
            continue
        if c.isspace():
            i += 1
            continue
        if c.isdigit():
            m = NUM_RE.match(masked, i)
            out.append(("num", i, m.end(), m.group(0)))
            i = m.end()
            continue
        m = IDENT_RE.match(masked, i)
        if m:
            out.append(("id", i, m.end(), m.group(0)))
            i = m.end()
            continue
        m = OP_RE.match(masked, i)
        if m:
            out.append(("op", i, m.end(), m.group(0)))
            i = m.end()
            continue
        i += 1
    return out


# ---------------------------------------------------------------- candidates

class Draw:
    def __init__(self, text, masked, strings, lang, lo_line, hi_line):
        self.text, self.masked, self.strings, self.lang = text, masked, strings, lang
        self.lines = text.split("\n")
        self.mlines = masked.split("\n")
        self.offsets = [0]
        for line in self.lines:
            self.offsets.append(self.offsets[-1] + len(line) + 1)
        self.lo_line, self.hi_line = lo_line, hi_line
        self.lo = self.offsets[lo_line - 1]
        self.hi = min(len(text), self.offsets[min(hi_line, len(self.lines))])
        self.toks = tokens(masked, strings, self.lo, self.hi)
        self.kw = KEYWORDS[lang]
        self.cands = {}
        # Bracket depth at the start of each line: a line that starts inside ( or [ (or, in
        # Python, inside any bracket) continues an expression and is no statement of its own.
        opens = "([{" if lang == "python" else "(["
        closes = ")]}" if lang == "python" else ")]"
        self.depth, depth = [], 0
        for mline in self.mlines:
            self.depth.append(depth)
            for ch in mline:
                depth += ch in opens
                depth -= ch in closes
            depth = max(depth, 0)

    def add(self, kind, desc, start, end, repl):
        self.cands.setdefault(kind, []).append((desc, start, end, repl))

    def line_of(self, off):
        lo, hi = 0, len(self.offsets) - 1
        while lo < hi - 1:
            mid = (lo + hi) // 2
            if self.offsets[mid] <= off:
                lo = mid
            else:
                hi = mid
        return lo + 1

    def where(self, off):
        return f"line {self.line_of(off)}"

    # -- token-level kinds

    def scan_tokens(self):
        T, text = self.toks, self.text
        idents = {}
        for k, (kind, a, b, s) in enumerate(T):
            prev = T[k - 1] if k else ("", 0, 0, "")
            nxt = T[k + 1] if k + 1 < len(T) else ("", 0, 0, "")
            spaced = text[a - 1:a] == " " and text[b:b + 1] == " "
            if kind == "num" and re.fullmatch(r"\d+", s) and not (prev[3] == "[" and nxt[3] in "]:"):
                v = int(s)
                self.add("off-by-one", f"{s} -> {v + 1} at {self.where(a)}", a, b, str(v + 1))
                if v > 0:
                    self.add("off-by-one", f"{s} -> {v - 1} at {self.where(a)}", a, b, str(v - 1))
                if v > 1:
                    self.add("wrong-constant", f"{s} -> 0 at {self.where(a)}", a, b, "0")
            if kind == "num" and re.fullmatch(r"\d+\.\d+", s) and float(s) not in (0.0, 1.0):
                self.add("wrong-constant", f"{s} -> 0.0 at {self.where(a)}", a, b, "0.0")
            if kind == "op" and s in ("+", "-") and spaced and nxt[0] == "num" and nxt[3] == "1" \
                    and (k + 2 >= len(T) or T[k + 2][3] not in ("*", "/", "%", "**")):
                self.add("off-by-one", f"drop `{s} 1` at {self.where(a)}", a - 1, nxt[2], "")
            if kind == "op" and spaced and s in ("<", "<=", ">", ">=", "==", "!=", "===", "!=="):
                alts = {"<": ["<=", ">"], "<=": ["<", ">="], ">": [">=", "<"], ">=": [">", "<="],
                        "==": ["!="], "!=": ["=="], "===": ["!=="], "!==": ["==="]}[s]
                for alt in alts:
                    self.add("wrong-comparison", f"{s} -> {alt} at {self.where(a)}", a, b, alt)
            if kind == "op" and spaced and s in ("+", "-", "*", "/", "%", "//", "+=", "-=", "&&", "||"):
                alt = {"+": "-", "-": "+", "*": "/", "/": "*", "%": "/", "//": "*", "+=": "-=",
                       "-=": "+=", "&&": "||", "||": "&&"}[s]
                self.add("wrong-operator", f"{s} -> {alt} at {self.where(a)}", a, b, alt)
            if kind == "id" and s in ("and", "or") and self.lang in ("python", "ruby"):
                alt = "or" if s == "and" else "and"
                self.add("wrong-operator", f"{s} -> {alt} at {self.where(a)}", a, b, alt)
            if kind == "id" and s in ("true", "false", "True", "False"):
                alt = {"true": "false", "false": "true", "True": "False", "False": "True"}[s]
                self.add("wrong-constant", f"{s} -> {alt} at {self.where(a)}", a, b, alt)
            if kind == "str" and not self.is_docstring(a):
                lit = text[a:b]
                m = re.match(r"([A-Za-z]*)(['\"`])(.*)\2([A-Za-z]*)$", lit, re.S)
                if m and "\n" not in lit and "${" not in lit and "#{" not in lit \
                        and "{" not in m.group(3) and not lit.startswith(("f", "F")):
                    body = m.group(3)
                    if body == "":
                        new_body = " "
                    elif body.endswith("\\") or re.search(r"\\[a-zA-Z0-9]{0,5}$", body):
                        new_body = body[:body.rfind("\\")]
                    else:
                        new_body = body[:-1]
                    if not body or new_body != body:
                        repl = m.group(1) + m.group(2) + new_body + m.group(2) + m.group(4)
                        self.add("wrong-constant", f"{lit} -> {repl} at {self.where(a)}", a, b, repl)
            if kind == "id" and s in SIBLING and nxt[3] == "(" or \
                    kind == "id" and s in SIBLING and self.lang == "ruby" and prev[3] in (".", "&."):
                if not self.is_definition(k):
                    self.add("wrong-method", f"{s} -> {SIBLING[s]} at {self.where(a)}", a, b, SIBLING[s])
            if kind == "id" and self.is_variable_use(k):
                idents.setdefault(s, []).append((a, b))
        # wrong-variable: a use of a local name (a parameter or a name the function assigns)
        # replaced by another local name of the function.
        bound = self.bound_names()
        names = sorted(n for n in bound if n in idents)
        for name in names:
            for a, b in idents[name]:
                if (a, b) in bound[name]:
                    continue
                for other in names:
                    if other != name:
                        self.add("wrong-variable", f"{name} -> {other} at {self.where(a)}", a, b, other)

    def bound_names(self):
        """{name: set of binding spans}: parameters and assigned names in the range."""
        T, kw, bound = self.toks, self.kw, {}
        in_params = depth = 0
        bars = False
        for k, (kind, a, b, s) in enumerate(T):
            prev = T[k - 1][3] if k else ""
            nxt = T[k + 1][3] if k + 1 < len(T) else ""
            if kind == "op" and s == "(" and k >= 2 and T[k - 2][3] in ("def", "fn", "func", "function"):
                in_params, depth = True, 0
            if kind == "op" and s == "(" and prev in ("def", "fn", "func", "function"):
                in_params, depth = True, 0       # anonymous function
            if in_params and kind == "op":
                depth += s in "([{"
                depth -= s in ")]}"
                if depth <= 0 and s == ")":
                    in_params = False
            if kind == "op" and s == "|" and self.lang in ("ruby", "rust") and \
                    (prev in ("{", "do", "(", "=", ",", "move", "") or bars):
                bars = not bars
                continue
            if kind != "id" or s in kw or s[0].isupper() or s.endswith(("?", "!")):
                continue
            binding = (
                prev in ("let", "mut", "var", "const", "for", "as") or
                nxt in ("=", ":=", "+=", "-=", "*=", "/=", "%=", "||=", "&&=", "|=", "<<=", ">>=")
                and prev in ("", ",", "(", ";", "{", "}", "&", "*", "mut") or
                in_params and depth == 1 and prev in ("(", ",", "*", "**", "&", "mut") or
                bars and prev in ("|", ",", "&", "mut", "(")
            )
            if binding and prev not in (".", "::"):
                bound.setdefault(s, set()).add((a, b))
        return bound

    def is_docstring(self, a):
        if self.lang != "python":
            return False
        line = self.lines[self.line_of(a) - 1].strip()
        return line.startswith(('"""', "'''", 'r"""')) or line.startswith(('"', "'")) and \
            self.text[self.offsets[self.line_of(a) - 1]:a].strip() == ""

    def is_definition(self, k):
        prev = self.toks[k - 1][3] if k else ""
        return prev in ("def", "fn", "func", "function")

    def is_variable_use(self, k):
        kind, a, b, s = self.toks[k]
        prev = self.toks[k - 1][3] if k else ""
        nxt = self.toks[k + 1][3] if k + 1 < len(self.toks) else ""
        if s in self.kw or s[0].isupper() or s.endswith(("?", "!")):
            return False
        if prev in (".", "&.", "::", "def", "fn", "func", "function", "class", "struct",
                    "module", "type", "let", "var", "const", "mut", "for", "@", "$", ":", "'"):
            return False
        if nxt in ("(", "::", "=", ":=", "!") or self.lang == "python" and nxt == "=":
            return False
        if self.lang in ("python", "ruby", "javascript", "typescript") and nxt == ":" and \
                self.lang != "python":
            return False
        return True

    # -- line-level kinds

    def indent(self, i):
        line = self.lines[i]
        return len(line) - len(line.lstrip())

    def code(self, i):
        """Line i's code (strings masked, comments blank); "" for a line inside a string."""
        c = self.mlines[i].strip() if 0 <= i < len(self.mlines) else ""
        return "" if re.fullmatch(r"[sbrfu]?[\"'`]*s*[\"'`]*[,;)]*", c) and "s" in c else c

    def block_end(self, i):
        """Index of the last line of the block opened by line i (indentation based)."""
        ind, j, last = self.indent(i), i + 1, i
        while j < len(self.lines):
            if self.code(j):
                if self.indent(j) <= ind:
                    break
                last = j
            j += 1
        return last

    def scan_lines(self):
        lang = self.lang
        brace = lang in ("javascript", "typescript", "go", "rust")
        for i in range(self.lo_line - 1, min(self.hi_line, len(self.lines))):
            c = self.code(i)
            if not c or self.depth[i] > 0:
                self.calls_and_indexes(i)
                continue
            ind = self.indent(i)
            nxt = next((j for j in range(i + 1, len(self.lines)) if self.code(j)), None)
            ncode = self.code(nxt) if nxt is not None else ""
            a = self.offsets[i]
            whole = (self.offsets[i], self.offsets[i + 1])
            # negated-condition
            self.negations(i, c)
            # missing-case
            if lang == "python" and re.match(r"(if|elif)\b.*:$", c):
                end = self.block_end(i)
                after = self.code(next((j for j in range(end + 1, len(self.lines)) if self.code(j)), len(self.lines)))
                aind = next((self.indent(j) for j in range(end + 1, len(self.lines)) if self.code(j)), -1)
                chained = aind == ind and re.match(r"(elif|else)\b", after)
                if c.startswith("elif") or not chained:
                    self.add("missing-case", f"delete `{self.lines[i].strip()[:40]}` branch (lines {i + 1}-{end + 1})",
                             whole[0], self.offsets[end + 1], "")
            elif lang == "python" and re.match(r"if\b.*:\s*\S", c):
                self.add("missing-case", f"delete `{self.lines[i].strip()[:40]}` (line {i + 1})", *whole, "")
            elif brace and re.match(r"(if\b|\}\s*else\s+if\b)", c) and c.endswith("{"):
                close = next((j for j in range(i + 1, len(self.lines))
                              if self.code(j) and self.indent(j) <= ind), None)
                if close is not None and self.code(close).startswith("}"):
                    if c.startswith("}"):
                        self.add("missing-case", f"delete `{self.lines[i].strip()[:40]}` branch (lines {i + 1}-{close})",
                                 whole[0], self.offsets[close], "")
                    elif self.code(close) in ("}", "};"):
                        self.add("missing-case", f"delete `{self.lines[i].strip()[:40]}` (lines {i + 1}-{close + 1})",
                                 whole[0], self.offsets[close + 1], "")
            elif lang in ("javascript", "typescript") and re.match(r"if\s*\(.*\)\s*[^{\s].*;$", c):
                self.add("missing-case", f"delete `{self.lines[i].strip()[:40]}` (line {i + 1})", *whole, "")
            elif lang in ("go", "javascript", "typescript") and re.match(r"case\b.*:$", c):
                end = next((j for j in range(i + 1, len(self.lines))
                            if self.code(j) and self.indent(j) <= ind), len(self.lines))
                self.add("missing-case", f"delete `{self.lines[i].strip()[:40]}` (lines {i + 1}-{end})",
                         whole[0], self.offsets[end], "")
            elif lang == "rust" and "=>" in c and not re.match(r"_\s*(if\b.*)?=>", c) \
                    and self.balanced(c.split("=>")[0]) and not c.startswith(("}", ")", "//")):
                if c.endswith("{"):
                    close = next((j for j in range(i + 1, len(self.lines))
                                  if self.code(j) and self.indent(j) <= ind), None)
                    if close is not None and self.code(close) in ("}", "},"):
                        self.add("missing-case", f"delete arm `{self.lines[i].strip()[:40]}` (lines {i + 1}-{close + 1})",
                                 whole[0], self.offsets[close + 1], "")
                elif c.endswith(",") and self.balanced(c):
                    self.add("missing-case", f"delete arm `{self.lines[i].strip()[:40]}` (line {i + 1})", *whole, "")
            elif lang == "ruby" and re.match(r"(if|elsif|unless|when)\b", c):
                end = self.block_end(i)
                close = next((j for j in range(end + 1, len(self.lines)) if self.code(j)), None)
                ccode = self.code(close) if close is not None else ""
                if c.startswith(("elsif", "when")):
                    self.add("missing-case", f"delete `{self.lines[i].strip()[:40]}` branch (lines {i + 1}-{end + 1})",
                             whole[0], self.offsets[end + 1], "")
                elif ccode == "end" and self.indent(close) == ind:
                    self.add("missing-case", f"delete `{self.lines[i].strip()[:40]}` (lines {i + 1}-{close + 1})",
                             whole[0], self.offsets[close + 1], "")
            elif lang == "ruby" and re.search(r"\S\s+(if|unless)\s+\S", c) and self.balanced(c):
                self.add("missing-case", f"delete `{self.lines[i].strip()[:40]}` (line {i + 1})", *whole, "")
            # missing-statement
            elif self.is_simple_statement(i, c, ncode, ind, nxt):
                label = self.statement_label(c)
                self.add("missing-statement", f"delete {label} `{self.lines[i].strip()[:50]}` (line {i + 1})", *whole, "")
            # swapped-arguments and wrong-index on this line
            self.calls_and_indexes(i)

    def balanced(self, s):
        depth = 0
        for ch in s:
            depth += ch in "([{"
            depth -= ch in ")]}"
            if depth < 0:
                return False
        return depth == 0

    def is_simple_statement(self, i, c, ncode, ind, nxt):
        lang = self.lang
        if not self.balanced(c):
            return False
        if re.match(r"(def|fn|func|function|class|struct|impl|module|mod|use|import|from|package|"
                    r"pub|const|static|type|else|elif|elsif|end|case|when|default|rescue|ensure|"
                    r"begin|try|except|finally|match|loop|for|while|if|unless|return|@|#\[)\b", c) \
                and not c.startswith("return"):
            return False
        if c in ("}", "});", "};", ")", "]", "end", "pass", "break", "continue", "else", "{") \
                or c.endswith(("{", ":", ",", "(", "[", "\\", "|", "&&", "||", "+", "=", "do")) \
                or c.startswith(("}", ")", "]", ".", "?", "|", "&&", "||", "+", "-", "*", '"', "'")):
            return False
        if nxt is not None and self.indent(nxt) > ind:      # continued on the next line
            return False
        if lang == "python":
            prev = next((j for j in range(i - 1, -1, -1) if self.code(j)), None)
            block_opened = prev is not None and self.code(prev).endswith(":") and self.indent(prev) < ind
            alone = block_opened and (nxt is None or self.indent(nxt) < ind)
            if alone:                                       # would leave an empty block
                return False
        if lang == "rust" and not c.endswith(";"):           # a tail expression, not a statement
            return False
        return True

    def statement_label(self, c):
        if re.match(r"return\b", c):
            return "return"
        if re.match(r"(let\s+(mut\s+)?|var\s+|const\s+)?[\w.\[\]@$ ,*]+\s*([-+*/%|&^]|<<|>>|//)?=[^=]", c) \
                or ":=" in c:
            return "assignment"
        if c.rstrip(";").endswith(")") or c.rstrip(";").endswith("?") or self.lang == "ruby":
            return "call"
        return "statement"

    def negations(self, i, c):
        lang, line, a = self.lang, self.mlines[i], self.offsets[i]
        m = None
        if lang == "python":
            m = re.match(r"(\s*(?:if|elif|while)\s+)(.*?)(:\s*)$", line)
        elif lang in ("go", "rust"):
            m = re.match(r"(\s*(?:\}\s*else\s+)?(?:if|for)\s+(?:[^{;]*;\s*)?)(.*?)(\s*\{\s*)$", line)
            if m and (m.group(2).startswith(("let ", "_, ")) or " range " in m.group(2)
                      or ":=" in m.group(2) or m.group(2).startswith(("mut ",)) or " in " in m.group(2)
                      or not m.group(2)):
                m = None
        elif lang in ("javascript", "typescript"):
            m = re.match(r"(\s*(?:\}\s*else\s+)?(?:if|while)\s*\()(.*)(\).*)$", line)
            if m:
                inner, depth, cut = m.group(2) + m.group(3), 0, None
                for k, ch in enumerate(inner):
                    depth += ch == "("
                    if ch == ")":
                        if depth == 0:
                            cut = k
                            break
                        depth -= 1
                if cut is None:
                    m = None
                else:
                    m = re.match(r"(\s*(?:\}\s*else\s+)?(?:if|while)\s*\()(" + re.escape(inner[:cut]) + r")(\).*)$", line)
        elif lang == "ruby":
            m = re.match(r"(\s*(?:if|elsif|unless|while|until)\s+)(.*?)(\s*(?:then)?\s*)$", line) \
                or re.match(r"(.*\S\s+(?:if|unless)\s+)(.*?)(\s*)$", line)
        if not m or not m.group(2).strip():
            return
        s, e = a + m.start(2), a + m.end(2)
        cond = self.text[s:e]
        if lang == "ruby" and re.search(r"\bunless\s+$", m.group(1)):
            kw = m.group(1).rstrip()
            ks = a + len(kw) - len("unless")
            self.add("negated-condition", f"unless -> if at {self.where(s)}", ks, ks + 6, "if")
            return
        if lang == "python":
            if cond.startswith("not "):
                new = cond[4:]
            else:
                new = "not " + cond if self.atomic(cond) else f"not ({cond})"
        else:
            if cond.startswith("!") and self.atomic(cond[1:]):
                new = cond[1:]
            else:
                new = "!" + cond if self.atomic(cond) else f"!({cond})"
        self.add("negated-condition", f"`{cond[:40]}` -> `{new[:44]}` at {self.where(s)}", s, e, new)

    def atomic(self, cond):
        """True when cond is a name, call, attribute or index chain (no top-level operator)."""
        masked = re.sub(r"\([^()]*\)|\[[^\[\]]*\]", "", cond)
        masked = re.sub(r"\([^()]*\)|\[[^\[\]]*\]", "", masked)
        return re.fullmatch(r"[\w.?!&:@]+", masked.replace("&.", ".")) is not None

    def calls_and_indexes(self, i):
        line, a, text = self.mlines[i], self.offsets[i], self.text
        for m in re.finditer(r"([\w?!]+)\s*\(", line):
            if re.search(r"\b(def|fn|func|function)\s*$", line[:m.start()]) or \
                    m.group(1) in ("if", "while", "for", "switch", "match", "return", "catch", "function", "fn",
                                   "func", "def", "elif", "and", "or", "not", "in"):
                continue
            args = self.split_args(line, m.end())
            if args is None:
                continue
            for k in range(len(args) - 1):
                (s1, e1), (s2, e2) = args[k], args[k + 1]
                x, y = text[a + s1:a + e1], text[a + s2:a + e2]
                if x.strip() == y.strip() or not x.strip() or not y.strip() or "=" in line[s1:e1] + line[s2:e2] \
                        or x.strip().startswith("*") or y.strip().startswith("*"):
                    continue
                self.add("swapped-arguments", f"{m.group(1)}({x.strip()}, {y.strip()}) swapped at line {i + 1}",
                         a + s1, a + e2, y + text[a + e1:a + s2] + x)
        for m in re.finditer(r"[\w)\]]\[", line):
            start = m.end()
            depth, j = 0, start
            while j < len(line):
                if line[j] in "([{":
                    depth += 1
                elif line[j] in ")]}":
                    if depth == 0:
                        break
                    depth -= 1
                j += 1
            if j >= len(line) or line[j] != "]":
                continue
            base = re.search(r"([\w.]+)$", line[:m.start() + 1])
            if base and base.group(1).split(".")[-1][:1].isupper():
                continue                                      # a type such as Optional[int]
            inner = text[a + start:a + j]
            if not inner.strip() or re.search(r"[:,]|\.\.", line[start:j]) or "s" * 2 in line[start:j] \
                    or self.lang == "rust" and re.fullmatch(r"\d+", inner.strip()) and line[:m.start() + 1].rstrip().endswith(("u8", "]")):
                continue
            inner_s = inner.strip()
            if re.fullmatch(r"-?\d+", inner_s):
                v = int(inner_s)
                for w in (v + 1, v - 1):
                    if (v < 0 and w >= 0 and w != 0) or (v >= 0 and w < 0):
                        continue
                    self.add("wrong-index", f"[{inner_s}] -> [{w}] at line {i + 1}", a + start, a + j, str(w))
            else:
                for d in ("+", "-"):
                    new = f"{inner_s} {d} 1" if self.atomic(inner_s) else f"({inner_s}) {d} 1"
                    self.add("wrong-index", f"[{inner_s}] -> [{new}] at line {i + 1}", a + start, a + j, new)

    def split_args(self, line, start):
        """Top-level argument spans of the call whose '(' ends at start, if it closes on this line."""
        depth, j, spans, s = 0, start, [], start
        while j < len(line):
            ch = line[j]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                if depth == 0:
                    if line[s:j].strip():
                        spans.append((s, j))
                    return spans if len(spans) >= 2 else None
                depth -= 1
            elif ch == "," and depth == 0:
                spans.append((s, j))
                s = j + 1
            elif ch == "|" and self.lang == "rust" and depth == 0:
                return None                                   # a closure argument
            j += 1
        return None


def label_for(kind, desc):
    if kind == "missing-statement":
        for word, label in (("call", "missing-call"), ("assignment", "missing-assignment")):
            if desc.startswith(f"delete {word} "):
                return label
    return kind


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repo", help="the task's repo/ directory")
    p.add_argument("--file", help="the source file, relative to --repo")
    p.add_argument("--lines", help="A-B: the function's first and last line")
    p.add_argument("--lang", choices=sorted(KEYWORDS))
    p.add_argument("--seed", type=int)
    p.add_argument("--task", help="a tuning task directory: the above from its task.toml")
    p.add_argument("--list", action="store_true", help="list every candidate instead")
    a = p.parse_args(argv)
    if a.task:
        import tomllib
        with open(Path(a.task) / "task.toml", "rb") as f:
            t = tomllib.load(f)
        a.repo = a.repo or str(Path(a.task) / "repo")
        a.file = a.file or t["bug_files"][0]
        a.lines = a.lines or t["seed_lines"]
        a.lang = a.lang or t["language"]
        a.seed = t["seed"] if a.seed is None else a.seed
    missing = [n for n in ("repo", "file", "lines", "lang", "seed") if getattr(a, n) is None]
    if missing:
        p.error("missing " + ", ".join("--" + n for n in missing) + " (or give --task)")
    path = Path(a.repo) / a.file
    text = path.read_text()
    lo, hi = (int(x) for x in a.lines.split("-"))
    masked, strings = mask(text, a.lang)
    d = Draw(text, masked, strings, a.lang, lo, hi)
    d.scan_tokens()
    d.scan_lines()
    kinds = sorted(k for k, v in d.cands.items() if v)
    if not kinds:
        sys.exit("no candidate mutation points in that range")
    if a.list:
        for k in kinds:
            print(f"{k}: {len(d.cands[k])}")
            for desc, *_ in d.cands[k]:
                print(f"    {desc}")
        return
    rng = random.Random(a.seed)
    kind = rng.choice(kinds)
    desc, s, e, repl = rng.choice(d.cands[kind])
    new = text[:s] + repl + text[e:]
    diff = difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                f"a/{a.file}", f"b/{a.file}")
    print(f"# seed {a.seed}: {label_for(kind, desc)} ({kind}): {desc}")
    print(f"diff --git a/{a.file} b/{a.file}")
    sys.stdout.write("".join(diff))


if __name__ == "__main__":
    main()

//! Finding a model's search text in a file: an ordered chain of matchers, strictest first.
//!
//! Models copy search text imperfectly: they drop trailing spaces, re-indent a block, collapse
//! runs of spaces, decode a `\u0300` escape into the character itself, or get one middle line
//! slightly wrong. Each matcher below forgives one more of these, and the chain stops at the
//! first matcher that finds the text:
//!
//! | matcher | compares |
//! |---|---|
//! | [`Matcher::Exact`] | the bytes |
//! | [`Matcher::TrailingNewline`] | the bytes, without the search's final newline(s) |
//! | [`Matcher::TrailingWhitespace`] | lines with trailing whitespace (and `\r`) removed |
//! | [`Matcher::IndentShifted`] | lines with one common indentation prefix swapped |
//! | [`Matcher::LineTrimmed`] | lines trimmed on both sides |
//! | [`Matcher::WhitespaceCollapsed`] | lines with whitespace runs collapsed, typographic quotes and dashes made ASCII |
//! | [`Matcher::EscapeNormalised`] | lines with `\uXXXX` / `\u{X}` escapes decoded |
//! | [`Matcher::Anchored`] | first and last lines, the middle by similarity (3+ search lines) |
//!
//! The guarantees, whatever matcher applies (a property test checks both):
//! * **One place or none.** A matcher that finds the text in two or more places refuses the
//!   edit as ambiguous, and no laxer matcher is tried: it could only find more places.
//! * **Nothing outside the match changes.** The line-based matchers replace whole lines
//!   `[start, end)` of the file, keeping the file's line terminator after the last one; every
//!   byte before `start` and from `end` on is kept.
//!
//! When a line-based matcher found the block at another indentation, the replacement is
//! re-indented by the same shift, so a model that dropped one level of indentation from both
//! its search and its replacement still writes correctly indented code.

use std::fmt;

/// The matchers of the chain, strictest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Matcher {
    /// Byte-for-byte.
    Exact,
    /// Byte-for-byte without the search's trailing newline(s).
    TrailingNewline,
    /// Lines equal after removing trailing whitespace.
    TrailingWhitespace,
    /// Lines equal after swapping one common indentation prefix.
    IndentShifted,
    /// Lines equal after trimming both sides.
    LineTrimmed,
    /// Lines equal after collapsing whitespace and normalising typographic punctuation.
    WhitespaceCollapsed,
    /// Lines equal after decoding `\u` escapes.
    EscapeNormalised,
    /// First and last lines equal (trimmed), the middle lines similar.
    Anchored,
}

impl Matcher {
    /// Every matcher, in the order the chain tries them.
    pub const CHAIN: [Matcher; 8] = [
        Matcher::Exact,
        Matcher::TrailingNewline,
        Matcher::TrailingWhitespace,
        Matcher::IndentShifted,
        Matcher::LineTrimmed,
        Matcher::WhitespaceCollapsed,
        Matcher::EscapeNormalised,
        Matcher::Anchored,
    ];

    /// The name used in traces and feedback (`exact`, `line-trimmed`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Matcher::Exact => "exact",
            Matcher::TrailingNewline => "trailing-newline",
            Matcher::TrailingWhitespace => "trailing-whitespace",
            Matcher::IndentShifted => "indent-shifted",
            Matcher::LineTrimmed => "line-trimmed",
            Matcher::WhitespaceCollapsed => "whitespace-collapsed",
            Matcher::EscapeNormalised => "escape-normalised",
            Matcher::Anchored => "anchored",
        }
    }
}

impl fmt::Display for Matcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where the search text was found and what replaces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// Byte offset of the match's start.
    pub start: usize,
    /// Byte offset just past the match.
    pub end: usize,
    /// The text that replaces `content[start..end]` (re-indented when the match was shifted).
    pub replacement: String,
    /// The matcher that found it.
    pub matcher: Matcher,
}

/// Why a search text could not be placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocateError {
    /// No matcher found it. `closest` holds the file's most similar lines (1-based number,
    /// text), to quote back to the model.
    NotFound {
        /// The closest lines of the file.
        closest: Vec<(usize, String)>,
    },
    /// A matcher found it in several places (1-based first lines of each).
    Ambiguous {
        /// The matcher that found several places.
        matcher: Matcher,
        /// The first line of each place.
        lines: Vec<usize>,
    },
    /// The search text is empty or only whitespace.
    EmptySearch,
}

impl fmt::Display for LocateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocateError::EmptySearch => f.write_str("the search text is empty"),
            LocateError::Ambiguous { lines, .. } => {
                let at: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                write!(
                    f,
                    "the search text occurs in {} places (lines {}); include more surrounding \
                     lines so it occurs exactly once",
                    lines.len(),
                    at.join(", ")
                )
            }
            LocateError::NotFound { closest } if closest.is_empty() => {
                f.write_str("the search text is not in the file")
            }
            LocateError::NotFound { closest } => {
                f.write_str(
                    "the search text is not in the file (search must quote the file as it is \
                     now, before your change); the closest lines of the file are:",
                )?;
                for (n, l) in closest {
                    write!(f, "\n    {n:>4}| {l}")?;
                }
                Ok(())
            }
        }
    }
}

/// Finds `search` in `content` with the first matcher of the chain that finds it, and says what
/// replaces it.
pub fn locate(content: &str, search: &str, replace: &str) -> Result<Located, LocateError> {
    if search.trim().is_empty() {
        return Err(LocateError::EmptySearch);
    }
    let file = Lines::of(content);
    let wanted = SearchBlock::of(search);
    for matcher in Matcher::CHAIN {
        let found = match matcher {
            Matcher::Exact => exact(content, search, replace, matcher),
            Matcher::TrailingNewline => {
                let s = search.trim_end_matches(['\n', '\r']);
                let r = replace
                    .strip_suffix(&search[s.len()..])
                    .unwrap_or_else(|| replace.trim_end_matches(['\n', '\r']));
                if s.len() == search.len() {
                    Found::None
                } else {
                    exact(content, s, r, matcher)
                }
            }
            Matcher::Anchored => anchored(&file, &wanted, replace),
            _ => by_lines(&file, &wanted, replace, matcher),
        };
        match found {
            Found::One(located) => return Ok(located),
            Found::Many(lines) => return Err(LocateError::Ambiguous { matcher, lines }),
            Found::None => {}
        }
    }
    Err(LocateError::NotFound {
        closest: closest_lines(&file, &wanted),
    })
}

/// Applies one search/replace edit: the file with the located text replaced, and the matcher
/// that found it.
pub fn apply(content: &str, search: &str, replace: &str) -> Result<(String, Matcher), LocateError> {
    let at = locate(content, search, replace)?;
    let mut out = String::with_capacity(content.len() + at.replacement.len());
    out.push_str(&content[..at.start]);
    out.push_str(&at.replacement);
    out.push_str(&content[at.end..]);
    Ok((out, at.matcher))
}

enum Found {
    None,
    One(Located),
    Many(Vec<usize>),
}

/// Byte-for-byte occurrences, overlapping ones included.
fn exact(content: &str, search: &str, replace: &str, matcher: Matcher) -> Found {
    let mut starts = Vec::new();
    let mut from = 0;
    while let Some(i) = content[from..].find(search) {
        let at = from + i;
        starts.push(at);
        if starts.len() > 8 {
            break;
        }
        from = at + content[at..].chars().next().map_or(1, char::len_utf8);
        if from > content.len() {
            break;
        }
    }
    match starts.as_slice() {
        [] => Found::None,
        [start] => Found::One(Located {
            start: *start,
            end: start + search.len(),
            replacement: replace.to_string(),
            matcher,
        }),
        many => Found::Many(
            many.iter()
                .map(|s| content[..*s].matches('\n').count() + 1)
                .collect(),
        ),
    }
}

/// The file split into lines, each with its byte range without the terminator.
struct Lines<'a> {
    text: &'a str,
    /// (start, end without `\n`) per line.
    spans: Vec<(usize, usize)>,
}

impl<'a> Lines<'a> {
    fn of(text: &'a str) -> Self {
        let mut spans = Vec::new();
        let mut start = 0;
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                spans.push((start, i));
                start = i + 1;
            }
        }
        if start < text.len() {
            spans.push((start, text.len()));
        }
        Lines { text, spans }
    }

    fn line(&self, i: usize) -> &'a str {
        let (a, b) = self.spans[i];
        &self.text[a..b]
    }

    fn len(&self) -> usize {
        self.spans.len()
    }
}

/// The search text as lines, without leading and trailing blank lines.
struct SearchBlock<'a> {
    lines: Vec<&'a str>,
}

impl<'a> SearchBlock<'a> {
    fn of(search: &'a str) -> Self {
        let mut lines: Vec<&str> = search.lines().collect();
        while lines.last().is_some_and(|l| l.trim().is_empty()) {
            lines.pop();
        }
        let first = lines
            .iter()
            .position(|l| !l.trim().is_empty())
            .unwrap_or(lines.len());
        SearchBlock {
            lines: lines.split_off(first),
        }
    }
}

/// Line-based matchers: every window of the file whose lines equal the search's lines under the
/// matcher's normalisation.
fn by_lines(file: &Lines<'_>, wanted: &SearchBlock<'_>, replace: &str, matcher: Matcher) -> Found {
    let n = wanted.lines.len();
    if n == 0 || n > file.len() {
        return Found::None;
    }
    let norm = |l: &str| normalise(l, matcher);
    let want: Vec<String> = wanted.lines.iter().map(|l| norm(l)).collect();
    let mut starts = Vec::new();
    for i in 0..=file.len() - n {
        if (0..n).all(|k| norm(file.line(i + k)) == want[k])
            && (matcher != Matcher::IndentShifted || indent_shift(file, i, wanted).is_some())
        {
            starts.push(i);
        }
    }
    match starts.as_slice() {
        [] => Found::None,
        [i] => Found::One(line_match(file, *i, n, wanted, replace, matcher)),
        many => Found::Many(many.iter().map(|i| i + 1).collect()),
    }
}

fn normalise(line: &str, matcher: Matcher) -> String {
    match matcher {
        Matcher::TrailingWhitespace => line.trim_end().to_string(),
        Matcher::IndentShifted | Matcher::LineTrimmed | Matcher::Anchored => {
            line.trim().to_string()
        }
        Matcher::WhitespaceCollapsed => collapse(line),
        Matcher::EscapeNormalised => collapse(&decode_escapes(line)),
        Matcher::Exact | Matcher::TrailingNewline => line.to_string(),
    }
}

/// Whitespace runs as one space, typographic quotes and dashes as ASCII.
fn collapse(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for word in line.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in word.chars() {
            out.push(match c {
                '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{2032}' => '\'',
                '\u{201C}' | '\u{201D}' | '\u{201F}' | '\u{2033}' => '"',
                '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
                '\u{00A0}' => ' ',
                c => c,
            });
        }
    }
    out
}

/// `\uXXXX` and `\u{X..}` escapes decoded into their characters (others kept as written).
fn decode_escapes(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find("\\u") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let (hex, used) = if let Some(body) = after.strip_prefix('{') {
            match body.find('}') {
                Some(end) if end <= 6 => (&body[..end], end + 2),
                _ => ("", 0),
            }
        } else if after.len() >= 4 && after.is_char_boundary(4) {
            (&after[..4], 4)
        } else {
            ("", 0)
        };
        match u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
            Some(c) if !hex.is_empty() => {
                out.push(c);
                rest = &after[used..];
            }
            _ => {
                out.push_str("\\u");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Leading whitespace of a line.
pub fn indent_of(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

/// The (search indent, file indent) pair when every non-blank search line is the file's line
/// with the search's indentation prefix swapped for the file's.
fn indent_shift<'f, 's>(
    file: &Lines<'f>,
    at: usize,
    wanted: &SearchBlock<'s>,
) -> Option<(&'s str, &'f str)> {
    let first = wanted.lines.iter().position(|l| !l.trim().is_empty())?;
    let from = indent_of(wanted.lines[first]);
    let to = indent_of(file.line(at + first));
    for (k, l) in wanted.lines.iter().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let rest = l.strip_prefix(from)?;
        let fl = file.line(at + k).trim_end();
        if fl.strip_prefix(to)? != rest.trim_end() {
            return None;
        }
    }
    Some((from, to))
}

/// The located block of lines `[at, at + n)` and its replacement, re-indented by the shift
/// between the search's first line and the file's.
fn line_match(
    file: &Lines<'_>,
    at: usize,
    n: usize,
    wanted: &SearchBlock<'_>,
    replace: &str,
    matcher: Matcher,
) -> Located {
    let start = file.spans[at].0;
    let mut end = file.spans[at + n - 1].1;
    if file.text[..end].ends_with('\r') {
        end -= 1;
    }
    let from = wanted
        .lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .map_or("", |l| indent_of(l));
    let to = indent_of(file.line(at));
    let body = replace.strip_suffix('\n').unwrap_or(replace);
    let body = body.strip_suffix('\r').unwrap_or(body);
    let replacement = if from == to {
        body.to_string()
    } else {
        reindent(body, from, to)
    };
    let region = &file.text[start..end];
    let mut replacement = if matcher == Matcher::EscapeNormalised {
        reescape(&replacement, region)
    } else {
        replacement
    };
    if region.contains("\r\n") {
        replacement = replacement.replace("\r\n", "\n").replace('\n', "\r\n");
    }
    Located {
        start,
        end,
        replacement,
        matcher,
    }
}

/// Each line of `text` that starts with `from` starts with `to` instead; a shallower line (the
/// model dedented less than the search) gains the difference when `to` is deeper.
pub fn reindent(text: &str, from: &str, to: &str) -> String {
    let lines: Vec<String> = text
        .split('\n')
        .map(|l| {
            if l.trim().is_empty() {
                String::new()
            } else if let Some(rest) = l.strip_prefix(from) {
                format!("{to}{rest}")
            } else if to.len() > from.len() && to.ends_with(from) {
                format!("{}{l}", &to[..to.len() - from.len()])
            } else {
                l.to_string()
            }
        })
        .collect();
    lines.join("\n")
}

/// Characters of `replacement` that the matched file region wrote as `\uXXXX` escapes are
/// written back as the same escapes (a JSON reply decoded them).
fn reescape(replacement: &str, region: &str) -> String {
    let decoded = decode_escapes(region);
    if decoded == region {
        return replacement.to_string();
    }
    let mut out = String::with_capacity(replacement.len());
    for c in replacement.chars() {
        let lower = format!("\\u{:04x}", c as u32);
        let upper = format!("\\u{:04X}", c as u32);
        if !c.is_ascii() && region.contains(&lower) {
            out.push_str(&lower);
        } else if !c.is_ascii() && region.contains(&upper) {
            out.push_str(&upper);
        } else {
            out.push(c);
        }
    }
    out
}

/// Most lines a search may span for the anchored matcher's middle to stretch or shrink.
const ANCHOR_SLACK: usize = 2;
/// Least mean similarity of the middle lines for an anchored match.
const ANCHOR_SIMILARITY: f64 = 0.6;

/// First and last search lines equal (trimmed) to a file block of about the same length whose
/// middle lines are similar on average.
fn anchored(file: &Lines<'_>, wanted: &SearchBlock<'_>, replace: &str) -> Found {
    let n = wanted.lines.len();
    if n < 3 {
        return Found::None;
    }
    let first = wanted.lines[0].trim();
    let last = wanted.lines[n - 1].trim();
    let mut hits: Vec<(usize, usize)> = Vec::new();
    for i in 0..file.len() {
        if file.line(i).trim() != first {
            continue;
        }
        let lo = i + (n - 1).saturating_sub(ANCHOR_SLACK).max(2);
        let hi = (i + n - 1 + ANCHOR_SLACK).min(file.len().saturating_sub(1));
        for j in lo..=hi {
            if j < file.len() && file.line(j).trim() == last && middle_similar(file, i, j, wanted) {
                hits.push((i, j));
                break;
            }
        }
    }
    match hits.as_slice() {
        [] => Found::None,
        [(i, j)] => Found::One(line_match(
            file,
            *i,
            j - i + 1,
            wanted,
            replace,
            Matcher::Anchored,
        )),
        many => Found::Many(many.iter().map(|(i, _)| i + 1).collect()),
    }
}

fn middle_similar(file: &Lines<'_>, i: usize, j: usize, wanted: &SearchBlock<'_>) -> bool {
    let file_mid: Vec<&str> = (i + 1..j).map(|k| file.line(k).trim()).collect();
    let want_mid: Vec<&str> = wanted.lines[1..wanted.lines.len() - 1]
        .iter()
        .map(|l| l.trim())
        .collect();
    let a = file_mid.join("\n");
    let b = want_mid.join("\n");
    similarity(&a, &b) >= ANCHOR_SIMILARITY
}

/// 1 - normalised Levenshtein distance over characters (inputs cut to 400 characters).
pub fn similarity(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().take(400).collect();
    let b: Vec<char> = b.chars().take(400).collect();
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    1.0 - edit_distance(&a, &b) as f64 / a.len().max(b.len()) as f64
}

/// The Levenshtein distance of `a` and `b`: characters inserted, deleted or replaced.
pub fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (x, ca) in a.iter().enumerate() {
        cur[0] = x + 1;
        for (y, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[y + 1] = (prev[y] + cost).min(prev[y + 1] + 1).min(cur[y] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Most lines quoted back when a search is not found.
const CLOSEST_MAX_LINES: usize = 8;
/// Files longer than this are searched for the closest first line only.
const CLOSEST_FULL_SCAN_LINES: usize = 4000;

/// The file block most similar to the search (same number of lines, capped), with numbers.
fn closest_lines(file: &Lines<'_>, wanted: &SearchBlock<'_>) -> Vec<(usize, String)> {
    let n = wanted.lines.len().clamp(1, CLOSEST_MAX_LINES);
    if file.len() == 0 || wanted.lines.is_empty() {
        return Vec::new();
    }
    let n = n.min(file.len());
    let per_window = file.len() <= CLOSEST_FULL_SCAN_LINES;
    let mut best = (f64::MIN, 0usize);
    for i in 0..=file.len() - n {
        let score = if per_window {
            (0..n)
                .map(|k| similarity(file.line(i + k).trim(), wanted.lines[k].trim()))
                .sum::<f64>()
                / n as f64
        } else {
            similarity(file.line(i).trim(), wanted.lines[0].trim())
        };
        if score > best.0 {
            best = (score, i);
        }
    }
    if best.0 < 0.3 {
        return Vec::new();
    }
    (best.1..best.1 + n)
        .map(|k| (k + 1, file.line(k).to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn applied(content: &str, search: &str, replace: &str) -> (String, Matcher) {
        apply(content, search, replace).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn exact_first() {
        let (out, m) = applied("a\nb\nc\n", "b\n", "B\n");
        assert_eq!((out.as_str(), m), ("a\nB\nc\n", Matcher::Exact));
    }

    #[test]
    fn missing_final_newline_in_search() {
        let (out, m) = applied("x = 1\ny = 2\n", "y = 2\n\n", "y = 3\n\n");
        assert_eq!(out, "x = 1\ny = 3\n");
        assert_eq!(m, Matcher::TrailingNewline);
    }

    #[test]
    fn trailing_whitespace_and_crlf() {
        let (out, m) = applied("a  \r\nb\r\nc\r\n", "a\nb\n", "A\nB\n");
        assert_eq!(out, "A\r\nB\r\nc\r\n");
        assert_eq!(m, Matcher::TrailingWhitespace);
    }

    #[test]
    fn reindented_block_is_shifted_back() {
        let file = "class S:\n    def peek(self):\n        return self.items[0]\n\n    def pop(self):\n        return self.items.pop()\n";
        let search = "def peek(self):\n    return self.items[0]\n";
        let replace = "def peek(self):\n    return self.items[-1]\n";
        let (out, m) = applied(file, search, replace);
        assert_eq!(m, Matcher::IndentShifted);
        assert!(
            out.contains("    def peek(self):\n        return self.items[-1]\n\n    def pop"),
            "{out}"
        );
    }

    #[test]
    fn collapsed_whitespace_and_typographic_quotes() {
        let file = "let s = \"it's\";\nlet t  =  1;\n";
        let (out, m) = applied(file, "let t = 1;", "let t = 2;");
        assert_eq!(m, Matcher::WhitespaceCollapsed);
        assert_eq!(out, "let s = \"it's\";\nlet t = 2;\n");
        let (_, m) = applied(file, "let s = \"it\u{2019}s\";", "let s = \"its\";");
        assert_eq!(m, Matcher::WhitespaceCollapsed);
    }

    #[test]
    fn escaped_unicode_decoded_by_json_is_found_and_reescaped() {
        let file = "  .replace(/[\\u0300-\\u036f]/g, '')\n  .toLowerCase()\n";
        let search = "  .replace(/[\u{0300}-\u{036f}]/g, '')\n";
        let replace = "  .replace(/[\u{0300}-\u{036f}]+/g, '')\n";
        let (out, m) = applied(file, search, replace);
        assert_eq!(m, Matcher::EscapeNormalised);
        assert_eq!(
            out,
            "  .replace(/[\\u0300-\\u036f]+/g, '')\n  .toLowerCase()\n"
        );
    }

    #[test]
    fn anchored_tolerates_one_wrong_middle_line() {
        let file = "def f(x):\n    y = x * 2\n    z = y + 1\n    return z\n\ndef g():\n    pass\n";
        let search = "def f(x):\n    y = x * 2\n    z = y + 2\n    return z\n";
        let replace = "def f(x):\n    return x * 2 + 1\n";
        let (out, m) = applied(file, search, replace);
        assert_eq!(m, Matcher::Anchored);
        assert_eq!(
            out,
            "def f(x):\n    return x * 2 + 1\n\ndef g():\n    pass\n"
        );
    }

    #[test]
    fn ambiguity_is_refused_at_the_strictest_level() {
        let file = "def add(a, b):\n    return a - b\n\ndef sub(a, b):\n    return a - b\n";
        match locate(file, "    return a - b\n", "    return a + b\n") {
            Err(LocateError::Ambiguous { matcher, lines }) => {
                assert_eq!(matcher, Matcher::Exact);
                assert_eq!(lines, vec![2, 5]);
            }
            other => panic!("{other:?}"),
        }
        // Overlapping occurrences count as two places.
        assert!(matches!(
            locate("aaa", "aa", "b"),
            Err(LocateError::Ambiguous { .. })
        ));
    }

    #[test]
    fn fixed_line_as_search_is_not_found_and_the_real_line_is_quoted() {
        let file = "def find_user(conn, name):\n    row = conn.execute(f\"SELECT id FROM users WHERE name = '{name}'\").fetchone()\n    return row\n";
        let search =
            "    row = conn.execute(\"SELECT id FROM users WHERE name = ?\", (name,)).fetchone()\n";
        let e = locate(file, search, search).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("   2| "), "{text}");
        assert!(text.contains("WHERE name = '{name}'"), "{text}");
    }

    #[test]
    fn copied_placeholder_prose_is_not_found() {
        let file = "def spread(values):\n    return max(values) - min(values)\n";
        let search = "def spread(values): ...unchanged body, written out in full...\n";
        assert!(matches!(
            locate(file, search, "x"),
            Err(LocateError::NotFound { .. })
        ));
    }

    #[test]
    fn empty_search_is_refused() {
        assert_eq!(locate("a\n", "  \n", "b"), Err(LocateError::EmptySearch));
    }

    #[test]
    fn escapes_decode() {
        assert_eq!(decode_escapes("a\\u0041\\u{42}\\uZZ"), "aAB\\uZZ");
    }
}

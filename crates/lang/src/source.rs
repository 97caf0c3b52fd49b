//! A source text parsed at most once: the tree-sitter tree, the analysis and the scope
//! resolutions of one file version all come from the same parse. A version made from an
//! earlier one (the after text of a modified file) is parsed incrementally from the earlier
//! version's tree.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use similar::{DiffTag, TextDiff};
use tree_sitter::{InputEdit, Point, Tree};

use crate::{Language, NameUses, SourceAnalysis, analyze, scope, ts};

/// One version of one source file with its parse, made on first use and then shared: a
/// caller that asks for the analysis and for the scopes of some names pays for one
/// tree-sitter parse, not two. Cheap to share behind an [`Arc`]; safe to use from several
/// threads (the parse and the analysis are each computed once).
pub struct ParsedSource {
    language: Language,
    text: Arc<str>,
    /// An earlier version of the text in the same language, whose tree the parse starts from.
    base: Option<Arc<ParsedSource>>,
    /// `None` inside: the parse was cut short by the time budget.
    tree: OnceLock<Option<Tree>>,
    /// The tree's parse has started (on some thread); it may not be finished.
    parse_started: AtomicBool,
    analysis: OnceLock<SourceAnalysis>,
}

impl std::fmt::Debug for ParsedSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParsedSource")
            .field("language", &self.language)
            .field("bytes", &self.text.len())
            .field("parsed", &self.tree.get().is_some())
            .finish()
    }
}

impl ParsedSource {
    /// `text` as source of `language`; nothing is parsed yet.
    pub fn new(language: Language, text: impl Into<Arc<str>>) -> ParsedSource {
        ParsedSource {
            language,
            text: text.into(),
            base: None,
            tree: OnceLock::new(),
            parse_started: AtomicBool::new(false),
            analysis: OnceLock::new(),
        }
    }

    /// `text` as a new version of `base` (same language): nothing is parsed yet; the parse,
    /// when asked for, parses `base` (if not yet) and re-parses only what the edits from
    /// `base`'s text to `text` touched. The tree is the one a fresh parse gives (tree-sitter's
    /// incremental parsing guarantees it for valid text; a tree with any error or missing node
    /// is thrown away and the text parsed afresh, so error recovery is never incremental).
    pub fn edited(base: Arc<ParsedSource>, text: impl Into<Arc<str>>) -> ParsedSource {
        ParsedSource {
            base: Some(base.clone()),
            ..ParsedSource::new(base.language, text)
        }
    }

    /// `text` whose analysis is already known (kept from an earlier check): the analysis is
    /// not recomputed, and the tree is parsed only if something asks for scopes.
    pub fn with_analysis(
        language: Language,
        text: impl Into<Arc<str>>,
        analysis: SourceAnalysis,
    ) -> ParsedSource {
        let source = ParsedSource::new(language, text);
        let _ = source.analysis.set(analysis);
        source
    }

    /// The analysis when it has been computed or supplied, without computing it.
    pub fn known_analysis(&self) -> Option<&SourceAnalysis> {
        self.analysis.get()
    }

    /// The language the text is parsed as.
    pub fn language(&self) -> Language {
        self.language
    }

    /// The source text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The tree-sitter tree, parsed on first use (`None` when the parse was cut short).
    fn tree(&self) -> Option<&Tree> {
        self.tree
            .get_or_init(|| {
                self.parse_started.store(true, Ordering::Release);
                self.incremental_parse()
                    .or_else(|| ts::parse(self.language, &self.text))
            })
            .as_ref()
    }

    /// The tree re-parsed from the base version's, when there is a base and the result holds
    /// no error or missing node (`None` otherwise: parse afresh). The base is parsed first if
    /// need be, and a base another thread is parsing is waited for: re-parsing costs a few
    /// percent of a fresh parse, so the wait is shorter than parsing this text afresh (see
    /// `guards::run_static_parallel`). A base whose analysis is known while nothing has parsed
    /// its tree (kept from an earlier check) is not parsed just to start from: a fresh parse
    /// of this text costs less than that parse.
    fn incremental_parse(&self) -> Option<Tree> {
        let base = self.base.as_ref()?;
        if base.tree_unwanted() {
            return None;
        }
        let mut old = base.tree()?.clone();
        for edit in input_edits(&base.text, &self.text) {
            old.edit(&edit);
        }
        ts::reparse(self.language, &self.text, &old).filter(|t| !t.root_node().has_error())
    }

    /// Whether the analysis is already known and nothing has started to parse the tree.
    fn tree_unwanted(&self) -> bool {
        self.analysis.get().is_some() && !self.parse_started.load(Ordering::Acquire)
    }

    /// What [`crate::analyze`] returns for this text, computed once.
    pub fn analysis(&self) -> &SourceAnalysis {
        self.analysis
            .get_or_init(|| analyze::analyze_with(self.language, &self.text, || self.tree()))
    }

    /// What [`crate::names_uses`] returns for this text and `names`, from the shared parse.
    pub fn names_uses(&self, names: &[&str]) -> Option<Vec<NameUses>> {
        scope::names_uses_with(self.language, &self.text, names, || self.tree())
    }

    /// What [`crate::code_tokens`] returns for this text, from the shared parse.
    pub fn code_tokens(&self) -> Option<Vec<crate::CodeToken>> {
        let tree = self.tree()?;
        Some(crate::code_tokens::code_tokens_in(
            self.language,
            &self.text,
            tree,
        ))
    }

    /// What [`crate::go_package`] returns for this text (a Go file), from the shared parse.
    pub fn go_package(&self) -> Option<String> {
        if self.language != Language::Go {
            return None;
        }
        crate::module_interface::go_package_in(&self.text, self.tree()?)
    }

    /// What [`crate::python_dunder_all`] returns for this text (a Python file), from the
    /// shared parse; not parsed at all when the text never says `__all__`.
    pub fn python_dunder_all(&self) -> Option<Vec<(String, u32)>> {
        if self.language != Language::Python {
            return None;
        }
        if !self.text.contains("__all__") {
            return Some(Vec::new());
        }
        let tree = self.tree()?;
        Some(crate::module_interface::python_dunder_all_in(
            &self.text, tree,
        ))
    }
}

/// The line-level edits that turn `old` into `new`, in order, each in the coordinates of the
/// text with the edits before it applied (as `Tree::edit` takes them one after another).
fn input_edits(old: &str, new: &str) -> Vec<InputEdit> {
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(100))
        .diff_lines(old, new);
    let old_lines: Vec<usize> = diff.iter_old_slices().map(|l| l.len()).collect();
    let new_lines: Vec<usize> = diff.iter_new_slices().map(|l| l.len()).collect();
    let bytes = |lines: &[usize], r: std::ops::Range<usize>| -> usize { lines[r].iter().sum() };
    let (mut old_at, mut new_at) = (0, 0);
    let mut point = Point::new(0, 0);
    let mut edits = Vec::new();
    for op in diff.ops() {
        let old_len = bytes(&old_lines, op.old_range());
        let new_len = bytes(&new_lines, op.new_range());
        let new_part = &new[new_at..new_at + new_len];
        if op.tag() != DiffTag::Equal {
            edits.push(InputEdit {
                start_byte: new_at,
                old_end_byte: new_at + old_len,
                new_end_byte: new_at + new_len,
                start_position: point,
                old_end_position: advance(point, &old[old_at..old_at + old_len]),
                new_end_position: advance(point, new_part),
            });
        }
        point = advance(point, new_part);
        old_at += old_len;
        new_at += new_len;
    }
    edits
}

/// The position after `text` when it starts at `from` (columns in bytes, as tree-sitter's).
fn advance(from: Point, text: &str) -> Point {
    match text.rfind('\n') {
        Some(last) => Point::new(from.row + text.matches('\n').count(), text.len() - last - 1),
        None => Point::new(from.row, from.column + text.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PY: &str =
        "import os\n\ndef helper(x):\n    return os.path.join(x)\n\ndef main():\n    helper(1)\n";

    #[test]
    fn analysis_and_scopes_share_one_parse() {
        let before = crate::parse_count();
        let p = ParsedSource::new(Language::Python, PY);
        assert_eq!(crate::parse_count(), before, "nothing is parsed up front");
        let a = p.analysis();
        let uses = p
            .names_uses(&["helper", "main"])
            .expect("python has scopes");
        let again = p.analysis();
        assert!(std::ptr::eq(a, again));
        assert_eq!(crate::parse_count(), before + 1, "one parse for everything");
        assert_eq!(*a, crate::analyze(Language::Python, PY));
        assert_eq!(
            uses,
            crate::names_uses(Language::Python, PY, &["helper", "main"]).unwrap()
        );
        assert_eq!(uses[0].free_uses, vec![7]);
    }

    /// Every node of `tree` in pre-order: kind, byte range, positions, error flags.
    fn nodes(tree: &Tree) -> Vec<String> {
        let mut out = Vec::new();
        let mut cursor = tree.walk();
        'walk: loop {
            let n = cursor.node();
            out.push(format!(
                "{} {:?} {:?}-{:?} {} {}",
                n.kind(),
                n.byte_range(),
                n.start_position(),
                n.end_position(),
                n.is_error(),
                n.is_missing()
            ));
            if cursor.goto_first_child() || cursor.goto_next_sibling() {
                continue;
            }
            while cursor.goto_parent() {
                if cursor.goto_next_sibling() {
                    continue 'walk;
                }
            }
            break;
        }
        out
    }

    #[test]
    fn an_edited_version_parses_to_the_fresh_tree() {
        let cases = [
            (
                Language::Python,
                PY,
                PY.replace("helper(1)", "helper(2)\n    helper(3)"),
            ),
            (Language::Python, PY, PY.replace("import os\n", "")),
            (
                Language::Python,
                PY,
                format!("{PY}\nclass K:\n    def m(self):\n        pass"),
            ),
            (
                Language::Python,
                PY,
                PY.replace("def main():", "def main(:"),
            ),
            (
                Language::Rust,
                "fn a() {}\n\nfn b() -> u8 {\n    1\n}\n",
                "fn a() {}\n// é\nfn b() -> u8 {\n    2 + 1\n}".to_string(),
            ),
            (Language::Rust, "", "fn main() {}\n".to_string()),
            (
                Language::Python,
                PY_BLOCKS,
                PY_BLOCKS.replace(
                    "        elif isinstance(data, bytes):\n",
                    "        elif x:\n",
                ),
            ),
            (
                Language::Python,
                PY_BLOCKS,
                PY_BLOCKS.replace("\n\ndef h():", "\n\ndef added():\n    pass\n\n\ndef h():"),
            ),
        ];
        for (lang, old, new) in cases {
            let base = Arc::new(ParsedSource::new(lang, old));
            let edited = ParsedSource::edited(base.clone(), new.as_str());
            let fresh = ParsedSource::new(lang, new.as_str());
            assert_eq!(
                nodes(edited.tree().unwrap()),
                nodes(fresh.tree().unwrap()),
                "{new}"
            );
            assert_eq!(edited.analysis(), fresh.analysis(), "{new}");
        }
    }

    #[test]
    fn an_edited_version_is_parsed_incrementally() {
        let base = Arc::new(ParsedSource::new(Language::Python, PY));
        base.analysis();
        let edited = ParsedSource::edited(base, PY.replace("helper(1)", "helper(2)"));
        assert!(edited.incremental_parse().is_some());
        // A broken edit is parsed afresh (its error recovery is not incremental).
        let base = Arc::new(ParsedSource::new(Language::Python, PY));
        let broken = ParsedSource::edited(base, PY.replace("def main():", "def main(:"));
        assert!(broken.incremental_parse().is_none());
        assert!(!broken.analysis().syntax_errors.is_empty());
    }

    /// Python whose `elif` line an edit replaces: the `_newline` and `_dedent` tokens that end
    /// the `return` before it are marked changed by the edit (their scanner looked ahead to
    /// the `elif`), the case the patched tree-sitter re-parses by descending into the old
    /// nodes after it (`vendor/README.md`).
    const PY_BLOCKS: &str = "class A:\n    @staticmethod\n    def f(data):\n        if isinstance(data, str):\n            return data\n        elif isinstance(data, bytes):\n            return data\n        else:\n            return None\n\n    def g(self):\n        return 1\n\n\ndef h():\n    return 2\n";

    #[test]
    fn no_parse_when_no_name_occurs() {
        let before = crate::parse_count();
        let p = ParsedSource::new(Language::Python, PY);
        let uses = p.names_uses(&["absent_name"]).expect("python has scopes");
        assert_eq!(uses, vec![NameUses::default()]);
        assert_eq!(crate::parse_count(), before);
    }

    #[test]
    fn c_header_holding_cpp_is_analysed_as_cpp_like_analyze() {
        let src = "namespace a {\nclass B { public: int f(); };\n}\n";
        let p = ParsedSource::new(Language::C, src);
        assert_eq!(*p.analysis(), crate::analyze(Language::C, src));
        assert!(p.analysis().syntax_errors.is_empty());
    }

    #[test]
    fn broken_c_falls_back_to_cpp_like_analyze() {
        let src = "int f(void) {\n  return 1;\n";
        let p = ParsedSource::new(Language::C, src);
        assert_eq!(*p.analysis(), crate::analyze(Language::C, src));
    }
}

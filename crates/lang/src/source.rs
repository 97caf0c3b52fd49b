//! A source text parsed at most once: the tree-sitter tree, the analysis and the scope
//! resolutions of one file version all come from the same parse.

use std::sync::{Arc, OnceLock};

use tree_sitter::Tree;

use crate::{Language, NameUses, SourceAnalysis, analyze, scope, ts};

/// One version of one source file with its parse, made on first use and then shared: a
/// caller that asks for the analysis and for the scopes of some names pays for one
/// tree-sitter parse, not two. Cheap to share behind an [`Arc`]; safe to use from several
/// threads (the parse and the analysis are each computed once).
pub struct ParsedSource {
    language: Language,
    text: Arc<str>,
    /// `None` inside: the parse was cut short by the time budget.
    tree: OnceLock<Option<Tree>>,
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
            tree: OnceLock::new(),
            analysis: OnceLock::new(),
        }
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
            .get_or_init(|| ts::parse(self.language, &self.text))
            .as_ref()
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

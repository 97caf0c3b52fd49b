//! What a guard sees: the change, per-file views with lazily parsed before/after versions,
//! the task, the configuration and (lazily) the repository fingerprint.
//!
//! Every source text a guard parses goes through the context's [`ParseCache`]: a file
//! version is parsed by tree-sitter once per check, whichever guards read its analysis or
//! resolve names in it, and whether it is a file of the change or one a guard reads from the
//! tree (an importer, a user of a removed symbol).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, OnceLock};

use slopguard_change::{ChangeKind, ChangeSet, FileChange, Task, Tree};
use slopguard_fingerprint::Fingerprint;
use slopguard_lang::{FileKind, Language, ParsedSource, SourceAnalysis};

use crate::text::LineChanges;
use crate::{Config, ParseCache, Severity};

/// Decodes bytes as text for guards: `None` for non-UTF-8 or NUL-containing (binary) content.
pub(crate) fn decode_text(bytes: &[u8]) -> Option<&str> {
    if memchr_nul(bytes) {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

fn memchr_nul(bytes: &[u8]) -> bool {
    bytes.contains(&0)
}

/// One touched file, with everything derived from it computed at most once.
pub struct FileView<'a> {
    change: &'a FileChange,
    kind: FileKind,
    parses: Arc<ParseCache>,
    before_source: OnceLock<Option<Arc<ParsedSource>>>,
    after_source: OnceLock<Option<Arc<ParsedSource>>>,
    line_changes: OnceLock<LineChanges<'a>>,
    /// [`FileView::before_text`] and [`FileView::after_text`], decoded once: most guards ask
    /// for them, and each decoding scans the whole file (for a NUL byte, then UTF-8).
    before_text: OnceLock<Option<&'a str>>,
    after_text: OnceLock<Option<&'a str>>,
    /// The version after is over the containment guard's size cap: the change is blocked for
    /// that whatever else is found, so neither version is parsed (a generated file of tens of
    /// megabytes would cost seconds and hundreds of megabytes).
    unparsed: bool,
}

impl<'a> FileView<'a> {
    fn new(change: &'a FileChange, parses: Arc<ParseCache>, size_cap: Option<u64>) -> FileView<'a> {
        let sample = change
            .after
            .as_deref()
            .or(change.before.as_deref())
            .unwrap_or_default();
        let head = &sample[..sample.len().min(256)];
        FileView {
            change,
            kind: slopguard_lang::detect(&change.path, head),
            parses,
            before_source: OnceLock::new(),
            after_source: OnceLock::new(),
            line_changes: OnceLock::new(),
            before_text: OnceLock::new(),
            after_text: OnceLock::new(),
            unparsed: size_cap.is_some_and(|cap| {
                !change.after_is_symlink
                    && change.after.as_ref().is_some_and(|a| a.len() as u64 > cap)
            }),
        }
    }

    /// The path after the change.
    pub fn path(&self) -> &'a str {
        &self.change.path
    }

    /// The underlying change.
    pub fn change(&self) -> &'a FileChange {
        self.change
    }

    /// What kind of file this is.
    pub fn kind(&self) -> FileKind {
        self.kind
    }

    /// Whether the file existed before and still exists (modify or rename).
    pub fn is_modify(&self) -> bool {
        matches!(
            self.change.kind,
            ChangeKind::Modify | ChangeKind::Rename { .. }
        )
    }

    /// Content before, as text (`None` when absent or binary).
    pub fn before_text(&self) -> Option<&'a str> {
        *self
            .before_text
            .get_or_init(|| self.change.before.as_deref().and_then(decode_text))
    }

    /// Content after, as text (`None` when absent, binary or a symlink).
    pub fn after_text(&self) -> Option<&'a str> {
        *self.after_text.get_or_init(|| {
            if self.change.after_is_symlink {
                return None;
            }
            self.change.after.as_deref().and_then(decode_text)
        })
    }

    fn source(&self, text: Option<&str>) -> Option<Arc<ParsedSource>> {
        match (self.kind, text) {
            (FileKind::Code(lang), Some(t)) if !self.unparsed => Some(self.parses.get(lang, t)),
            _ => None,
        }
    }

    /// The before version as a shared parse, for source files (`None` for a file over the
    /// containment guard's size cap).
    pub fn before_source(&self) -> Option<&ParsedSource> {
        self.before_source
            .get_or_init(|| self.source(self.before_text()))
            .as_deref()
    }

    /// The after version as a shared parse, for source files. A modified file's after version
    /// is parsed from its before version's tree (which the guards parse anyway to compare
    /// definitions), re-parsing only around the change. `None` for a file over the containment
    /// guard's size cap.
    pub fn after_source(&self) -> Option<&ParsedSource> {
        self.after_source
            .get_or_init(|| match (self.kind, self.after_text()) {
                (FileKind::Code(lang), Some(t)) if !self.unparsed => {
                    let base = self
                        .before_source
                        .get_or_init(|| self.source(self.before_text()));
                    Some(self.parses.get_edited(lang, t, base.clone()))
                }
                _ => None,
            })
            .as_deref()
    }

    /// The lines the change adds to and removes from this file (an absent side is empty),
    /// from one line diff shared by every guard that reads it.
    pub fn line_changes(&self) -> &LineChanges<'a> {
        self.line_changes.get_or_init(|| {
            crate::text::line_changes(
                self.before_text().unwrap_or(""),
                self.after_text().unwrap_or(""),
            )
        })
    }

    /// Parsed before version, for source files.
    pub fn before_analysis(&self) -> Option<&SourceAnalysis> {
        self.before_source().map(ParsedSource::analysis)
    }

    /// Parsed after version, for source files.
    pub fn after_analysis(&self) -> Option<&SourceAnalysis> {
        self.after_source().map(ParsedSource::analysis)
    }
}

/// Everything a guard may look at while judging one change.
pub struct Context<'a> {
    change: &'a ChangeSet,
    task: Option<&'a Task>,
    config: &'a Config,
    /// Views of the paths the guards judge.
    files: Vec<FileView<'a>>,
    /// Views of excluded paths (only containment looks at them).
    excluded: Vec<FileView<'a>>,
    fingerprint: OnceLock<Option<Fingerprint>>,
    metrics: Mutex<BTreeMap<String, f64>>,
    parses: Arc<ParseCache>,
}

impl<'a> Context<'a> {
    /// A context for judging `change`.
    pub fn new(change: &'a ChangeSet, task: Option<&'a Task>, config: &'a Config) -> Context<'a> {
        Context::with_parses(change, task, config, Arc::new(ParseCache::default()))
    }

    /// A context for judging `change` whose parses go through `parses` (which may keep
    /// analyses between checks, see [`ParseCache::with_store`]).
    pub fn with_parses(
        change: &'a ChangeSet,
        task: Option<&'a Task>,
        config: &'a Config,
        parses: Arc<ParseCache>,
    ) -> Context<'a> {
        // Only while containment blocks for the size: set to warn, it lets the file land, so
        // the other guards must still read it.
        let containment = crate::guards::containment::INFO.slug;
        let size_cap = (config.enabled(containment)
            && config.common(containment).severity != Some(crate::config::SeverityOverride::Warn))
        .then(|| {
            config
                .settings::<crate::guards::containment::Settings>(containment)
                .max_file_bytes
        });
        let (files, excluded): (Vec<FileView<'a>>, Vec<FileView<'a>>) = change
            .changes
            .iter()
            .map(|c| FileView::new(c, parses.clone(), size_cap))
            .partition(|f| !config.excluded(f.path()) && !config.excluded(f.change().old_path()));
        Context {
            change,
            task,
            config,
            files,
            excluded,
            fingerprint: OnceLock::new(),
            metrics: Mutex::new(BTreeMap::new()),
            parses,
        }
    }

    /// The shared parse of a source text: files of the change are parsed through the same
    /// cache (see [`FileView::after_source`]), so any text is parsed once per check.
    pub fn source(&self, language: Language, text: &str) -> Arc<ParsedSource> {
        self.parses.get(language, text)
    }

    /// The parse cache of this check.
    pub fn parses(&self) -> &ParseCache {
        &self.parses
    }

    /// The change being judged.
    pub fn change(&self) -> &'a ChangeSet {
        self.change
    }

    /// The task the change was made for, when one was given.
    pub fn task(&self) -> Option<&'a Task> {
        self.task
    }

    /// The configuration.
    pub fn config(&self) -> &'a Config {
        self.config
    }

    /// One view per touched file the guards judge (excluded paths — test fixtures, vendored
    /// code, see [`crate::config::DEFAULT_EXCLUDE`] — are left out).
    pub fn files(&self) -> &[FileView<'a>] {
        &self.files
    }

    /// The view of the judged touched file at `path` ([`Self::files`]), if there is one.
    pub fn file(&self, path: &str) -> Option<&FileView<'a>> {
        self.files.iter().find(|f| f.path() == path)
    }

    /// One view per touched file, excluded paths included (for containment).
    pub fn all_files(&self) -> impl Iterator<Item = &FileView<'a>> + '_ {
        self.files.iter().chain(&self.excluded)
    }

    /// The tree before the change.
    pub fn base(&self) -> &'a dyn Tree {
        self.change.base.as_ref()
    }

    /// Whether `path` (a file or directory) exists once the change is applied.
    pub fn exists_after(&self, path: &str) -> bool {
        let p = path.trim_start_matches("./").trim_end_matches('/');
        if p.is_empty() {
            return true;
        }
        let dir_prefix = format!("{p}/");
        for c in &self.change.changes {
            if c.path == p {
                return c.after.is_some();
            }
            if c.after.is_some() && c.path.starts_with(&dir_prefix) {
                return true;
            }
        }
        if self.change.changes.iter().any(|c| c.old_path() == p) {
            return false;
        }
        self.base().exists(p)
    }

    /// Paths that may contain one of `words` as a whole word after the change: the base tree's
    /// matches (one search for all words) less the paths the change removes, plus every path
    /// the change leaves with content, whether it matches or not (callers read those from the
    /// change anyway). For guards that look for users of something the change removed.
    pub fn files_mentioning(&self, words: &[String]) -> BTreeSet<String> {
        let mut words = words.to_vec();
        words.sort();
        words.dedup();
        let mut paths: BTreeSet<String> = self
            .base()
            .grep_words(&words)
            .unwrap_or_default()
            .into_iter()
            .collect();
        for c in &self.change.changes {
            paths.remove(c.old_path());
            if c.after.is_some() {
                paths.insert(c.path.clone());
            }
        }
        paths
    }

    /// Reads `path` as it is after the change.
    pub fn read_after(&self, path: &str) -> Option<Vec<u8>> {
        match self.change.get(path) {
            Some(c) => c.after.clone(),
            None if self.change.changes.iter().any(|c| c.old_path() == path) => None,
            None => self.base().read(path).ok().flatten(),
        }
    }

    /// Every file path after the change.
    pub fn files_after(&self) -> Vec<String> {
        let mut out: Vec<String> = self.base().files().map(|f| f.to_vec()).unwrap_or_default();
        let gone: std::collections::HashSet<&str> = self
            .change
            .changes
            .iter()
            .filter(|c| c.after.is_none() || c.old_path() != c.path)
            .map(|c| c.old_path())
            .collect();
        out.retain(|f| !gone.contains(f.as_str()));
        for c in &self.change.changes {
            if c.after.is_some() && !out.contains(&c.path) {
                out.push(c.path.clone());
            }
        }
        out
    }

    /// The repository fingerprint after the change, computed once on first use.
    pub fn fingerprint(&self) -> Option<&Fingerprint> {
        self.fingerprint
            .get_or_init(|| crate::context::compute_fingerprint(self))
            .as_ref()
    }

    /// Supplies a precomputed fingerprint (the pipeline computes it once per run).
    pub fn set_fingerprint(&self, fp: Fingerprint) {
        let _ = self.fingerprint.set(Some(fp));
    }

    /// Deserialized `[guards.<slug>]` settings (see [`Config::settings`]).
    pub fn settings<T: serde::de::DeserializeOwned + Default>(&self, slug: &str) -> T {
        self.config.settings(slug)
    }

    /// The severity for findings that depend on intent: block when a task says what the
    /// change is for, warn when there is none to compare against.
    pub fn intent_severity(&self) -> Severity {
        if self.task.is_some() {
            Severity::Block
        } else {
            Severity::Warn
        }
    }

    /// Records a numeric metric for the report (e.g. `psi`).
    pub fn record_metric(&self, name: &str, value: f64) {
        if let Ok(mut m) = self.metrics.lock() {
            m.insert(name.to_string(), value);
        }
    }

    /// The metrics recorded so far.
    pub fn metrics(&self) -> BTreeMap<String, f64> {
        self.metrics.lock().map(|m| m.clone()).unwrap_or_default()
    }
}

/// The tree after the change, as the fingerprint crate reads it.
struct AfterTree<'c, 'a> {
    cx: &'c Context<'a>,
}

impl slopguard_fingerprint::FileSource for AfterTree<'_, '_> {
    fn files(&self) -> Vec<String> {
        self.cx.files_after()
    }

    fn read(&self, path: &str) -> Option<Vec<u8>> {
        self.cx.read_after(path)
    }

    /// Commit bases are immutable, so the key is the base commit plus everything the change
    /// does to the file list and to manifests (the only inputs of a fingerprint).
    fn cache_key(&self) -> Option<String> {
        let base = self.cx.base().id();
        // Only commit ids name immutable content; working trees change and every in-memory
        // tree shares the id `memory`.
        if base.starts_with("worktree:") || base == "memory" {
            return None;
        }
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for c in &self.cx.change.changes {
            let structural = !matches!(c.kind, slopguard_change::ChangeKind::Modify);
            let manifest = crate::guards::manifest_block::manifest_ecosystem(&c.path).is_some();
            if structural || manifest {
                c.path.hash(&mut h);
                c.old_path().hash(&mut h);
                c.after.hash(&mut h);
            }
        }
        Some(format!("{base}:{:x}", h.finish()))
    }
}

/// Computes the fingerprint of the tree after the change.
fn compute_fingerprint(cx: &Context<'_>) -> Option<Fingerprint> {
    Some(slopguard_fingerprint::compute_from(&AfterTree { cx }))
}

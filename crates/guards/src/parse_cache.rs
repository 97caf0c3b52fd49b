//! Parsing each source text once: within a check ([`ParseCache`]) and across checks
//! ([`AnalysisStore`]).
//!
//! Parsing is most of a check's time (a 100 KB Python file costs tree-sitter ~15 ms per
//! version), and the same file versions come back again and again: an agent's next edit
//! starts from the text the previous check judged as the after version, a commit is checked
//! again, a hook sees the same base file on every edit. The store keeps the analyses of
//! texts it has seen, so those versions are not parsed again; the tree itself is parsed only
//! if a guard resolves scopes in that version.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use slopguard_change::cache::{oldest_first, write_replacing};
use slopguard_lang::{Language, ParsedSource, SourceAnalysis};

/// The parsed source texts of one check, keyed by language and content: the same text is
/// parsed once, whoever asks (two guards, a file of the change and the same file read from
/// the base tree, a rename that keeps the content). With an [`AnalysisStore`], a text whose
/// analysis an earlier check kept is not parsed at all, and [`ParseCache::save_new`] keeps
/// this check's new analyses for the next.
#[derive(Default)]
pub struct ParseCache {
    /// Hash of (language, text) to the sources with that hash (texts compared on lookup).
    map: Mutex<HashMap<u64, Vec<Cached>>>,
    store: Option<AnalysisStore>,
    /// Sources are kept up to this many bytes of text (their trees take some ten times as
    /// much), the oldest dropped first (`None`: no limit, for a cache that lives one check).
    limit: Option<usize>,
    /// Keys and text sizes in the order their sources were added, with the sizes' total.
    order: Mutex<(std::collections::VecDeque<(u64, usize)>, usize)>,
}

struct Cached {
    source: Arc<ParsedSource>,
    /// Its analysis came from the store (nothing to save).
    from_store: bool,
}

impl ParseCache {
    /// A cache that reads and keeps analyses in `store`.
    pub fn with_store(store: AnalysisStore) -> ParseCache {
        ParseCache {
            store: Some(store),
            ..ParseCache::default()
        }
    }

    /// A cache that outlives one check and keeps the most recently added sources, up to
    /// `max_text_bytes` of text (the newest is kept whatever its size): for a sequence of
    /// changes where one change's before versions are often the next one's versions
    /// (`replay` walks a history, a commit's parent next).
    pub fn bounded(max_text_bytes: usize) -> ParseCache {
        ParseCache {
            limit: Some(max_text_bytes),
            ..ParseCache::default()
        }
    }

    /// The shared parse of `text` as `language`, created (unparsed) on first request.
    pub fn get(&self, language: Language, text: &str) -> Arc<ParsedSource> {
        self.get_edited(language, text, None)
    }

    /// [`ParseCache::get`] for a text that is a new version of `base` (of the same language):
    /// created with that base, it is parsed incrementally from the base's tree (see
    /// [`ParsedSource::edited`]). A text already in the cache is returned as it is.
    pub fn get_edited(
        &self,
        language: Language,
        text: &str,
        base: Option<Arc<ParsedSource>>,
    ) -> Arc<ParsedSource> {
        let hash = text_hash(language, text);
        // The map's key: half of the hash (texts are compared on lookup).
        let key = hash as u64;
        if let Some(found) = self.find(key, language, text) {
            return found;
        }
        // Read from the store without holding the lock: the other thread may be parsing.
        let stored = self.store.as_ref().and_then(|s| s.load_hashed(hash, text));
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        let bucket = map.entry(key).or_default();
        if let Some(c) = bucket
            .iter()
            .find(|c| c.source.language() == language && c.source.text() == text)
        {
            return c.source.clone();
        }
        let from_store = stored.is_some();
        let source = Arc::new(match (stored, base) {
            (Some(analysis), _) => ParsedSource::with_analysis(language, text, analysis),
            (None, Some(base)) if base.language() == language => ParsedSource::edited(base, text),
            (None, _) => ParsedSource::new(language, text),
        });
        bucket.push(Cached {
            source: source.clone(),
            from_store,
        });
        self.keep_within_limit(&mut map, key, text.len());
        source
    }

    /// The cached source of `text`, if any.
    fn find(&self, key: u64, language: Language, text: &str) -> Option<Arc<ParsedSource>> {
        let map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        map.get(&key)?
            .iter()
            .find(|c| c.source.language() == language && c.source.text() == text)
            .map(|c| c.source.clone())
    }

    /// Records a source of `len` bytes just added under `key`, and drops the oldest sources
    /// while a bounded cache holds more text than its limit (the newest always stays).
    fn keep_within_limit(&self, map: &mut HashMap<u64, Vec<Cached>>, key: u64, len: usize) {
        let Some(limit) = self.limit else {
            return;
        };
        let mut guard = self.order.lock().unwrap_or_else(|p| p.into_inner());
        let (order, total) = &mut *guard;
        order.push_back((key, len));
        *total += len;
        while *total > limit && order.len() > 1 {
            let Some((oldest, size)) = order.pop_front() else {
                break;
            };
            *total -= size;
            // A bucket's sources were added in order: its first is the oldest.
            if let Some(bucket) = map.get_mut(&oldest) {
                bucket.remove(0);
                if bucket.is_empty() {
                    map.remove(&oldest);
                }
            }
        }
    }

    /// Keeps in the store every analysis this check computed (none without a store). Returns
    /// how many were written.
    pub fn save_new(&self) -> usize {
        let Some(store) = &self.store else {
            return 0;
        };
        let map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        map.values()
            .flatten()
            .filter(|c| !c.from_store)
            .filter_map(|c| Some((&c.source, c.source.known_analysis()?)))
            .filter(|(source, analysis)| store.save(source.language(), source.text(), analysis))
            .count()
    }

    /// How many distinct source texts the cache holds.
    pub fn len(&self) -> usize {
        let map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        map.values().map(Vec::len).sum()
    }

    /// Whether the cache holds no source yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Texts shorter than this are parsed every time: reading a file costs about what their
/// parse does.
const MIN_STORED_TEXT: usize = 2048;
/// Entries kept per shard (256 shards): at most ~16k analyses, oldest dropped first.
const MAX_PER_SHARD: usize = 64;
/// Build directories kept besides the current one (other slopguard builds in use).
const OTHER_BUILDS_KEPT: usize = 2;

/// Analyses of source texts kept on disk between checks, one file per text (the analysis in
/// postcard's compact binary form: read back several times faster than JSON), named by a
/// 128-bit hash of language and text ([`text_hash`]), under a directory per build of slopguard (an analysis
/// is only as right as the code that made it, so a rebuilt binary starts afresh).
///
/// Where: `check --cache-dir`, else `$SLOPGUARD_CACHE_DIR`, else the user's cache directory
/// (`~/.cache/slopguard` on Linux). `SLOPGUARD_NO_CACHE=1` (or `check --no-cache`) turns it off. Every failure to
/// read or write is a cache miss, never an error: the check parses instead.
#[derive(Debug, Clone)]
pub struct AnalysisStore {
    dir: PathBuf,
}

impl AnalysisStore {
    /// The store under `root` when given, else where the environment says; `None` when
    /// `SLOPGUARD_NO_CACHE` turns it off or when there is no cache directory.
    pub fn from_env(root: Option<&Path>) -> Option<AnalysisStore> {
        AnalysisStore::under(&slopguard_change::cache_dir(root)?)
    }

    /// The store of this build under `root` (created on first save).
    pub fn under(root: &Path) -> Option<AnalysisStore> {
        Some(AnalysisStore {
            dir: root.join("analysis").join(build_stamp()?),
        })
    }

    /// The directory this build's analyses are kept in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, language: Language, text: &str) -> PathBuf {
        self.path_of(text_hash(language, text))
    }

    /// The entry of the text whose [`text_hash`] is `hash`: 32 hex digits, the first two
    /// naming its shard.
    fn path_of(&self, hash: u128) -> PathBuf {
        let key = format!("{hash:032x}");
        self.dir.join(&key[..2]).join(format!("{}.bin", &key[2..]))
    }

    /// The kept analysis of `text`, if any (a damaged entry is removed and missed).
    pub fn load(&self, language: Language, text: &str) -> Option<SourceAnalysis> {
        self.load_hashed(text_hash(language, text), text)
    }

    /// [`AnalysisStore::load`] for a text whose [`text_hash`] is known.
    fn load_hashed(&self, hash: u128, text: &str) -> Option<SourceAnalysis> {
        if text.len() < MIN_STORED_TEXT {
            return None;
        }
        let path = self.path_of(hash);
        let bytes = std::fs::read(&path).ok()?;
        match postcard::take_from_bytes::<SourceAnalysis>(&bytes) {
            Ok((analysis, [])) => Some(analysis),
            _ => {
                let _ = std::fs::remove_file(&path);
                None
            }
        }
    }

    /// Keeps `analysis` of `text` (written to a temporary file and renamed, so a concurrent
    /// check never reads half an entry). Whether it was written.
    pub fn save(&self, language: Language, text: &str, analysis: &SourceAnalysis) -> bool {
        if text.len() < MIN_STORED_TEXT {
            return false;
        }
        let path = self.path(language, text);
        let Some(shard) = path.parent() else {
            return false;
        };
        if !shard.exists() {
            if !self.dir.exists() {
                self.forget_other_builds();
            }
            if std::fs::create_dir_all(shard).is_err() {
                return false;
            }
        }
        let Ok(bytes) = postcard::to_stdvec(analysis) else {
            return false;
        };
        let written = write_replacing(&path, &bytes);
        trim_shard(shard);
        written
    }

    /// Removes the directories of other builds but the most recently used few.
    fn forget_other_builds(&self) {
        let Some(builds) = self.dir.parent() else {
            return;
        };
        let mut others = oldest_first(builds);
        others.retain(|p| p != &self.dir);
        let drop = others.len().saturating_sub(OTHER_BUILDS_KEPT);
        for dir in &others[..drop] {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Drops a shard's oldest entries beyond [`MAX_PER_SHARD`].
fn trim_shard(shard: &Path) {
    let entries = oldest_first(shard);
    let extra = entries.len().saturating_sub(MAX_PER_SHARD);
    for path in &entries[..extra] {
        let _ = std::fs::remove_file(path);
    }
}

/// The 128-bit hash of `text` as `language` (XXH3, seeded by the language): the key of its
/// analysis in the store and, by its low half, in a check's own map. One pass over the text
/// at memory speed: a warm check hashes each version of every changed file (SipHash, twice
/// for the store and once for the map, took about 3 % of a warm check's cycles).
fn text_hash(language: Language, text: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128_with_seed(text.as_bytes(), language as u64)
}

/// Names this build of slopguard: the running executable's size and modification time (a
/// rebuilt or upgraded binary gets a new stamp) with the crate version.
fn build_stamp() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(exe).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut h);
    meta.len().hash(&mut h);
    modified.as_nanos().hash(&mut h);
    Some(format!("{:016x}", h.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big_python() -> String {
        (0..200)
            .map(|i| format!("def f{i}(x):\n    return x + {i}\n\n"))
            .collect()
    }

    #[test]
    fn an_analysis_kept_by_one_check_is_read_by_the_next_without_a_parse() {
        let dir = tempfile::tempdir().unwrap();
        let store = AnalysisStore::under(dir.path()).unwrap();
        let text = big_python();
        let first = ParseCache::with_store(store.clone());
        let fresh = first.get(Language::Python, &text).analysis().clone();
        assert_eq!(fresh.definitions.len(), 200);
        assert_eq!(first.save_new(), 1);
        // Saved once: a second save writes nothing new from the same check.
        let second = ParseCache::with_store(store.clone());
        let parses = slopguard_lang::parse_count();
        let kept = second.get(Language::Python, &text);
        assert_eq!(kept.analysis(), &fresh, "read from the store");
        assert_eq!(slopguard_lang::parse_count(), parses, "no parse");
        // A new version of a kept text is parsed afresh: the kept base is not parsed just to
        // start an incremental parse from it.
        let edited = text.replace("return x + 7\n", "return x - 7\n");
        let after = second.get_edited(Language::Python, &edited, Some(kept.clone()));
        assert_eq!(after.analysis().definitions.len(), 200);
        assert_eq!(
            slopguard_lang::parse_count(),
            parses + 1,
            "one parse, the edit's"
        );
        // Scopes still resolve in the kept version (its tree parsed on demand).
        assert!(kept.names_uses(&["f3"]).is_some());
        assert_eq!(second.save_new(), 1, "only the edited version is new");
        // A text below the threshold is neither read nor kept.
        let small = ParseCache::with_store(store);
        small.get(Language::Python, "x = 1\n").analysis();
        assert_eq!(small.save_new(), 0);
    }

    #[test]
    fn every_part_of_an_analysis_comes_back_from_the_store_as_it_was_kept() {
        let dir = tempfile::tempdir().unwrap();
        let store = AnalysisStore::under(dir.path()).unwrap();
        let pad = "# padding so that the text is kept\n".repeat(80);
        let texts = [
            (
                Language::Python,
                format!(
                    "import os\nfrom a.b import c as d\n{pad}class K:\n    def m(self):\n        raise NotImplementedError\n\ndef f(x:\n    return os.path\n"
                ),
            ),
            (
                Language::Rust,
                format!(
                    "use std::{{io, fmt::Write}};\n{}\nimpl K {{\n    fn m(&self) -> u8 {{ todo!() }}\n}}\nfn f() {{ let x = ; }}\n",
                    pad.replace('#', "//")
                ),
            ),
            (
                Language::JavaScript,
                format!(
                    "const a = require('a');\nimport b from './b';\n{}\nexport function f() {{ return a(b); }}\n",
                    pad.replace('#', "//")
                ),
            ),
        ];
        for (language, text) in texts {
            let fresh = ParseCache::default()
                .get(language, &text)
                .analysis()
                .clone();
            assert!(
                !fresh.definitions.is_empty() && !fresh.imports.is_empty(),
                "{language:?}: {fresh:?}"
            );
            assert!(store.save(language, &text, &fresh));
            assert_eq!(store.load(language, &text), Some(fresh), "{language:?}");
        }
    }

    #[test]
    fn a_bounded_cache_keeps_its_newest_sources() {
        let cache = ParseCache::bounded(12);
        let a = cache.get(Language::Python, "a = 1\n");
        cache.get(Language::Python, "b = 2\n");
        assert!(Arc::ptr_eq(&a, &cache.get(Language::Python, "a = 1\n")));
        cache.get(Language::Python, "c = 3\n");
        assert_eq!(cache.len(), 2);
        // `a` was the oldest: asked again, it is a new source.
        assert!(!Arc::ptr_eq(&a, &cache.get(Language::Python, "a = 1\n")));
        assert_eq!(cache.len(), 2);
    }

    #[test]
    fn a_damaged_entry_is_a_miss_and_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let store = AnalysisStore::under(dir.path()).unwrap();
        let text = big_python();
        let path = store.path(Language::Python, &text);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, b"{not an analysis").unwrap();
        assert_eq!(store.load(Language::Python, &text), None);
        assert!(!path.exists());
        // The same text as another language is another entry.
        assert_ne!(
            store.path(Language::Python, &text),
            store.path(Language::Ruby, &text)
        );
    }

    #[test]
    fn a_shard_keeps_its_newest_entries() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..MAX_PER_SHARD + 5 {
            std::fs::write(dir.path().join(format!("{i}.json")), b"{}").unwrap();
        }
        trim_shard(dir.path());
        assert_eq!(oldest_first(dir.path()).len(), MAX_PER_SHARD);
    }

    #[test]
    fn a_new_build_drops_all_but_the_latest_other_builds() {
        let dir = tempfile::tempdir().unwrap();
        let builds = dir.path().join("analysis");
        for old in ["a", "b", "c", "d"] {
            std::fs::create_dir_all(builds.join(old)).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let store = AnalysisStore::under(dir.path()).unwrap();
        assert!(store.save(Language::Python, &big_python(), &SourceAnalysis::default()));
        let mut left: Vec<String> = std::fs::read_dir(&builds)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let mut want = vec!["c".to_string(), "d".to_string()];
        want.push(
            store
                .dir()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned(),
        );
        want.sort();
        assert_eq!(left, want);
    }
}

//! The untracked walk's answer kept between checks, as git's untracked cache keeps it
//! (`core.untrackedCache`). A check in front of an agent reads the same work tree many times
//! a minute, and walking it with the gitignore rules was the longest part of a warm check's
//! status (2.5 ms of requests' 24 directories, where checking the kept answer takes a stat
//! per directory).
//!
//! A kept answer is used only while every directory the walk read, every `.gitignore` it
//! applied, `info/exclude` and the global excludes file have the stat data (modification and
//! change times, inode, device, size) they had when it was kept: creating, deleting or
//! renaming an entry changes its directory's times, and an ignore file edited in place
//! changes its own. An absent `.gitignore` needs no stamp, since creating one changes its
//! directory.
//!
//! An answer is kept only when nothing it depends on was modified in the [`SETTLED`] before
//! the walk began: a file created while the walk read its directory may carry the same
//! timestamp as the change before it (file times come from a clock that ticks every few
//! milliseconds), and such an answer could be reused while wrong. git calls such entries
//! racy and does the same.
//!
//! The kept answer lives under the caller's cache directory (`walk/<hash of the root>.json`),
//! never in the repository, for at most [`MAX_KEPT`] work trees; a damaged or foreign one is
//! walked over and replaced.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::Unignored;
use crate::cache;

/// How long before the walk everything it read must have been left alone for its answer to
/// be kept.
const SETTLED: Duration = Duration::from_secs(1);

/// Bumped when what is kept, or how the walk decides, changes.
const VERSION: u32 = 1;

/// Most work trees whose walks are kept: one answer each, the least recently kept dropped
/// first, so that the temporary work trees of agents do not pile up.
const MAX_KEPT: usize = 256;

/// What identifies one state of a file or directory: a change to its entries or content
/// changes at least one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp {
    mtime: (i64, i64),
    ctime: (i64, i64),
    ino: u64,
    dev: u64,
    size: u64,
}

impl Stamp {
    /// The stamp of `path` as it is now, without following a final symlink; `None` when it
    /// does not exist (or on a platform without these fields).
    fn of(path: &Path) -> Option<Stamp> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::symlink_metadata(path).ok()?;
            Some(Stamp {
                mtime: (meta.mtime(), meta.mtime_nsec()),
                ctime: (meta.ctime(), meta.ctime_nsec()),
                ino: meta.ino(),
                dev: meta.dev(),
                size: meta.size(),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            None
        }
    }

    /// Whether it was modified before `instant`.
    fn modified_before(&self, instant: SystemTime) -> bool {
        let Ok(since_epoch) = instant.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let (secs, nanos) = self.mtime;
        (secs, nanos)
            < (
                since_epoch.as_secs() as i64,
                since_epoch.subsec_nanos() as i64,
            )
    }
}

/// One kept answer of the walk of `root`, with the stamps it depends on.
#[derive(Debug, Serialize, Deserialize)]
struct Kept {
    version: u32,
    root: PathBuf,
    /// Each directory the walk read or looked into (nested repositories), relative to `root`
    /// (`""` for the root itself).
    dirs: Vec<(String, Stamp)>,
    /// The `.gitignore` files of those directories, relative to `root`.
    gitignores: Vec<(String, Stamp)>,
    /// `info/exclude` and the global excludes file, whether or not they exist (`None`:
    /// absent), so that creating one is seen.
    outer_ignore_files: Vec<(PathBuf, Option<Stamp>)>,
    files: Vec<String>,
    nested_repos: Vec<String>,
}

impl Kept {
    /// Whether this answer still holds for a walk of `root` with `outer_ignore_files`: same
    /// version, same root, same ignore files, and nothing it read has changed since.
    fn holds(&self, root: &Path, outer_ignore_files: &[PathBuf]) -> bool {
        let unchanged =
            |rel: &str, stamp: &Stamp| Stamp::of(&root.join(rel)).as_ref() == Some(stamp);
        self.version == VERSION
            && self.root == root
            && self.outer_ignore_files.len() == outer_ignore_files.len()
            && self
                .outer_ignore_files
                .iter()
                .zip(outer_ignore_files)
                .all(|((kept, stamp), now)| kept == now && Stamp::of(now) == *stamp)
            && self.dirs.iter().all(|(dir, stamp)| unchanged(dir, stamp))
            && self
                .gitignores
                .iter()
                .all(|(file, stamp)| unchanged(file, stamp))
    }
}

/// The walk's answer for `root` ([`super::walk`]), reused from `cache_dir` while it holds and
/// kept there when it is new and settled. `excludes` is the global excludes file git would
/// read, whether or not it exists.
pub(super) fn unignored_files(
    root: &Path,
    excludes: Option<&Path>,
    cache_dir: &Path,
) -> Option<Unignored> {
    let file = cache_dir.join("walk").join(file_name(root));
    let outer_ignore_files: Vec<PathBuf> = std::iter::once(root.join(".git/info/exclude"))
        .chain(excludes.map(Path::to_path_buf))
        .collect();
    if let Some(kept) = load(&file).filter(|kept| kept.holds(root, &outer_ignore_files)) {
        return Some(Unignored {
            files: kept.files,
            nested_repos: kept.nested_repos,
            dirs: Vec::new(),
        });
    }
    let started = SystemTime::now();
    let found = super::walk(root, excludes.filter(|f| f.is_file()))?;
    if let Some(kept) = settled(root, &found, outer_ignore_files, started) {
        save(&file, &kept);
    }
    Some(found)
}

/// The answer `found` with its stamps, when everything it read was last modified at least
/// [`SETTLED`] before `started` (see the module's doc).
fn settled(
    root: &Path,
    found: &Unignored,
    outer_ignore_files: Vec<PathBuf>,
    started: SystemTime,
) -> Option<Kept> {
    let before = started.checked_sub(SETTLED)?;
    let settled = |stamp: Stamp| stamp.modified_before(before).then_some(stamp);
    let mut outer = Vec::with_capacity(outer_ignore_files.len());
    for path in outer_ignore_files {
        let stamp = match Stamp::of(&path) {
            Some(stamp) => Some(settled(stamp)?),
            None => None,
        };
        outer.push((path, stamp));
    }
    let mut dirs = Vec::with_capacity(found.dirs.len() + found.nested_repos.len());
    for dir in found.dirs.iter().chain(&found.nested_repos) {
        dirs.push((dir.clone(), settled(Stamp::of(&root.join(dir))?)?));
    }
    // Each read directory's `.gitignore`, when it has one (an ignored one is applied all the
    // same, so its presence is read from disk, not from the answer).
    let mut gitignores = Vec::new();
    for dir in &found.dirs {
        let file = match dir.is_empty() {
            true => ".gitignore".to_string(),
            false => format!("{dir}/.gitignore"),
        };
        if let Some(stamp) = Stamp::of(&root.join(&file)) {
            gitignores.push((file, settled(stamp)?));
        }
    }
    Some(Kept {
        version: VERSION,
        root: root.to_path_buf(),
        dirs,
        gitignores,
        outer_ignore_files: outer,
        files: found.files.clone(),
        nested_repos: found.nested_repos.clone(),
    })
}

/// The kept answer's file name: a hash of the root's path (one answer per work tree).
fn file_name(root: &Path) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    root.hash(&mut hasher);
    format!("{:016x}.json", hasher.finish())
}

fn load(file: &Path) -> Option<Kept> {
    serde_json::from_slice(&std::fs::read(file).ok()?).ok()
}

/// Writes `kept` to `file` so that a concurrent check never reads half an answer
/// ([`cache::write_replacing`]), then drops the oldest answers beyond [`MAX_KEPT`]. A
/// failure only costs the next check a walk.
fn save(file: &Path, kept: &Kept) {
    let Some(dir) = file.parent() else {
        return;
    };
    let Ok(json) = serde_json::to_vec(kept) else {
        return;
    };
    if std::fs::create_dir_all(dir).is_ok() && cache::write_replacing(file, &json) {
        forget_oldest(dir, MAX_KEPT);
    }
}

/// Removes the least recently written answers of `dir` beyond the `keep` newest (another
/// check's temporary file is not an answer).
fn forget_oldest(dir: &Path, keep: usize) {
    let answers: Vec<PathBuf> = cache::oldest_first(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    for path in &answers[..answers.len().saturating_sub(keep)] {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::time::{Duration, SystemTime};

    use slopguard_testkit::git;

    use super::{file_name, forget_oldest, unignored_files};
    use crate::status::tests::write;

    /// Sets the modification time of each of `paths` under `root` an hour back, as if the
    /// work tree had been left alone since.
    fn settle(root: &Path, paths: &[&str]) {
        let past = SystemTime::now() - Duration::from_secs(3600);
        for rel in paths {
            let file = std::fs::File::open(root.join(rel)).expect("opens");
            file.set_modified(past).expect("sets the time");
        }
    }

    /// A committed repository with untracked files, one ignored, every directory and ignore
    /// file settled.
    fn settled_repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path();
        git(d, &["init", "-q"]);
        write(d, "a.py", "a = 1\n");
        write(d, "src/deep/c.txt", "c\n");
        write(d, ".gitignore", "*.log\n");
        git(d, &["add", "-A"]);
        git(d, &["commit", "-q", "-m", "init"]);
        write(d, "notes.txt", "n\n");
        write(d, "src/new.py", "b = 2\n");
        write(d, "src/x.log", "log\n");
        settle(
            d,
            &["", "src", "src/deep", ".gitignore", ".git/info/exclude"],
        );
        dir
    }

    fn files(root: &Path, cache: &Path) -> Vec<String> {
        let mut found = unignored_files(root, None, cache).expect("walks").files;
        found.sort();
        found
    }

    #[test]
    fn a_kept_walk_is_reused_until_a_directory_changes() {
        let repo = settled_repo();
        let d = repo.path();
        let cache = tempfile::tempdir().expect("tempdir");
        let walked = files(d, cache.path());
        assert_eq!(
            walked,
            [
                ".gitignore",
                "a.py",
                "notes.txt",
                "src/deep/c.txt",
                "src/new.py"
            ]
        );
        // The kept answer is what the next walk returns: one planted in it comes back.
        let kept = cache.path().join("walk").join(file_name(d));
        let text = std::fs::read_to_string(&kept).expect("the answer was kept");
        std::fs::write(&kept, text.replace("notes.txt", "planted.txt")).expect("writes");
        assert!(files(d, cache.path()).contains(&"planted.txt".to_string()));
        // A file created in a read directory changes its times: the tree is walked again.
        write(d, "src/deep/more.py", "m = 3\n");
        let again = files(d, cache.path());
        assert!(again.contains(&"src/deep/more.py".to_string()));
        assert!(again.contains(&"notes.txt".to_string()));
        assert!(!again.contains(&"planted.txt".to_string()));
    }

    #[test]
    fn ignore_files_edited_or_created_in_place_are_seen() {
        let repo = settled_repo();
        let d = repo.path();
        let cache = tempfile::tempdir().expect("tempdir");
        let home = tempfile::tempdir().expect("tempdir");
        let global = home.path().join("ignore");
        let walk = |cache: &Path| {
            let mut found = unignored_files(d, Some(&global), cache)
                .expect("walks")
                .files;
            found.sort();
            found
        };
        assert!(walk(cache.path()).contains(&"notes.txt".to_string()));
        let dir_stamp = super::Stamp::of(d);
        // Appending to `.gitignore` leaves its directory's times alone.
        let mut gitignore = std::fs::OpenOptions::new()
            .append(true)
            .open(d.join(".gitignore"))
            .expect("opens");
        std::io::Write::write_all(&mut gitignore, b"notes.txt\n").expect("appends");
        assert_eq!(super::Stamp::of(d), dir_stamp);
        assert!(!walk(cache.path()).contains(&"notes.txt".to_string()));
        // `info/exclude` edited, and a global excludes file that did not exist, likewise.
        settle(d, &[".gitignore"]);
        assert!(walk(cache.path()).contains(&"src/new.py".to_string()));
        write(d, ".git/info/exclude", "new.py\n");
        assert!(!walk(cache.path()).contains(&"src/new.py".to_string()));
        settle(d, &[".git/info/exclude"]);
        assert!(walk(cache.path()).contains(&"a.py".to_string()));
        write(home.path(), "ignore", "a.py\n");
        assert!(!walk(cache.path()).contains(&"a.py".to_string()));
    }

    #[test]
    fn a_walk_of_directories_changed_just_before_is_not_kept() {
        // A file created as the walk reads its directory may share the timestamp of the
        // change before it: such an answer is not kept.
        let repo = settled_repo();
        let d = repo.path();
        write(d, "src/fresh.py", "f = 1\n");
        let cache = tempfile::tempdir().expect("tempdir");
        assert!(files(d, cache.path()).contains(&"src/fresh.py".to_string()));
        assert!(!cache.path().join("walk").join(file_name(d)).exists());
        // Settled again, it is kept.
        settle(d, &["src"]);
        files(d, cache.path());
        assert!(cache.path().join("walk").join(file_name(d)).exists());
    }

    #[test]
    fn only_the_newest_answers_are_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let now = SystemTime::now();
        for (i, name) in ["a.json", "b.json", "c.json"].iter().enumerate() {
            let path = dir.path().join(name);
            std::fs::write(&path, "{}").expect("writes");
            let file = std::fs::File::options()
                .write(true)
                .open(&path)
                .expect("opens");
            file.set_modified(now - Duration::from_secs(100 - i as u64 * 10))
                .expect("sets the time");
        }
        std::fs::write(dir.path().join("notes.txt"), "x").expect("writes");
        forget_oldest(dir.path(), 2);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .expect("reads")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["b.json", "c.json", "notes.txt"]);
    }
}

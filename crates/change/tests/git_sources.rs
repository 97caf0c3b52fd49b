//! Loading a commit from git: the commit against its first parent (the empty tree for a root
//! commit), revisions resolved through tags, bare repositories, and clear errors.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::path::Path;
use std::process::Command;

use slopguard_change::git::GitRepo;
use slopguard_change::{ChangeError, ChangeKind, from_commit};
use slopguard_testkit::git_trimmed as git;

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// main: root (a.py, b/c.py) -> edit a.py; side (from root): add d.py; merge side into main.
fn repo() -> (tempfile::TempDir, String, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q"]);
    write(d, "a.py", "x = 1\n");
    write(d, "b/c.py", "y = 2\n");
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "root"]);
    let root = git(d, &["rev-parse", "HEAD"]);
    git(d, &["tag", "-a", "v1", "-m", "first release"]);
    git(d, &["checkout", "-qb", "side"]);
    write(d, "d.py", "z = 3\n");
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "side"]);
    git(d, &["checkout", "-q", "main"]);
    write(d, "a.py", "x = 10\n");
    git(d, &["commit", "-qam", "edit a\n\nwith a body"]);
    let edit = git(d, &["rev-parse", "HEAD"]);
    git(d, &["merge", "-q", "--no-ff", "--no-edit", "side"]);
    let merge = git(d, &["rev-parse", "HEAD"]);
    (dir, root, edit, merge)
}

fn paths(set: &slopguard_change::ChangeSet) -> Vec<(String, ChangeKind)> {
    set.changes
        .iter()
        .map(|c| (c.path.clone(), c.kind.clone()))
        .collect()
}

#[test]
fn a_commit_against_its_first_parent() {
    let (dir, _, edit, _) = repo();
    let set = from_commit(dir.path(), &edit).unwrap();
    assert_eq!(paths(&set), vec![("a.py".to_string(), ChangeKind::Modify)]);
    let a = &set.changes[0];
    assert_eq!(a.before.as_deref(), Some(&b"x = 1\n"[..]));
    assert_eq!(a.after.as_deref(), Some(&b"x = 10\n"[..]));
    assert_eq!(set.message.as_deref(), Some("edit a\n\nwith a body"));
    assert_eq!(set.source, format!("commit {}", &edit[..12]));
    // The base is the parent's tree.
    assert_eq!(
        set.base.read("b/c.py").unwrap().as_deref(),
        Some(&b"y = 2\n"[..])
    );
}

#[test]
fn a_merge_is_judged_against_its_first_parent() {
    let (dir, _, edit, merge) = repo();
    let set = from_commit(dir.path(), "HEAD").unwrap();
    assert_eq!(set.source, format!("commit {}", &merge[..12]));
    assert_eq!(paths(&set), vec![("d.py".to_string(), ChangeKind::Create)]);
    assert_eq!(set.base.id(), edit);
}

#[test]
fn a_root_commit_adds_every_file_to_an_empty_base() {
    let (dir, root, _, _) = repo();
    // Through an annotated tag.
    let set = from_commit(dir.path(), "v1").unwrap();
    assert_eq!(set.source, format!("commit {}", &root[..12]));
    assert_eq!(
        paths(&set),
        vec![
            ("a.py".to_string(), ChangeKind::Create),
            ("b/c.py".to_string(), ChangeKind::Create),
        ]
    );
    assert!(set.changes.iter().all(|c| c.before.is_none()));
    assert!(!set.base.exists("a.py"));
    assert_eq!(set.message.as_deref(), Some("root"));
}

#[test]
fn unknown_revisions_and_non_repositories_are_errors() {
    let (dir, _, _, _) = repo();
    for rev in ["nosuch", "HEAD~9", "-x", ""] {
        assert!(
            matches!(
                from_commit(dir.path(), rev),
                Err(ChangeError::UnknownRevision(_))
            ),
            "{rev}"
        );
    }
    let plain = tempfile::tempdir().unwrap();
    assert!(matches!(
        GitRepo::open(plain.path()),
        Err(ChangeError::NotARepo(_))
    ));
}

#[test]
fn bare_repositories_and_subdirectories_open() {
    let (dir, _, edit, _) = repo();
    let sub = GitRepo::open(&dir.path().join("b")).unwrap();
    let top = dir.path().canonicalize().unwrap();
    assert_eq!(sub.work_dir().map(|p| p.canonicalize().unwrap()), Some(top));
    let bare_dir = tempfile::tempdir().unwrap();
    let bare_path = bare_dir.path().join("r.git");
    Command::new("git")
        .args(["clone", "-q", "--bare"])
        .arg(dir.path())
        .arg(&bare_path)
        .status()
        .unwrap();
    let bare = GitRepo::open(&bare_path).unwrap();
    assert!(bare.work_dir().is_none());
    let set = from_commit(&bare_path, &edit).unwrap();
    assert_eq!(paths(&set), vec![("a.py".to_string(), ChangeKind::Modify)]);
}

/// A change set as plain data, to compare two ways of reading the same commit.
fn snapshot(set: &slopguard_change::ChangeSet) -> String {
    let files: Vec<String> = set
        .changes
        .iter()
        .map(|c| {
            format!(
                "{} {:?} {:?} {:?} {}",
                c.path, c.kind, c.before, c.after, c.after_is_symlink
            )
        })
        .collect();
    format!(
        "{}\n{:?}\n{}\n{:?}\n{:?}",
        set.source,
        set.message,
        set.base.id(),
        set.base.files().map(|f| f.to_vec()).unwrap_or_default(),
        files
    )
}

/// Every commit of `repo` (newest `limit`) read in-process and through the git command gives
/// the same change set.
fn assert_reads_match_git(repo: &Path, limit: usize) -> usize {
    use std::sync::Arc;
    let fast = Arc::new(GitRepo::open(repo).unwrap());
    let slow = Arc::new(GitRepo::open_with_git(repo).unwrap());
    assert!(fast.reads_in_process() && !slow.reads_in_process());
    assert_eq!(fast.git_dir(), slow.git_dir());
    assert_eq!(fast.work_dir(), slow.work_dir());
    let all = git(
        repo,
        &["rev-list", "--all", &format!("--max-count={limit}")],
    );
    let mut n = 0;
    for commit in all.lines() {
        let a = slopguard_change::from_commit_in(&fast, commit).unwrap();
        let b = slopguard_change::from_commit_in(&slow, commit).unwrap();
        assert_eq!(snapshot(&a), snapshot(&b), "commit {commit}");
        n += 1;
    }
    n
}

#[test]
fn in_process_reads_match_the_git_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q"]);
    write(d, "a.py", "x = 1\n");
    write(d, "b/c.py", "y = 2\n");
    write(d, "b/d/e.txt", "deep\n");
    write(d, "run.sh", "echo hi\n");
    write(d, "a", "a file named like a directory prefix\n");
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "root"]);
    // Modify a nested file and add one in a new directory.
    write(d, "b/d/e.txt", "deeper\n");
    write(d, "n/o/p.rs", "fn main() {}\n");
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "nested"]);
    // Only the executable bit.
    git(d, &["update-index", "--chmod=+x", "run.sh"]);
    git(d, &["commit", "-qm", "mode"]);
    // A file becomes a symlink (a type change).
    std::fs::remove_file(d.join("a.py")).unwrap();
    std::os::unix::fs::symlink("b/c.py", d.join("a.py")).unwrap();
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "symlink"]);
    // A file becomes a directory, and a sibling `a.txt` sorts between `a` and `a/`.
    std::fs::remove_file(d.join("a")).unwrap();
    write(d, "a/inner.py", "z = 3\n");
    write(d, "a.txt", "t\n");
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "file to dir"]);
    // A rename with an edit (git pairs it by similarity) and a plain deletion.
    git(d, &["mv", "b/c.py", "b/renamed.py"]);
    write(d, "b/renamed.py", "y = 2\nw = 4\n");
    git(d, &["rm", "-q", "b/d/e.txt"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "rename"]);
    // A whole directory deleted.
    git(d, &["rm", "-rq", "n"]);
    git(d, &["commit", "-qm", "drop dir"]);
    // Non-UTF-8 and spaced names, an empty commit.
    write(d, "with space.md", "# t\n");
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "space"]);
    git(d, &["commit", "-q", "--allow-empty", "-m", "empty"]);
    assert_eq!(assert_reads_match_git(d, 100), 9);
    // The same through a bare clone.
    let bare = tempfile::tempdir().unwrap();
    let bare_path = bare.path().join("r.git");
    git(
        d,
        &["clone", "-q", "--bare", ".", bare_path.to_str().unwrap()],
    );
    assert_eq!(assert_reads_match_git(&bare_path, 100), 9);
}

/// `SLOPGUARD_ODB_CORPUS=/path/to/repo[:/another]`: the same comparison over the newest 300
/// commits of real repositories (run by hand; `cargo test -- --ignored`).
#[test]
#[ignore]
fn in_process_reads_match_the_git_command_on_a_corpus() {
    let corpus = std::env::var("SLOPGUARD_ODB_CORPUS").expect("SLOPGUARD_ODB_CORPUS");
    for repo in corpus.split(':') {
        let n = assert_reads_match_git(Path::new(repo), 300);
        eprintln!("{repo}: {n} commits identical");
    }
}

//! The in-process status against `git` itself: each scenario builds a repository in a state,
//! then both answer. They must agree exactly, or the in-process side must decline.

use std::path::Path;

use crate::git::GitRepo;
use crate::sources::{RawEntry, staged_changes_with_git, worktree_changes_with_git};
use slopguard_testkit::git;

pub(super) fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().expect("a parent")).expect("mkdir");
    std::fs::write(p, text).expect("write");
}

/// A repository with a few committed files, in a fresh temporary directory.
fn committed() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    git(d, &["init", "-q"]);
    write(d, "a.py", "def a():\n    return 1\n");
    write(d, "src/b.py", "def b():\n    return 2\n");
    write(d, "src/deep/c.txt", "c\n");
    write(d, "README.md", "# r\n");
    git(d, &["add", "-A"]);
    git(d, &["commit", "-q", "-m", "init"]);
    dir
}

/// A worktree raw entry without the "after" id: git names the index's blob where the file on
/// disk equals it and the null id otherwise; the in-process side always reads the disk.
fn comparable(mut e: RawEntry) -> RawEntry {
    e.new_oid = String::new();
    e
}

/// Both answers for the working tree, in-process first (`None`: it declined).
#[allow(clippy::type_complexity)]
fn worktree_both(
    dir: &Path,
) -> (
    Option<(Vec<RawEntry>, Vec<String>)>,
    (Vec<RawEntry>, Vec<String>),
) {
    let repo = GitRepo::open(dir).expect("opens");
    let head = repo.resolve_commit("HEAD").ok();
    let in_process = repo
        .worktree_changes(head.as_deref(), None)
        .map(|(raw, untracked)| (raw.into_iter().map(comparable).collect(), untracked));
    let (raw, untracked) =
        worktree_changes_with_git(&repo, head.as_deref(), &[]).expect("git answers");
    (
        in_process,
        (raw.into_iter().map(comparable).collect(), untracked),
    )
}

/// The working tree's in-process answer equals git's.
fn agrees(dir: &Path) -> (Vec<RawEntry>, Vec<String>) {
    let (mine, gits) = worktree_both(dir);
    let mine = mine.expect("answered in-process");
    assert_eq!(mine, gits);
    mine
}

/// The index's in-process answer equals git's.
fn staged_agrees(dir: &Path) -> Vec<RawEntry> {
    let repo = GitRepo::open(dir).expect("opens");
    let head = repo.resolve_commit("HEAD").ok();
    let mine = repo
        .staged_changes(head.as_deref())
        .expect("answered in-process");
    let gits = staged_changes_with_git(&repo, head.as_deref()).expect("git answers");
    assert_eq!(mine, gits);
    mine
}

fn statuses(raw: &[RawEntry]) -> Vec<(char, &str)> {
    raw.iter()
        .map(|e| (e.status, e.new_path.as_str()))
        .collect()
}

#[test]
fn a_clean_tree_has_no_changes() {
    let dir = committed();
    let (raw, untracked) = agrees(dir.path());
    assert!(raw.is_empty() && untracked.is_empty());
    assert!(staged_agrees(dir.path()).is_empty());
}

#[test]
fn edits_deletions_and_untracked_files_are_found() {
    let dir = committed();
    let d = dir.path();
    write(d, "a.py", "def a():\n    return 3\n");
    std::fs::remove_file(d.join("src/deep/c.txt")).expect("rm");
    write(d, "new/n.py", "x = 1\n");
    write(d, "top.txt", "t\n");
    let (raw, untracked) = agrees(d);
    assert_eq!(statuses(&raw), vec![('M', "a.py"), ('D', "src/deep/c.txt")]);
    assert_eq!(untracked, vec!["new/n.py", "top.txt"]);
}

#[test]
fn an_edit_in_the_same_instant_as_the_index_is_still_seen() {
    // Same size, written right after `git add` wrote the index: the stat may match to the
    // second, and only the content tells.
    let dir = committed();
    let d = dir.path();
    write(d, "a.py", "def a():\n    return 5\n");
    git(d, &["add", "a.py"]);
    write(d, "a.py", "def a():\n    return 6\n");
    let (raw, _) = agrees(d);
    assert_eq!(statuses(&raw), vec![('M', "a.py")]);
}

#[test]
fn a_touched_file_and_a_staged_edit_undone_on_disk_are_unchanged() {
    let dir = committed();
    let d = dir.path();
    write(d, "a.py", "def a():\n    return 1\n");
    write(d, "src/b.py", "def b():\n    return 9\n");
    git(d, &["add", "src/b.py"]);
    write(d, "src/b.py", "def b():\n    return 2\n");
    let (raw, untracked) = agrees(d);
    assert!(raw.is_empty() && untracked.is_empty(), "{raw:?}");
    assert_eq!(statuses(&staged_agrees(d)), vec![('M', "src/b.py")]);
}

#[test]
fn a_size_other_than_the_index_says_so_only_against_the_same_blob() {
    // The index holds HEAD's a.py: a longer file on disk differs from HEAD unhashed. The index
    // holds a longer staged b.py: the file on disk, HEAD's again, differs from the index's size
    // and still equals HEAD, which only its hash tells. The pause keeps both entries from
    // being racily clean (those are always hashed).
    let dir = committed();
    let d = dir.path();
    write(d, "a.py", "def a():\n    return 1 + 100\n");
    write(d, "src/b.py", "def b():\n    return 2 + 200\n");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    git(d, &["add", "src/b.py"]);
    write(d, "src/b.py", "def b():\n    return 2\n");
    let (raw, untracked) = agrees(d);
    assert_eq!(statuses(&raw), vec![('M', "a.py")]);
    assert!(untracked.is_empty());
}

#[test]
fn ignore_rules_are_gits() {
    let dir = committed();
    let d = dir.path();
    write(
        d,
        ".gitignore",
        "*.log\n!keep.log\nbuild/\n/root-only.txt\n",
    );
    write(d, "src/.gitignore", "generated_*\n");
    write(d, ".git/info/exclude", "secret.env\n");
    for f in [
        "x.log",
        "keep.log",
        "sub/keep.log",
        "build/out.bin",
        "src/build/o.bin",
        "root-only.txt",
        "src/root-only.txt",
        "src/generated_a.py",
        "generated_b.py",
        "secret.env",
        "src/ok.py",
    ] {
        write(d, f, "x\n");
    }
    let (_, untracked) = agrees(d);
    assert_eq!(
        untracked,
        vec![
            ".gitignore",
            "generated_b.py",
            "keep.log",
            "src/.gitignore",
            "src/ok.py",
            "src/root-only.txt",
            "sub/keep.log",
        ]
    );
}

#[test]
fn an_index_of_another_commit_is_compared_with_head() {
    // After `reset --soft`, the index still holds the undone commit's tree, its cache-tree
    // valid: HEAD's own tree must be read.
    let dir = committed();
    let d = dir.path();
    write(d, "a.py", "def a():\n    return 10\n");
    git(d, &["commit", "-q", "-am", "second"]);
    git(d, &["reset", "-q", "--soft", "HEAD~1"]);
    let (raw, _) = agrees(d);
    assert_eq!(statuses(&raw), vec![('M', "a.py")]);
    assert_eq!(statuses(&staged_agrees(d)), vec![('M', "a.py")]);
}

#[test]
fn the_global_excludes_file_is_gits() {
    // git reads `~/.config/git/ignore` when no configuration names an excludes file; the
    // in-process walk is given the same file. `.gitignore` re-includes what it excludes.
    let dir = committed();
    let d = dir.path();
    let home = tempfile::tempdir().expect("tempdir");
    write(home.path(), ".config/git/ignore", "*.log\nbuild/\n");
    write(d, ".gitignore", "!keep.log\n");
    for f in ["a.log", "keep.log", "build/out.txt", "src/b.log", "n.txt"] {
        write(d, f, "x\n");
    }
    let out = std::process::Command::new("git")
        .args(["ls-files", "--others", "--exclude-standard"])
        .current_dir(d)
        .env("HOME", home.path())
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .expect("git runs");
    let gits: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect();
    let excludes = home.path().join(".config/git/ignore");
    let found = super::walk(d, Some(&excludes)).expect("walks");
    let tracked: std::collections::HashSet<String> =
        ["a.py", "src/b.py", "src/deep/c.txt", "README.md"]
            .map(String::from)
            .into();
    assert_eq!(super::untracked(found, &tracked), gits);
    assert_eq!(gits, vec![".gitignore", "keep.log", "n.txt"]);
}

#[test]
fn a_nested_repository_is_listed_as_its_directory() {
    let dir = committed();
    let d = dir.path();
    let nested = d.join("vendor/lib");
    std::fs::create_dir_all(&nested).expect("mkdir");
    git(&nested, &["init", "-q"]);
    write(&nested, "l.py", "l = 1\n");
    let (_, untracked) = agrees(d);
    assert_eq!(untracked, vec!["vendor/lib/"]);
}

#[test]
fn modes_and_symlinks_are_changes() {
    let dir = committed();
    let d = dir.path();
    std::os::unix::fs::symlink("a.py", d.join("link.py")).expect("symlink");
    git(d, &["add", "link.py"]);
    git(d, &["commit", "-q", "-m", "link"]);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(d.join("src/b.py"), std::fs::Permissions::from_mode(0o755))
        .expect("chmod");
    std::fs::remove_file(d.join("link.py")).expect("rm");
    std::os::unix::fs::symlink("README.md", d.join("link.py")).expect("symlink");
    let (raw, _) = agrees(d);
    assert_eq!(statuses(&raw), vec![('M', "link.py"), ('M', "src/b.py")]);
}

#[test]
fn the_index_against_head() {
    let dir = committed();
    let d = dir.path();
    write(d, "a.py", "def a():\n    return 7\n");
    write(d, "src/n.py", "n = 1\n");
    git(d, &["add", "a.py", "src/n.py"]);
    write(d, "a.py", "def a():\n    return 8\n");
    assert_eq!(
        statuses(&staged_agrees(d)),
        vec![('M', "a.py"), ('A', "src/n.py")]
    );
    git(d, &["commit", "-q", "-m", "two"]);
    git(d, &["rm", "-q", "--cached", "src/b.py"]);
    assert_eq!(statuses(&staged_agrees(d)), vec![('D', "src/b.py")]);
}

#[test]
fn a_repository_without_commits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    git(d, &["init", "-q"]);
    write(d, "a.py", "a = 1\n");
    write(d, "b.py", "b = 1\n");
    git(d, &["add", "a.py"]);
    assert_eq!(statuses(&staged_agrees(d)), vec![('A', "a.py")]);
    let (raw, untracked) = agrees(d);
    assert_eq!(statuses(&raw), vec![('A', "a.py")]);
    assert_eq!(untracked, vec!["b.py"]);
}

#[test]
fn what_git_may_answer_otherwise_is_left_to_git() {
    // A possible rename (a deleted and an added file).
    let dir = committed();
    let d = dir.path();
    git(d, &["mv", "a.py", "moved.py"]);
    let (mine, gits) = worktree_both(d);
    assert!(mine.is_none());
    assert_eq!(gits.0[0].status, 'R');
    // Attributes may filter content.
    let dir = committed();
    let d = dir.path();
    write(d, ".gitattributes", "*.py text eol=crlf\n");
    git(d, &["add", ".gitattributes"]);
    assert!(worktree_both(d).0.is_none());
    // Conflicts and intent-to-add entries.
    let dir = committed();
    let d = dir.path();
    write(d, "later.py", "l = 1\n");
    git(d, &["add", "-N", "later.py"]);
    assert!(worktree_both(d).0.is_none());
}

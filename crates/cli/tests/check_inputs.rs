//! `check` on every change source and on bad input: clear errors or findings, never a panic,
//! and exit codes 0 (pass), 1 (blocked), 2 (usage or I/O error).
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]
#![allow(
    unsafe_code,
    reason = "the test kills or inspects the processes it started through libc"
)]

mod common;

use std::process::Command;

use common::{Repo, bin, slopguard, slopguard_json};

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn base_repo() -> Repo {
    let repo = Repo::new();
    repo.write("src/app.py", "def main():\n    return 1\n");
    repo.write("README.md", "# demo\n");
    repo.commit("initial");
    repo
}

#[test]
fn clean_worktree_passes() {
    let repo = base_repo();
    let out = slopguard(repo.path(), &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("pass: 0 file(s)"));
}

#[test]
fn worktree_and_staged_sources() {
    let repo = base_repo();
    repo.write("src/app.py", "def main(:\n    return 1\n");
    let (code, r) = slopguard_json(repo.path(), &["check", "--format", "json"]);
    assert_eq!(code, 1);
    assert_eq!(r["findings"][0]["code"], "G2");
    // Unstaged: --staged sees nothing.
    let (code, r) = slopguard_json(repo.path(), &["check", "--staged", "--format", "json"]);
    assert_eq!(code, 0, "{r}");
    repo.git(&["add", "-A"]);
    let (code, r) = slopguard_json(repo.path(), &["check", "--staged", "--format", "json"]);
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["source"], "staged changes");
}

#[test]
fn untracked_files_are_checked() {
    let repo = base_repo();
    repo.write("config.json", "{\"a\": 1,}\n");
    let (code, r) = slopguard_json(repo.path(), &["check", "--format", "json"]);
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["findings"][0]["path"], "config.json");
}

#[test]
fn diff_with_wrong_counts_applies_in_memory() {
    let repo = base_repo();
    let diff = "--- a/src/app.py\n+++ b/src/app.py\n@@ -1,9 +1,9 @@\n def main():\n-    return 1\n+    return 2\n";
    repo.write("change.diff", diff);
    let before = std::fs::read(repo.path().join("src/app.py")).unwrap();
    let out = slopguard(repo.path(), &["check", "--diff", "change.diff"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(repo.path().join("src/app.py")).unwrap(),
        before,
        "the working tree was touched"
    );
}

#[test]
fn diff_that_does_not_apply_is_an_error() {
    let repo = base_repo();
    repo.write(
        "bad.diff",
        "--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-nothing like this\n+x\n",
    );
    let out = slopguard(repo.path(), &["check", "--diff", "bad.diff"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("hunk 1 does not apply"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn patches_with_parent_path_are_blocked() {
    let repo = base_repo();
    repo.write(
        "p.json",
        r#"{"patches":[{"action":"create","path":"../escape.txt","content":"x"}]}"#,
    );
    let (code, r) = slopguard_json(
        repo.path(),
        &["check", "--patches", "p.json", "--format", "json"],
    );
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["findings"][0]["guard"], "containment");
    assert!(!repo.path().parent().unwrap().join("escape.txt").exists());
}

#[test]
fn malformed_patches_are_an_error() {
    let repo = base_repo();
    repo.write("p.json", "{\"patches\": [oops]}");
    let out = slopguard(repo.path(), &["check", "--patches", "p.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not valid JSON"), "{}", stderr(&out));
}

#[test]
fn edit_blocks_from_stdin() {
    let repo = base_repo();
    let blocks =
        "src/app.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return (1\n>>>>>>> REPLACE\n";
    let mut child = Command::new(bin())
        .current_dir(repo.path())
        .args(["check", "--patches", "-", "--format", "json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(blocks.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["findings"][0]["code"], "G2");
}

#[test]
fn missing_revision_is_an_error() {
    let repo = base_repo();
    let out = slopguard(repo.path(), &["check", "--commit", "no-such-rev"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown revision `no-such-rev`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn not_a_repository_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = slopguard(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not inside a git repository"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn binary_invalid_utf8_and_huge_files() {
    let repo = base_repo();
    // A real binary file (PNG header) is fine.
    repo.write("logo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe");
    // Invalid UTF-8 in a Python file is garbage.
    repo.write("src/bad.py", b"x = '\xff\xfe'\n");
    // A 50 MB file is over the size cap.
    repo.write("data/big.txt", vec![b'a'; 50 * 1024 * 1024]);
    let rev = repo.commit("mixed");
    let (code, r) = slopguard_json(
        repo.path(),
        &["check", "--commit", &rev, "--format", "json"],
    );
    assert_eq!(code, 1, "{r}");
    let paths: Vec<&str> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert!(paths.contains(&"src/bad.py"), "{paths:?}");
    assert!(paths.contains(&"data/big.txt"), "{paths:?}");
    assert!(!paths.contains(&"logo.png"), "{paths:?}");
}

#[test]
fn bare_repository_commit_check() {
    let repo = base_repo();
    repo.write("src/app.py", "def main(:\n");
    let rev = repo.commit("break");
    let bare = tempfile::tempdir().unwrap();
    let bare_path = bare.path().join("r.git");
    let st = Command::new("git")
        .args(["clone", "-q", "--bare"])
        .arg(repo.path())
        .arg(&bare_path)
        .status()
        .unwrap();
    assert!(st.success());
    let (code, r) = slopguard_json(&bare_path, &["check", "--commit", &rev, "--format", "json"]);
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["findings"][0]["code"], "G2");
}

#[test]
fn task_makes_intent_guards_block() {
    let repo = base_repo();
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"x\"\nversion = \"0.1.0\"\n",
    );
    let (code, _) = slopguard_json(repo.path(), &["check", "--format", "json"]);
    assert_eq!(code, 0, "without a task a manifest edit only warns");
    let (code, r) = slopguard_json(
        repo.path(),
        &[
            "check",
            "--task",
            "fix main in src/app.py",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["findings"][0]["code"], "G1");
    let (code, _) = slopguard_json(
        repo.path(),
        &[
            "check",
            "--task",
            "create pyproject.toml",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0);
}

#[test]
fn config_switches_guards() {
    let repo = base_repo();
    repo.write("src/app.py", "def main(:\n");
    repo.write("slopguard.toml", "[guards.syntax]\nseverity = \"warn\"\n");
    let (code, r) = slopguard_json(repo.path(), &["check", "--format", "json"]);
    assert_eq!(code, 0, "{r}");
    assert_eq!(r["findings"][0]["severity"], "warn");
    let (code, _) = slopguard_json(
        repo.path(),
        &["check", "--disable", "G2", "--format", "json"],
    );
    assert_eq!(code, 0);
    repo.write("slopguard.toml", "[guards.no-such-guard]\n");
    let out = slopguard(repo.path(), &["check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown guard `no-such-guard`"));
}

#[test]
fn guards_list_and_explain() {
    let repo = base_repo();
    let out = slopguard(repo.path(), &["guards"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("symbol-preservation"));
    // The run pipeline's gates are listed and explained too.
    assert!(
        text.contains("test-regression") && text.contains("failure-memory"),
        "{text}"
    );
    let out = slopguard(repo.path(), &["guards", "explain", "G8"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("# test-regression (G8)"));
    let out = slopguard(repo.path(), &["guards", "explain", "build"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("# build"));
    let out = slopguard(repo.path(), &["guards", "explain", "G7"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("# G7 symbol-preservation"));
    let out = slopguard(repo.path(), &["guards", "explain", "G99"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn replay_counts_firings() {
    let repo = base_repo();
    repo.write("src/app.py", "def main():\n    return 2\n");
    repo.commit("fine");
    repo.write("src/app.py", "def main(:\n");
    let bad = repo.commit("broken");
    repo.write("src/app.py", "def main():\n    return 3\n");
    repo.commit("fixed");
    let (code, r) = slopguard_json(repo.path(), &["replay", "HEAD~3..HEAD", "--format", "json"]);
    assert_eq!(code, 0, "{r}");
    assert_eq!(r["commits"], 3);
    assert_eq!(r["guards"]["syntax"]["blocked_commits"], 1);
    assert_eq!(r["guards"]["syntax"]["commits"][0]["commit"], bad);
    let out = slopguard(repo.path(), &["replay", "nope..HEAD"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn replay_prints_plain_progress_lines_when_stderr_is_not_a_terminal() {
    let repo = base_repo();
    repo.write("src/app.py", "def main():\n    return 2\n");
    repo.commit("fine");
    let out = slopguard(repo.path(), &["replay", "HEAD~1..HEAD", "-j", "1"]);
    assert_eq!(out.status.code(), Some(0));
    let err = stderr(&out);
    assert!(
        err.contains("[00:00] replay: 1 commit(s) on 1 thread(s)"),
        "{err}"
    );
    assert!(!err.contains('\r'), "no bar redraws in a log: {err:?}");
}

/// Runs `check` with `args` and returns its exit code and stderr.
fn refused(repo: &Repo, args: &[&str]) -> (Option<i32>, String) {
    let out = slopguard(repo.path(), args);
    (out.status.code(), stderr(&out))
}

#[test]
fn patches_that_are_not_a_patch_list_are_refused_naming_the_file() {
    let repo = base_repo();
    for (content, says) in [
        ("{\"x\":1}", "no `patches` key (keys: x)"),
        ("{}", "no `patches` key (keys: none)"),
        ("", "the input is empty"),
        ("  \n\n", "the input is empty"),
        ("{\"patches\": []}", "the patch list is empty"),
        ("[]", "the patch list is empty"),
        (
            "just some prose from a model\n",
            "neither JSON patches nor edit blocks",
        ),
    ] {
        repo.write("reply.json", content);
        let (code, err) = refused(&repo, &["check", "--patches", "reply.json"]);
        assert_eq!(code, Some(2), "{content:?}: {err}");
        assert!(err.contains("--patches reply.json"), "{content:?}: {err}");
        assert!(err.contains(says), "{content:?}: {err}");
        assert!(err.contains("expected JSON patches"), "{content:?}: {err}");
    }
    // A real patch list still passes.
    repo.write(
        "reply.json",
        r#"{"patches": [{"action": "modify", "path": "src/app.py", "content": "def main():\n    return 2\n"}]}"#,
    );
    let (code, err) = refused(&repo, &["check", "--patches", "reply.json"]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn empty_or_foreign_diffs_are_refused_naming_the_file() {
    let repo = base_repo();
    for (content, says) in [
        ("", "the diff is empty: expected a unified diff"),
        ("\n", "the diff is empty: expected a unified diff"),
        (
            "this is not a diff\n",
            "no file headers (`--- a/x` / `+++ b/x` or `diff --git`)",
        ),
    ] {
        repo.write("change.diff", content);
        let (code, err) = refused(&repo, &["check", "--diff", "change.diff"]);
        assert_eq!(code, Some(2), "{content:?}: {err}");
        assert!(err.contains("--diff change.diff"), "{content:?}: {err}");
        assert!(err.contains(says), "{content:?}: {err}");
    }
}

#[test]
fn malformed_task_files_are_refused_naming_the_file() {
    let repo = base_repo();
    for (name, content, says) in [
        ("task.toml", "", "the file is empty"),
        ("task.toml", "title = \n", "task.toml"),
        ("task.toml", "titel = \"Fix it\"\n", "unknown field `titel`"),
        ("task.json", "{}", "no `title` or `description`"),
        ("task.json", "{\"title\": 3}", "invalid type"),
        ("task.txt", "\n\n", "the file is empty"),
    ] {
        repo.write(name, content);
        let (code, err) = refused(&repo, &["check", "--task-file", name]);
        assert_eq!(code, Some(2), "{name} {content:?}: {err}");
        assert!(
            err.contains(&format!("invalid task file {name}")),
            "{name} {content:?}: {err}"
        );
        assert!(err.contains(says), "{name} {content:?}: {err}");
    }
    repo.write(
        "task.toml",
        "title = \"Fix the return value in src/app.py\"\n",
    );
    let (code, err) = refused(&repo, &["check", "--task-file", "task.toml"]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn malformed_configs_are_refused_naming_the_file() {
    let repo = base_repo();
    for (content, says) in [
        ("[guards.containment\n", "slopguard.toml"),
        ("[guards.nonsense]\n", "unknown guard `nonsense`"),
        (
            "[guards.G7]\nenabled = \"yes\"\n",
            "expected `true` or `false`",
        ),
        (
            "[guards.G7]\nseverity = \"loud\"\n",
            "expected \"block\" or \"warn\"",
        ),
        ("[paths]\nexclud = []\n", "unknown field `exclud`"),
    ] {
        repo.write("slopguard.toml", content);
        for args in [&["check"][..], &["guards"][..]] {
            let (code, err) = refused(&repo, args);
            assert_eq!(code, Some(2), "{args:?} {content:?}: {err}");
            assert!(
                err.contains("slopguard.toml"),
                "{args:?} {content:?}: {err}"
            );
            assert!(err.contains(says), "{args:?} {content:?}: {err}");
        }
    }
    // The same file given with --config is named as given.
    repo.remove("slopguard.toml");
    repo.write("other.toml", "[guards.G7]\nseverity = \"loud\"\n");
    let (code, err) = refused(&repo, &["check", "--config", "other.toml"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("other.toml"), "{err}");
}

/// `check --commit` starts no git process for a plain edit (the repository is read
/// in-process), and asks `git diff-tree` for the changed files only when the commit both deletes and adds files,
/// which git may pair as a rename by similarity.
#[test]
fn commit_check_runs_git_only_for_possible_renames() {
    let repo = base_repo();
    repo.write("src/app.py", "def main():\n    return 2\n");
    repo.write("src/util.py", "def helper():\n    return 3\n");
    let edit = repo.commit("edit and add");
    repo.git(&["mv", "src/util.py", "src/helpers.py"]);
    let rename = repo.commit("rename");
    let real = Command::new("sh")
        .args(["-c", "command -v git"])
        .output()
        .unwrap();
    let real = String::from_utf8_lossy(&real.stdout).trim().to_string();
    let wrap = tempfile::tempdir().unwrap();
    let log = wrap.path().join("calls.log");
    let script = wrap.path().join("git");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\nexec '{real}' \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        wrap.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let check = |rev: &str| {
        let out = Command::new(bin())
            .current_dir(repo.path())
            .args(["check", "--commit", rev, "--format", "json"])
            .env("PATH", &path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let calls = std::fs::read_to_string(&log).unwrap_or_default();
        let _ = std::fs::remove_file(&log);
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (calls, r["files"].clone())
    };
    let (calls, files) = check(&edit);
    assert_eq!(calls, "", "no git process for a plain edit");
    assert_eq!(files, serde_json::json!(["src/app.py", "src/util.py"]));
    let (calls, files) = check(&rename);
    let calls: Vec<&str> = calls.lines().collect();
    assert!(calls[0].contains("diff-tree"), "{calls:#?}");
    // Blobs are still read in-process (the rest is a guard's search for the old name).
    assert!(
        calls
            .iter()
            .all(|c| !c.contains("cat-file") && !c.contains("rev-parse")),
        "{calls:#?}"
    );
    assert_eq!(files, serde_json::json!(["src/helpers.py"]), "a rename");
}

/// Files in the analysis store under `dir`.
fn kept_analyses(dir: &std::path::Path) -> usize {
    fn walk(p: &std::path::Path) -> usize {
        std::fs::read_dir(p)
            .map(|rd| {
                rd.flatten()
                    .map(|e| match e.file_type() {
                        Ok(t) if t.is_dir() => walk(&e.path()),
                        _ => 1,
                    })
                    .sum()
            })
            .unwrap_or(0)
    }
    walk(dir)
}

#[test]
fn a_second_check_reads_kept_analyses_and_reports_the_same() {
    let repo = Repo::new();
    // Big enough to be kept (small texts are parsed every time).
    let helpers: String = (0..120)
        .map(|i| format!("def helper_{i}(x):\n    return x + {i}\n\n"))
        .collect();
    repo.write(
        "src/lib.py",
        format!("{helpers}def used(x):\n    return x\n"),
    );
    repo.write("src/app.py", "from lib import used\n\nprint(used(1))\n");
    repo.commit("initial");
    // Drop `used`, still called from app.py: symbol-preservation blocks, resolving the name
    // in the files' scopes.
    repo.write(
        "src/lib.py",
        format!("{helpers}def other(x):\n    return x\n"),
    );
    let rev = repo.commit("drop used");
    let cache = tempfile::tempdir().unwrap();
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "--commit", &rev, "--format", "json"];
        args.extend(extra);
        let out = Command::new(bin())
            .current_dir(repo.path())
            .args(&args)
            .env("SLOPGUARD_CACHE_DIR", cache.path())
            .output()
            .unwrap();
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), r["findings"].clone())
    };
    let (code, uncached) = check(&["--no-cache"]);
    assert_eq!(code, Some(1), "{uncached}");
    assert!(uncached.to_string().contains("used"), "{uncached}");
    assert_eq!(kept_analyses(cache.path()), 0, "--no-cache keeps nothing");
    let cold = check(&[]);
    assert_eq!(
        kept_analyses(cache.path()),
        2,
        "both versions of lib.py kept"
    );
    let warm = check(&[]);
    assert_eq!(cold, (Some(1), uncached.clone()));
    assert_eq!(warm, (Some(1), uncached.clone()));
    assert_eq!(kept_analyses(cache.path()), 2);
    // --cache-dir wins over the environment.
    let other = tempfile::tempdir().unwrap();
    let elsewhere = check(&["--cache-dir", other.path().to_str().unwrap()]);
    assert_eq!(elsewhere, (Some(1), uncached));
    assert_eq!(kept_analyses(other.path()), 2);
}

#[test]
fn diagnostics_are_not_coloured_when_stderr_is_not_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    for args in [
        &["init", "-q"][..],
        &["config", "user.email", "t@example.com"],
        &["config", "user.name", "t"],
    ] {
        std::process::Command::new("git")
            .args(args)
            .current_dir(r)
            .output()
            .unwrap();
    }
    std::fs::write(r.join("a.py"), "x = 1\n").unwrap();
    let out = assert_cmd::Command::cargo_bin("slopguard")
        .unwrap()
        .args(["--log", "trace", "analyze"])
        .arg(r)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("TRACE") || err.contains("DEBUG"), "{err}");
    assert!(!err.contains('\u{1b}'), "raw ANSI codes on a file: {err:?}");
}

/// `git diff` of files with non-ASCII names, as git writes it by default: C-quoted names
/// (`"a/src/\303\251t\303\251.py"`) in the `diff --git`, `---`/`+++` and `rename` lines. The diff
/// applies to the right files; a broken file is reported under its real name.
#[test]
fn git_diff_with_quoted_non_ascii_paths() {
    let repo = base_repo();
    repo.write("src/\u{e9}t\u{e9}.py", "def f():\n    return 1\n");
    let body: String = (0..8)
        .map(|i| format!("def g{i}():\n    return {i}\n\n\n"))
        .collect();
    repo.write("src/old \u{f1}.py", &body);
    repo.commit("non-ascii names");
    repo.write("src/\u{e9}t\u{e9}.py", "def f():\n    return 2\n");
    repo.git(&["mv", "src/old \u{f1}.py", "src/new \u{f1}.py"]);
    repo.write(
        "src/new \u{f1}.py",
        format!("{body}def h():\n    return 3\n"),
    );
    repo.write("src/n\u{fc}.py", "x = 1\n");
    repo.git(&["add", "-A"]);
    let diff = repo.git(&[
        "-c",
        "core.quotePath=true",
        "diff",
        "--cached",
        "-M",
        "HEAD",
    ]);
    assert!(
        diff.contains("\"a/src/\\303\\251t\\303\\251.py\""),
        "{diff}"
    );
    assert!(
        diff.contains("rename from \"src/old \\303\\261.py\""),
        "{diff}"
    );
    repo.git(&["reset", "-q", "--hard"]);
    repo.write("../quoted.diff", &diff);
    let (code, r) = slopguard_json(
        repo.path(),
        &["check", "--diff", "../quoted.diff", "--format", "json"],
    );
    assert_eq!(code, 0, "{r}");
    let mut files: Vec<&str> = r["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f.as_str())
        .collect();
    files.sort_unstable();
    assert_eq!(
        files,
        [
            "src/new \u{f1}.py",
            "src/n\u{fc}.py",
            "src/\u{e9}t\u{e9}.py"
        ],
        "{r}"
    );
    // The same diff with a syntax error in the quoted file: blocked, under its real name.
    let broken = diff.replace("+    return 2", "+    return (2");
    repo.write("../broken.diff", &broken);
    let (code, r) = slopguard_json(
        repo.path(),
        &["check", "--diff", "../broken.diff", "--format", "json"],
    );
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["findings"][0]["path"], "src/\u{e9}t\u{e9}.py", "{r}");
}

/// A repository owned by another user, which git refuses: the error says so and how to trust
/// it, not "not inside a git repository". Needs root to give the repository away (skipped
/// otherwise).
#[test]
fn repository_git_refuses_for_its_ownership_says_so() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: changing a repository's owner needs root");
        return;
    }
    let repo = base_repo();
    repo.write("src/app.py", "def main(:\n");
    let chown = Command::new("chown")
        .args(["-R", "54321:54321"])
        .arg(repo.path())
        .status()
        .unwrap();
    assert!(chown.success());
    let out = Command::new(bin())
        .current_dir(repo.path())
        .arg("check")
        // A HOME without a gitconfig, so no safe.directory = * of the machine applies.
        .env("HOME", repo.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("dubious ownership"), "{err}");
    assert!(
        err.contains("git config --global --add safe.directory"),
        "{err}"
    );
    assert!(!err.contains("not inside a git repository"), "{err}");
}

/// One convention for the repository argument: `analyze`, `plan` and `run` take `-C PATH` as
/// `check` and `replay` do, and their PATH still works; both at once is a usage error.
#[test]
fn the_repository_is_dash_c_for_every_command_and_path_still_works() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    std::fs::write(r.join("a.py"), "def f():\n    return 1\n").unwrap();
    let analyze = |args: &[&str]| {
        assert_cmd::Command::cargo_bin("slopguard")
            .unwrap()
            .current_dir(std::env::temp_dir())
            .args(["analyze", "--no-run", "--format", "json"])
            .args(args)
            .output()
            .unwrap()
    };
    let path = r.to_str().unwrap();
    let by_path = analyze(&[path]);
    let by_c = analyze(&["-C", path]);
    let by_repo = analyze(&["--repo", path]);
    for out in [&by_path, &by_c, &by_repo] {
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let root = |out: &std::process::Output| {
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["root"]
            .as_str()
            .expect("the report names its root")
            .to_string()
    };
    assert_eq!(root(&by_path), root(&by_c));
    assert_eq!(root(&by_path), root(&by_repo));
    let both = analyze(&["-C", path, path]);
    assert_eq!(both.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&both.stderr).contains("cannot be used with"),
        "{}",
        String::from_utf8_lossy(&both.stderr)
    );
}

/// A diff over the input cap is refused before it is read whole: exit 2 and a message saying
/// how to raise the cap; under it, the same diff is checked.
#[test]
fn a_diff_over_the_input_cap_is_refused_with_how_to_raise_it() {
    let repo = base_repo();
    let mut diff = String::from(
        "--- a/src/app.py\n+++ b/src/app.py\n@@ -1,2 +1,2 @@\n def main():\n-    return 1\n+    return 2\n",
    );
    // Padding after the last hunk: 1.5 MiB of context that no hunk claims.
    diff.push_str(&"# padding line that no hunk claims\n".repeat(45_000));
    repo.write("big.diff", &diff);
    let run = |cap: &str| {
        Command::new(bin())
            .current_dir(repo.path())
            .env("SLOPGUARD_MAX_INPUT_MB", cap)
            .args(["check", "--diff", "big.diff"])
            .output()
            .unwrap()
    };
    let refused = run("1");
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("larger than 1 MiB"),
        "{}",
        stderr(&refused)
    );
    assert!(
        stderr(&refused).contains("SLOPGUARD_MAX_INPUT_MB"),
        "{}",
        stderr(&refused)
    );
    let read = run("4");
    assert!(!stderr(&read).contains("larger than"), "{}", stderr(&read));
    // From stdin, where no size is known beforehand, it is refused while it is read.
    let mut piped = Command::new(bin())
        .current_dir(repo.path())
        .env("SLOPGUARD_MAX_INPUT_MB", "1")
        .args(["check", "--diff", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = piped.stdin.take().unwrap();
    // The refusal may close the pipe before all of it is written.
    let _ = std::io::Write::write_all(&mut stdin, diff.as_bytes());
    drop(stdin);
    let refused = piped.wait_with_output().unwrap();
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("(stdin) is larger than 1 MiB"),
        "{}",
        stderr(&refused)
    );
}

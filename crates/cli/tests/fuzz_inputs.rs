//! Fuzzing of the parsers of untrusted input, as property tests: unified and git diffs
//! (parsed, then applied to the file they name), SEARCH/REPLACE edit blocks, the JSON patch
//! list and task files (`slopguard-change`); the model's replies (`worker::reply`); the hook
//! payloads of both agents, hook configurations and goal files (`slopguard-hooks`). Inputs are real examples of each format, mutated the way a
//! fuzzer mutates (bytes inserted, deleted, duplicated, replaced, lines swapped), and plain
//! random text. The property is the fuzzer's: no input makes a parser panic, and what parses
//! stays within the limits the format promises.
//!
//! `cargo test` runs 256 cases per target. `scripts/fuzz.sh` runs them for a budget
//! (`PROPTEST_CASES`), in release mode, and prints the executions.

use std::sync::Arc;

use proptest::prelude::*;
use slopguard_change::{MemTree, Task, from_edit_blocks, from_patch_list, parse_edit_blocks};
use slopguard_change::{parse_patches, unified};

/// Real inputs of each format, the corpus the mutations start from.
const DIFFS: &[&str] = &[
    "diff --git a/src/app.py b/src/app.py\nindex 83db48f..bf269f4 100644\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1,3 +1,4 @@\n def main():\n-    return 1\n+    return 2\n+\n \n",
    "diff --git a/old.txt b/new.txt\nsimilarity index 90%\nrename from old.txt\nrename to new.txt\n--- a/old.txt\n+++ b/new.txt\n@@ -1 +1 @@\n-a\n+b\n",
    "diff --git a/img.png b/img.png\nnew file mode 100644\nindex 0000000..e69de29\nBinary files /dev/null and b/img.png differ\n",
    "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n",
    "diff --git \"a/src/\\303\\251t\\303\\251.py\" \"b/src/\\303\\251t\\303\\251.py\"\n--- \"a/src/\\303\\251t\\303\\251.py\"\n+++ \"b/src/\\303\\251t\\303\\251.py\"\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
    "--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n # demo\n-old line\n\\ No newline at end of file\n+new line\n\\ No newline at end of file\n",
    "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,2 @@\n+def f():\n+    pass\n",
    "--- a/gone.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x = 1\n",
];

const BLOCKS: &[&str] = &[
    "src/app.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n",
    "src/app.py\n```python\n<<<<<<< SEARCH\ndef main():\n=======\ndef main(argv=None):\n>>>>>>> REPLACE\n```\nREADME.md\n<<<<<<< SEARCH\n=======\n# new\n>>>>>>> REPLACE\n",
];

const PATCH_LISTS: &[&str] = &[
    r#"{"commit_message":"fix","patches":[{"action":"modify","path":"src/app.py","edits":[{"search":"return 1","replace":"return 2"}]}]}"#,
    r#"{"patches":[{"action":"create","path":"new.py","content":"x = 1\n"},{"action":"delete","path":"old.py"}]}"#,
    r#"[{"action":"modify","path":"../etc/passwd","edits":[{"search":"","replace":"x"}]}]"#,
];

const REPLIES: &[&str] = &[
    "fix(app): return 2\nsrc/app.py\n```python\ndef main():\n    return 2\n```\n",
    "src/app.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n",
    "```diff\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1,2 +1,2 @@\n def main():\n-    return 1\n+    return 2\n```\n",
    "```json\n{\"patches\":[{\"action\":\"modify\",\"path\":\"src/app.py\",\"edits\":[{\"search\":\"return 1\",\"replace\":\"return 2\"}]}]}\n```",
    "The bug is in `main`.\n```python\ndef main():\n    return 2\n",
];

const HOOK_PAYLOADS: &[&str] = &[
    r#"{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/repo/src/app.py","content":"x = 1\n"}}"#,
    r#"{"session_id":"s1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"src/app.py","old_string":"return 1","new_string":"return 2"}}"#,
    r#"{"session_id":"s2","cwd":"/repo","hook_event_name":"PostToolUse","tool_name":"apply_patch","tool_input":{"command":["apply_patch","*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch"]}}"#,
    r#"{"session_id":"s3","cwd":"/repo","hook_event_name":"Stop","stop_hook_active":false}"#,
];

const HOOK_CONFIGS: &[&str] = &[
    "[hooks]\nmode = \"block\"\noutside_root = \"deny\"\nguards = [\"stub-detection\"]\n",
    "[hooks]\nmode = \"warn\"\n",
];

const GOALS: &[&str] = &[
    "[[criteria]]\nid = \"tests\"\ncommand = \"pytest -q\"\n\n[[criteria]]\nid = \"avg\"\ntest = \"tests/test_calc.py::test_avg\"\n",
];

const TASKS: &[&str] = &[
    "Fix the off-by-one in pager/pages.py\n\nThe last page is missing. Files: pager/pages.py, tests/test_pages.py\n",
    "---\nmanifest: allowed\nfiles: [Cargo.toml]\n---\nBump serde\n",
];

/// The file the diffs and edits apply to.
const APP: &str = "def main():\n    return 1\n\n";

/// One fuzzer mutation: what to do, where (a fraction of the length), how much, with what.
#[derive(Debug, Clone)]
struct Mutation {
    op: u8,
    at: u16,
    len: u8,
    bytes: Vec<u8>,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    (
        0u8..6,
        any::<u16>(),
        any::<u8>(),
        prop::collection::vec(
            prop_oneof![
                Just(b'\n'),
                Just(b'@'),
                Just(b'-'),
                Just(b'+'),
                Just(b' '),
                Just(b'"'),
                Just(b'\\'),
                Just(b'='),
                Just(b'<'),
                Just(b'>'),
                Just(b'{'),
                Just(b'}'),
                any::<u8>(),
            ],
            0..12,
        ),
    )
        .prop_map(|(op, at, len, bytes)| Mutation { op, at, len, bytes })
}

/// `seed` with `mutations` applied, as text (invalid UTF-8 replaced, as a reader would).
fn mutate(seed: &str, mutations: &[Mutation]) -> String {
    let mut b = seed.as_bytes().to_vec();
    for m in mutations {
        let at = if b.is_empty() {
            0
        } else {
            usize::from(m.at) % (b.len() + 1)
        };
        let end = (at + usize::from(m.len) % 16).min(b.len());
        match m.op {
            0 => {
                b.splice(at..at, m.bytes.iter().copied());
            }
            1 => {
                b.drain(at..end);
            }
            2 => {
                let piece: Vec<u8> = b[at..end].to_vec();
                b.splice(at..at, piece);
            }
            3 => {
                for (i, x) in m.bytes.iter().enumerate() {
                    if let Some(c) = b.get_mut(at + i) {
                        *c = *x;
                    }
                }
            }
            4 => {
                // Swap two lines.
                let text = String::from_utf8_lossy(&b).into_owned();
                let mut lines: Vec<&str> = text.split('\n').collect();
                if lines.len() > 1 {
                    let i = at % lines.len();
                    let j = usize::from(m.len) % lines.len();
                    lines.swap(i, j);
                }
                b = lines.join("\n").into_bytes();
            }
            _ => b.truncate(at),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// A seed of `seeds` mutated, or random text.
fn input(seeds: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0..seeds.len(), prop::collection::vec(mutation(), 0..6))
            .prop_map(move |(i, ms)| mutate(seeds[i], &ms)),
        1 => ".{0,200}",
    ]
}

fn base() -> Arc<MemTree> {
    Arc::new(MemTree::new(
        [
            ("src/app.py".to_string(), APP.as_bytes().to_vec()),
            ("README.md".to_string(), b"# demo\nold line".to_vec()),
            ("gone.py".to_string(), b"x = 1\n".to_vec()),
        ]
        .into_iter()
        .collect(),
    ))
}

proptest! {
    #[test]
    fn unified_diffs_parse_and_apply_without_panicking(text in input(DIFFS)) {
        if let Ok(files) = unified::parse(&text) {
            for f in &files {
                let before = match f.old_path.as_deref() {
                    Some("src/app.py") => Some(APP),
                    _ => None,
                };
                let path = f.new_path.as_deref().or(f.old_path.as_deref()).unwrap_or("");
                let _ = unified::apply(path, before, f);
            }
        }
    }

    #[test]
    fn edit_blocks_parse_and_apply_without_panicking(text in input(BLOCKS)) {
        if let Ok(blocks) = parse_edit_blocks(&text) {
            let _ = from_edit_blocks(base(), &blocks);
        }
    }

    #[test]
    fn patch_lists_parse_and_apply_without_panicking(text in input(PATCH_LISTS)) {
        if let Ok(list) = parse_patches(&text)
            && let Ok(set) = from_patch_list(base(), &list)
        {
            // What applies stays inside the tree: no path climbs out of it.
            for c in &set.changes {
                prop_assert!(
                    !c.path.starts_with('/') && !c.path.split('/').any(|s| s == ".."),
                    "{}",
                    c.path
                );
            }
        }
    }

    #[test]
    fn model_replies_parse_and_apply_without_panicking(text in input(REPLIES)) {
        let expected = ["src/app.py".to_string()];
        let _ = slopguard_agent::worker::reply::parse(&text, &expected);
    }

    #[test]
    fn hook_payloads_config_and_goals_parse_without_panicking(
        payload in input(HOOK_PAYLOADS),
        config in input(HOOK_CONFIGS),
        goal in input(GOALS),
    ) {
        let _ = slopguard_hooks::HookInput::parse(payload.as_bytes());
        let _ = slopguard_hooks::HookConfig::parse(&config);
        let _ = slopguard_hooks::goal::Goal::parse(&goal, "goal.toml");
    }

    #[test]
    fn task_files_read_without_panicking(text in input(TASKS)) {
        let task = Task::from_text(&text);
        let _ = task.text();
        let _ = task.hints_path("src/app.py");
        let _ = task.allows_manifest("Cargo.toml");
    }
}

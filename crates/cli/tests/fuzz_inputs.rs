//! Fuzzing of the parsers of untrusted input, as property tests: unified and git diffs
//! (parsed, then applied to the file they name), SEARCH/REPLACE edit blocks, the JSON patch
//! list, the search/replace matcher chain and task files (`slopguard-change`); the model's replies (`worker::reply`); the hook
//! payloads of both agents, hook configurations and goal files (`slopguard-hooks`); the
//! gateway's request bodies and query strings, through its routes (`slopguard-server`). Inputs are real examples of each format, mutated the way a
//! fuzzer mutates (bytes inserted, deleted, duplicated, replaced, lines swapped), and plain
//! random text. The property is the fuzzer's: no input makes a parser panic, and what parses
//! stays within the limits the format promises.
//!
//! `cargo test` runs 256 cases per target. `scripts/fuzz.sh` runs them for a budget
//! (`PROPTEST_CASES`), in release mode, and prints the executions.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

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

/// Files the matcher chain searches, and search texts for them (from the files, re-indented,
/// with trailing spaces, elided lines, escapes).
const MATCH_FILES: &[&str] = &[
    "def main():\n    return 1\n\n\ndef helper(x):\n    if x > 1:\n        return x - 1\n    return x\n",
    "fn add(a: i32, b: i32) -> i32 {\n\ta + b\n}\n\nfn sub(a: i32, b: i32) -> i32 {\n\ta - b\n}\n",
    "const s = \"\\u00e9t\u{e9}\";\nfunction f() {\r\n  return s;\r\n}\n",
];

const MATCH_SEARCHES: &[&str] = &[
    "    return 1\n",
    "if x > 1:\n    return x - 1",
    "def helper(x):\n    ...\n    return x\n",
    "fn sub(a: i32, b: i32) -> i32 {  \n    a - b\n}",
    "function f() {\n  return s;\n}",
    "const s = \"\u{e9}t\u{e9}\";",
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

/// Gateway request bodies: an observation, feedback, a claim and its release.
const GATEWAY_BODIES: &[&str] = &[
    r#"{"repo":"r","run_id":"run-1","agent":"worker","subtask_id":"T1-S1","model":"m","outcome":"failure","touched_files":["src/app.py"],"failure_modes":["test_regression"],"confidence":0.4,"detail":{"why":"x"}}"#,
    r#"{"repo":".","text":"average() divides by n-1","on":"src/app.py:2","severity":"high"}"#,
    r#"{"repo":"r","path":"src/app.py","agent":"a1","run_id":"run-1","ttl_seconds":60}"#,
    r#"{"repo":"r","path":"src/app.py","agent":"a1","lock_id":"0123456789abcdef0123456789abcdef"}"#,
];

/// Gateway query strings, for the endpoints that read them.
const GATEWAY_QUERIES: &[&str] = &[
    "since=2026-11-01T00:00:00Z&limit=10&run_id=run-1&agent=worker&repo=.",
    "since=24h&limit=0",
    "repo=r&path=src/app.py",
    "name=main&target=.",
    "path=src/app.py&target=src",
];

/// The gateway's routes over a real SQLite store and a root holding `src/app.py`, with the
/// runtime that drives them, built once for every case.
struct Gateway {
    rt: tokio::runtime::Runtime,
    router: axum::Router,
    _dir: tempfile::TempDir,
}

fn gateway() -> &'static Gateway {
    static GATEWAY: std::sync::OnceLock<Gateway> = std::sync::OnceLock::new();
    GATEWAY.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/app.py"), APP).unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let store = rt
            .block_on(slopguard_store::Store::open(&format!(
                "sqlite://{}",
                dir.path().join("gateway.db").display()
            )))
            .unwrap();
        let state = slopguard_server::AppState::new(store, None, &[dir.path().to_path_buf()]);
        let router = slopguard_server::router(std::sync::Arc::new(state.unwrap()), 1 << 20);
        Gateway {
            rt,
            router,
            _dir: dir,
        }
    })
}

/// Sends one request through the gateway's routes; its status and body (`None` when the
/// method and target do not even make an HTTP request).
fn gateway_answer(method: &str, target: &str, body: String) -> Option<(u16, Vec<u8>)> {
    use tower::ServiceExt;
    let request = axum::http::Request::builder()
        .method(method)
        .uri(target)
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body))
        .ok()?;
    let gw = gateway();
    gw.rt.block_on(async {
        let response = gw.router.clone().oneshot(request).await.unwrap();
        let status = response.status().as_u16();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        Some((status, bytes.to_vec()))
    })
}

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
    fn search_texts_are_matched_without_panicking(
        file in input(MATCH_FILES),
        search in input(MATCH_SEARCHES),
        replace in input(MATCH_SEARCHES),
    ) {
        use slopguard_change::matcher::{self, Matcher};
        if let Ok((out, how)) = matcher::apply(&file, &search, &replace) {
            // An exact match replaces exactly the one place the search text occurs.
            if how == Matcher::Exact {
                prop_assert_eq!(file.matches(search.as_str()).count(), 1);
                prop_assert_eq!(out, file.replacen(search.as_str(), &replace, 1));
            }
        }
    }

    #[test]
    fn model_replies_parse_and_apply_without_panicking(text in input(REPLIES)) {
        let expected = ["src/app.py".to_string()];
        let _ = slopguard_worker::reply::parse(&text, &expected);
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
    fn gateway_requests_are_answered_without_panicking(
        route in 0usize..8,
        body in input(GATEWAY_BODIES),
        query in input(GATEWAY_QUERIES),
    ) {
        let (method, target) = match route {
            0 => ("POST", "/observation".to_string()),
            1 => ("POST", "/feedback".to_string()),
            2 => ("POST", "/claim".to_string()),
            3 => ("DELETE", "/claim".to_string()),
            4 => ("GET", format!("/repo/agent-log?{query}")),
            5 => ("GET", format!("/claim?{query}")),
            6 => ("GET", format!("/symbol?{query}")),
            _ => ("GET", format!("/file/imports?{query}")),
        };
        if let Some((status, answer)) = gateway_answer(method, &target, body) {
            // A client's bad input is a 4xx with the one error shape, never a server error.
            prop_assert!(status < 500, "{method} {target}: {status} {}", String::from_utf8_lossy(&answer));
            if status >= 400 {
                let json: serde_json::Value = serde_json::from_slice(&answer)
                    .map_err(|e| TestCaseError::fail(format!("{status}: not JSON: {e}")))?;
                prop_assert!(json["error"].is_string(), "{json}");
            }
        }
    }

    #[test]
    fn task_files_read_without_panicking(text in input(TASKS)) {
        let task = Task::from_text(&text);
        let _ = task.text();
        let _ = task.hints_path("src/app.py");
        let _ = task.allows_manifest("Cargo.toml");
    }
}

//! Containment as a property: no path a Write (Claude Code) or `apply_patch` (Codex) names is
//! let through by the hook when it lands outside the project root or inside `.git/`.
//!
//! The oracle is the kernel, not our resolver: every path the hook allows is written the way
//! the tool would write it (parents created), then `canonicalize` says where the bytes went. The
//! sandbox is a project and an "outside" directory seven levels down a temporary directory, and
//! the generator never climbs more than six levels, so even a wrongly allowed path stays inside
//! the temporary directory. Absolute system paths (`/etc/evil.py`) are fixed cases that must be
//! denied; they are never written.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::{Value, json};
use slopguard_hooks::store::{MemoryStore, SessionStore, StoreError};
use slopguard_hooks::{Agent, Deps, HookAnswer, HookConfig, PassJudge};

/// The sandbox: `<tmp>/l1/../l7/{project,outside}` with symlinks inside the project.
struct Sandbox {
    _tmp: tempfile::TempDir,
    universe: PathBuf,
    project: PathBuf,
    outside: PathBuf,
}

impl Sandbox {
    fn new() -> Sandbox {
        let tmp = tempfile::tempdir().unwrap();
        let universe = tmp
            .path()
            .canonicalize()
            .unwrap()
            .join("l1/l2/l3/l4/l5/l6/l7");
        let project = universe.join("project");
        let outside = universe.join("outside");
        std::fs::create_dir_all(project.join("sub")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        slopguard_testkit::git(&project, &["init", "-q"]);
        let link = |target: &Path, name: &str| {
            std::os::unix::fs::symlink(target, project.join(name)).unwrap();
        };
        link(&outside, "link_out");
        link(Path::new("sub"), "link_in");
        link(Path::new(".."), "up_link");
        link(&outside.join("gone.py"), "dangle.py");
        link(&outside.join("newdir"), "dangle_dir");
        link(Path::new(".git"), "git_link");
        std::os::unix::fs::symlink("../..", project.join("sub/back")).unwrap();
        Sandbox {
            _tmp: tmp,
            universe,
            project,
            outside,
        }
    }
}

/// Runs one PreToolUse event through the hook engine (the guards pass everything, so only
/// containment can deny).
fn pre_tool_use(
    agent: Agent,
    cwd: &Path,
    tool: &str,
    input: Value,
    config: HookConfig,
) -> HookAnswer {
    let store = |_: &Path| -> Result<Box<dyn SessionStore>, StoreError> {
        Ok(Box::new(MemoryStore::default()))
    };
    let deps = Deps {
        store: &store,
        judge: &PassJudge,
        fallback_dir: cwd.to_path_buf(),
        config: Some(config),
        config_file: None,
        lean: false,
    };
    let event = json!({
        "session_id": "s",
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
    });
    slopguard_hooks::handle(agent, event.to_string().as_bytes(), &deps)
}

/// The permission decision of an answer (`None`: allowed, no output).
fn decision(answer: &HookAnswer) -> Option<String> {
    if answer.stdout.is_empty() {
        assert_eq!(answer.exit_code, 0, "{answer:?}");
        return None;
    }
    let v: Value = serde_json::from_str(&answer.stdout).unwrap();
    let out = &v["hookSpecificOutput"];
    assert_eq!(out["hookEventName"], "PreToolUse");
    assert!(
        out["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.starts_with("slopguard: ")),
        "{v}"
    );
    Some(out["permissionDecision"].as_str().unwrap().to_string())
}

fn write_input(path: &str) -> Value {
    json!({"file_path": path, "content": "x = 1\n"})
}

fn patch_input(path: &str) -> Value {
    json!({"command": format!("*** Begin Patch\n*** Add File: {path}\n+x = 1\n*** End Patch\n")})
}

/// Writes `path` as the edit tool would (relative to `cwd`, parents created) and returns where
/// the kernel put it; `None` when the write fails (nothing was written).
fn kernel_write(cwd: &Path, path: &str) -> Option<PathBuf> {
    let abs = cwd.join(path);
    if let Some(parent) = abs.parent() {
        std::fs::create_dir_all(parent).ok()?;
    }
    std::fs::write(&abs, "x = 1\n").ok()?;
    let real = abs.canonicalize().unwrap();
    std::fs::remove_file(&abs).unwrap();
    Some(real)
}

/// The property: allowed means the kernel writes inside the project and outside `.git/`.
fn assert_contained(sb: &Sandbox, cwd: &Path, path: &str, answer: &HookAnswer) {
    if decision(answer).is_some() {
        return;
    }
    assert!(!path.contains('\0'), "a NUL path was allowed: {path:?}");
    let Some(real) = kernel_write(cwd, path) else {
        return;
    };
    let rel = real.strip_prefix(&sb.project).unwrap_or_else(|_| {
        panic!(
            "allowed {path:?} from {} wrote {}",
            cwd.display(),
            real.display()
        )
    });
    assert!(
        !rel.components()
            .any(|c| c.as_os_str().eq_ignore_ascii_case(".git")),
        "allowed {path:?} wrote inside .git/: {}",
        real.display()
    );
}

/// Path pieces: `..`, symlinks inside and out, `.git` in two cases, Unicode in two normal
/// forms, case variants, a long name and a NUL byte.
fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => Just("..".to_string()),
        1 => Just(".".to_string()),
        2 => Just("sub".to_string()),
        2 => Just("link_out".to_string()),
        2 => Just("link_in".to_string()),
        2 => Just("up_link".to_string()),
        1 => Just("dangle_dir".to_string()),
        1 => Just("git_link".to_string()),
        1 => Just("back".to_string()),
        1 => Just("project".to_string()),
        1 => Just("PROJECT".to_string()),
        1 => Just("outside".to_string()),
        1 => Just(".git".to_string()),
        1 => Just(".GIT".to_string()),
        1 => Just("new".to_string()),
        1 => Just("\u{e9}t\u{e9}".to_string()),
        1 => Just("e\u{301}te\u{301}".to_string()),
        1 => Just("a".repeat(250)),
        1 => Just("n\0ul".to_string()),
    ]
}

fn file_name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("x.py".to_string()),
        Just("X.PY".to_string()),
        Just("dangle.py".to_string()),
        Just("\u{c9}.py".to_string()),
        Just(format!("{}.py", "b".repeat(240))),
    ]
}

/// Where a path starts: absolute at one of the sandbox's directories, or relative to the
/// hook's cwd.
#[derive(Debug, Clone, Copy)]
enum Base {
    Project,
    ProjectUpper,
    Outside,
    Universe,
    Relative,
}

fn base() -> impl Strategy<Value = Base> {
    prop_oneof![
        Just(Base::Project),
        Just(Base::ProjectUpper),
        Just(Base::Outside),
        Just(Base::Universe),
        Just(Base::Relative),
    ]
}

/// A generated case: the path string and the cwd (the project or its `sub/`).
fn build(sb: &Sandbox, base: Base, segs: &[String], name: &str, in_sub: bool) -> (String, PathBuf) {
    let cwd = if in_sub {
        sb.project.join("sub")
    } else {
        sb.project.clone()
    };
    // Never more than six `..` in all, so the kernel stays inside the temporary directory.
    let mut ups = 0;
    let segs: Vec<&str> = segs
        .iter()
        .map(String::as_str)
        .filter(|s| {
            ups += usize::from(*s == "..");
            *s != ".." || ups <= 6
        })
        .collect();
    let tail = segs
        .iter()
        .copied()
        .chain(std::iter::once(name))
        .collect::<Vec<_>>()
        .join("/");
    let start = match base {
        Base::Project => sb.project.display().to_string(),
        Base::ProjectUpper => sb.universe.join("PROJECT").display().to_string(),
        Base::Outside => sb.outside.display().to_string(),
        Base::Universe => sb.universe.display().to_string(),
        Base::Relative => return (tail, cwd),
    };
    (format!("{start}/{tail}"), cwd)
}

proptest! {
    // 384 cases per run by default; `PROPTEST_CASES=N` for a long run.
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// No generated path is allowed outside the project or into `.git/`, for both agents.
    #[test]
    fn no_generated_path_escapes(
        base in base(),
        segs in proptest::collection::vec(segment(), 0..6),
        name in file_name(),
        in_sub in any::<bool>(),
    ) {
        let sb = sandbox();
        let (path, cwd) = build(sb, base, &segs, &name, in_sub);
        let claude = pre_tool_use(Agent::Claude, &cwd, "Write", write_input(&path), HookConfig::default());
        assert_contained(sb, &cwd, &path, &claude);
        if !path.contains(['\0', '\n']) {
            let codex = pre_tool_use(Agent::Codex, &cwd, "apply_patch", patch_input(&path), HookConfig::default());
            assert_contained(sb, &cwd, &path, &codex);
        }
    }
}

/// Cases per run: `PROPTEST_CASES` when set, else 384 (about 2 s here).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(384)
}

/// One sandbox for every generated case (the cases only write files they remove).
fn sandbox() -> &'static Sandbox {
    static SB: std::sync::OnceLock<Sandbox> = std::sync::OnceLock::new();
    SB.get_or_init(Sandbox::new)
}

/// The cases and their neighbours, denied with the documented JSON for both agents.
#[test]
fn escapes_are_denied_with_the_reason() {
    let sb = Sandbox::new();
    let p = &sb.project;
    for path in [
        "/etc/evil.py".to_string(),
        "dir/../../outside.py".to_string(),
        "../outside.py".to_string(),
        "link_out/evil.py".to_string(),
        "dangle.py".to_string(),
        "link_in/../../outside/x.py".to_string(),
        format!("{}/x.py", sb.outside.display()),
        ".git/hooks/pre-commit".to_string(),
        "git_link/config".to_string(),
        "sub/../.GIT/config".to_string(),
        "a\0b.py".to_string(),
    ] {
        let a = pre_tool_use(
            Agent::Claude,
            p,
            "Write",
            write_input(&path),
            HookConfig::default(),
        );
        assert_eq!(decision(&a).as_deref(), Some("deny"), "{path:?}: {a:?}");
        if !path.contains('\0') {
            let c = pre_tool_use(
                Agent::Codex,
                p,
                "apply_patch",
                patch_input(&path),
                HookConfig::default(),
            );
            assert_eq!(
                decision(&c).as_deref(),
                Some("deny"),
                "codex {path:?}: {c:?}"
            );
        }
    }
    let a = pre_tool_use(
        Agent::Claude,
        p,
        "Write",
        write_input("/etc/evil.py"),
        HookConfig::default(),
    );
    assert!(
        a.stdout.contains("outside the project root"),
        "{}",
        a.stdout
    );
    assert!(
        a.stdout.contains("outside_root"),
        "the reason says how to change it"
    );
}

/// Paths inside the project, through `..` and symlinks that stay inside, are allowed.
#[test]
fn inside_paths_are_allowed() {
    let sb = Sandbox::new();
    let p = &sb.project;
    for path in [
        "x.py".to_string(),
        "sub/x.py".to_string(),
        "sub/../x.py".to_string(),
        "link_in/x.py".to_string(),
        "new/dir/\u{e9}t\u{e9}.py".to_string(),
        format!("{}/sub/x.py", p.display()),
        "link_out/../project/x.py".to_string(),
    ] {
        let a = pre_tool_use(
            Agent::Claude,
            p,
            "Write",
            write_input(&path),
            HookConfig::default(),
        );
        assert_eq!(decision(&a), None, "{path:?}: {a:?}");
        let c = pre_tool_use(
            Agent::Codex,
            p,
            "apply_patch",
            patch_input(&path),
            HookConfig::default(),
        );
        assert_eq!(decision(&c), None, "codex {path:?}: {c:?}");
    }
}

/// `outside_root = "ask"` asks in Claude Code and denies in Codex (which cannot ask);
/// `"allow"` lets outside paths through but never `.git/`.
#[test]
fn outside_root_setting() {
    let sb = Sandbox::new();
    let p = &sb.project;
    let with = |text: &str| HookConfig::parse(text).unwrap();
    let ask = with("[hooks]\noutside_root = \"ask\"");
    let a = pre_tool_use(
        Agent::Claude,
        p,
        "Write",
        write_input("/etc/evil.py"),
        ask.clone(),
    );
    assert_eq!(decision(&a).as_deref(), Some("ask"));
    let c = pre_tool_use(
        Agent::Codex,
        p,
        "apply_patch",
        patch_input("/etc/evil.py"),
        ask,
    );
    assert_eq!(decision(&c).as_deref(), Some("deny"));
    assert!(c.stdout.contains("cannot ask"), "{}", c.stdout);
    let allow = with("[hooks]\noutside_root = \"allow\"");
    let a = pre_tool_use(
        Agent::Claude,
        p,
        "Write",
        write_input("../outside.py"),
        allow.clone(),
    );
    assert_eq!(decision(&a), None);
    let g = pre_tool_use(
        Agent::Claude,
        p,
        "Write",
        write_input(".git/config"),
        allow.clone(),
    );
    assert_eq!(decision(&g).as_deref(), Some("deny"));
    // Lean mode skips the guards, not containment.
    let lean = with("[hooks]\nlean = true");
    let l = pre_tool_use(Agent::Claude, p, "Write", write_input("/etc/evil.py"), lean);
    assert_eq!(decision(&l).as_deref(), Some("deny"));
}

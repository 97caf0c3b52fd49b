//! One hook call: read the event, consult the session state, answer in the agent's protocol.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use crate::config::HookConfig;
use crate::containment::{self, Escape, OutsideRoot};
use crate::counts;
use crate::edits::{self, FileChange, Proposed};
use crate::goal::Goal;
use crate::protocol::{self, Agent, HookAnswer, HookInput};
use crate::state::{self, Evidence, StopDecision};
use crate::store::{LedgerEntry, SessionStore};
use crate::tree;
use crate::validation;

/// A guard stack's verdict on proposed changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// The changes must not be written.
    pub blocked: bool,
    /// Findings written for the model (the deny reason).
    pub feedback: String,
    /// A short stable summary of the verdict (guard slugs), used to notice progress.
    pub signature: String,
}

/// Judges proposed changes before they are written (the static guard stack).
pub trait EditJudge {
    /// Judges `changes` (repository-relative paths) against the tree at `root`. `tool` is the
    /// agent's tool (`Write` rewrites whole files, so a dropped definition is more likely an
    /// accident than with a targeted `Edit` or patch hunk). An `Err` is an internal failure of
    /// the guards, handled by `fail_closed_on_guard_error`.
    fn judge(&self, root: &Path, changes: &[FileChange], tool: &str) -> Result<Judgement, String>;
}

/// A judge that passes everything (lean mode, tests of the other gates).
#[derive(Debug, Default, Clone, Copy)]
pub struct PassJudge;

impl EditJudge for PassJudge {
    fn judge(
        &self,
        _root: &Path,
        _changes: &[FileChange],
        _tool: &str,
    ) -> Result<Judgement, String> {
        Ok(Judgement {
            blocked: false,
            feedback: String::new(),
            signature: "pass".into(),
        })
    }
}

/// Builds the session store for a repository root (so the store can live in the repository or
/// be opened from a URL).
pub type StoreFactory<'a> =
    dyn Fn(&Path) -> Result<Box<dyn SessionStore + 'a>, crate::store::StoreError> + 'a;

/// What a hook call needs besides its input.
pub struct Deps<'a> {
    /// Opens the session store for a repository root.
    pub store: &'a StoreFactory<'a>,
    /// The guard stack.
    pub judge: &'a dyn EditJudge,
    /// Directory to use when the input has no usable `cwd` (the process's).
    pub fallback_dir: PathBuf,
    /// Settings to use instead of reading any file (tests).
    pub config: Option<HookConfig>,
    /// The `slopguard.toml` to read instead of the repository's (`--config`).
    pub config_file: Option<PathBuf>,
    /// Force lean mode on (`--lean`).
    pub lean: bool,
}

/// Tools whose input is a shell command.
fn is_shell_tool(tool: &str) -> bool {
    matches!(
        tool,
        "Bash"
            | "bash"
            | "shell"
            | "local_shell"
            | "exec_command"
            | "unified_exec"
            | "container.exec"
    )
}

/// Handles one hook event given as raw stdin bytes.
pub fn handle(agent: Agent, raw: &[u8], deps: &Deps<'_>) -> HookAnswer {
    let input = match HookInput::parse(raw) {
        Ok(i) => i,
        Err(e) => {
            let root = tree::repo_root(&deps.fallback_dir).unwrap_or(deps.fallback_dir.clone());
            let config = settings(&root, deps).0;
            let msg = format!("slopguard hook {}: {e}", agent_name(agent));
            return if config.fail_closed_on_bad_input {
                HookAnswer::exit_block(&format!(
                    "{msg} (blocked: hooks.fail_closed_on_bad_input = true)"
                ))
            } else {
                HookAnswer::allow().with_stderr(&format!(
                    "{msg} (let through: hooks.fail_closed_on_bad_input = false)"
                ))
            };
        }
    };
    let cwd = Some(PathBuf::from(&input.cwd))
        .filter(|p| !input.cwd.is_empty() && p.is_dir())
        .unwrap_or(deps.fallback_dir.clone());
    let root = tree::repo_root(&cwd).unwrap_or(cwd.clone());
    let (config, config_err) = settings(&root, deps);
    let answer = match input.hook_event_name.as_str() {
        "PreToolUse" if edits::writes_files(&input.tool_name) => {
            match contain(agent, &input, &root, &cwd, &config) {
                Some(refusal) => refusal,
                None => pre_edit(&input, &root, &cwd, &config, deps),
            }
        }
        "PostToolUse" if edits::is_edit_tool(&input.tool_name) => {
            post_edit(&input, &root, &cwd, &config, deps)
        }
        "PostToolUse" | "PostToolUseFailure" if is_shell_tool(&input.tool_name) => {
            post_shell(&input, &root, deps)
        }
        "Stop" | "SubagentStop" => stop(&input, &root, &config, deps),
        _ => HookAnswer::allow(),
    };
    match config_err {
        Some(e) => answer.with_stderr(&format!(
            "slopguard: bad hook settings, using defaults: {e}"
        )),
        None => answer,
    }
}

fn agent_name(agent: Agent) -> &'static str {
    match agent {
        Agent::Claude => "claude",
        Agent::Codex => "codex",
    }
}

fn settings(root: &Path, deps: &Deps<'_>) -> (HookConfig, Option<String>) {
    let (mut c, err) = match &deps.config {
        Some(c) => (c.clone(), None),
        None => match HookConfig::load(root, deps.config_file.as_deref()) {
            Ok(c) => (c, None),
            Err(e) => (HookConfig::default(), Some(e)),
        },
    };
    c.lean |= deps.lean;
    (c, err)
}

fn read_file(root: &Path) -> impl FnMut(&str) -> Option<String> + '_ {
    move |rel: &str| {
        std::fs::read(root.join(rel))
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    }
}

/// The answer to an edit that names a path outside the project, inside `.git/` or unusable
/// (`None`: every path lands inside, go on judging). Checked before lean mode and the guards,
/// so no setting but `outside_root` lets such a write through silently.
fn contain(
    agent: Agent,
    input: &HookInput,
    root: &Path,
    cwd: &Path,
    config: &HookConfig,
) -> Option<HookAnswer> {
    let escapes: Vec<Escape> = edits::named_paths(&input.tool_name, &input.tool_input)
        .iter()
        .filter_map(|p| containment::locate(root, cwd, p).err())
        .collect();
    let always_denied = escapes.iter().any(|e| !e.is_outside());
    if escapes.is_empty() || (!always_denied && config.outside_root == OutsideRoot::Allow) {
        return None;
    }
    let what: Vec<String> = escapes.iter().map(|e| e.describe(root)).collect();
    let mut reason = format!("slopguard: {}.", what.join("; "));
    if always_denied {
        reason.push_str(" Edit files of the project only, outside .git/.");
        return Some(HookAnswer::deny(&reason));
    }
    reason.push_str(
        " Edits outside the project are refused unless `[hooks] outside_root` in \
         slopguard.toml says \"ask\" or \"allow\"; edit files inside the project instead.",
    );
    match (config.outside_root, agent) {
        (OutsideRoot::Ask, Agent::Claude) => Some(HookAnswer::ask(&reason)),
        (OutsideRoot::Ask, Agent::Codex) => Some(HookAnswer::deny(&format!(
            "{reason} (outside_root = \"ask\", but Codex hooks cannot ask the user, so it is denied)"
        ))),
        _ => Some(HookAnswer::deny(&reason)),
    }
}

fn pre_edit(
    input: &HookInput,
    root: &Path,
    cwd: &Path,
    config: &HookConfig,
    deps: &Deps<'_>,
) -> HookAnswer {
    if config.lean {
        return HookAnswer::allow();
    }
    let changes = match edits::propose(
        &input.tool_name,
        &input.tool_input,
        root,
        cwd,
        read_file(root),
    ) {
        Proposed::Changes(c) if c.is_empty() => return HookAnswer::allow(),
        Proposed::Changes(c) => c,
        // Not ours to block: the tool fails on its own, or the file is outside the project and
        // `outside_root = "allow"` let it through `contain`.
        Proposed::Skip(_) => return HookAnswer::allow(),
        Proposed::Invalid(why) => {
            return HookAnswer::allow()
                .with_stderr(&format!("slopguard: not judging this patch: {why}"));
        }
    };
    let verdict = catch_unwind(AssertUnwindSafe(|| {
        deps.judge.judge(root, &changes, &input.tool_name)
    }))
    .unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        Err(format!("the guard stack panicked: {msg}"))
    });
    match verdict {
        Ok(j) => {
            // Remember the verdict per file (doom-loop progress); best effort.
            if let Ok(store) = (deps.store)(root) {
                let paths: Vec<String> = changes.iter().map(|c| c.path.clone()).collect();
                let sig = j.signature.clone();
                let _ = store.update(
                    &input.session_id,
                    Box::new(move |s| {
                        for p in &paths {
                            state::record_guard_verdict(s, p, &sig);
                        }
                    }),
                );
            }
            if j.blocked {
                HookAnswer::deny(&j.feedback)
            } else {
                HookAnswer::allow()
            }
        }
        Err(e) => {
            let msg = format!("slopguard: the guards failed while judging this edit: {e}");
            if config.fail_closed_on_guard_error {
                HookAnswer::deny(&format!(
                    "{msg}. The edit was not checked, so it is denied \
                     (hooks.fail_closed_on_guard_error = true)."
                ))
                .with_stderr(&msg)
            } else {
                HookAnswer::allow().with_stderr(&format!(
                    "{msg} (let through: hooks.fail_closed_on_guard_error = false)"
                ))
            }
        }
    }
}

/// Paths an edit tool call touched (repository-relative).
fn edited_paths(input: &HookInput, root: &Path, cwd: &Path) -> Vec<String> {
    match input.tool_name.as_str() {
        "apply_patch" => {
            let Some(text) = edits::patch_text(&input.tool_input) else {
                return Vec::new();
            };
            let Ok(patch) = slopguard_apply_patch::parse(&text) else {
                return Vec::new();
            };
            patch
                .operations
                .iter()
                .filter_map(|op| {
                    let p = match op {
                        slopguard_apply_patch::Operation::Update {
                            move_to: Some(dest),
                            ..
                        } => dest.as_str(),
                        other => other.path(),
                    };
                    edits::relative_path(root, cwd, p)
                })
                .collect()
        }
        _ => input
            .tool_input
            .get("file_path")
            .or_else(|| input.tool_input.get("path"))
            .and_then(serde_json::Value::as_str)
            .and_then(|f| edits::relative_path(root, cwd, f))
            .into_iter()
            .collect(),
    }
}

fn post_edit(
    input: &HookInput,
    root: &Path,
    cwd: &Path,
    config: &HookConfig,
    deps: &Deps<'_>,
) -> HookAnswer {
    let paths = edited_paths(input, root, cwd);
    if paths.is_empty() {
        return HookAnswer::allow();
    }
    let store = match (deps.store)(root) {
        Ok(s) => s,
        Err(e) => return HookAnswer::allow().with_stderr(&format!("slopguard: {e}")),
    };
    let threshold = config.doom_loop_threshold;
    let mut nudges: Vec<String> = Vec::new();
    let slot = &mut nudges;
    let r = store.update(
        &input.session_id,
        Box::new(move |s| {
            for p in &paths {
                if let Some(n) = state::record_edit(s, p, threshold) {
                    slot.push(n);
                }
            }
        }),
    );
    if let Err(e) = r {
        return HookAnswer::allow().with_stderr(&format!("slopguard: {e}"));
    }
    if nudges.is_empty() {
        HookAnswer::allow()
    } else {
        HookAnswer::context("PostToolUse", &nudges.join("\n\n"))
    }
}

fn current_tree(root: &Path) -> Option<String> {
    tree::tree_hash(root).ok()
}

fn post_shell(input: &HookInput, root: &Path, deps: &Deps<'_>) -> HookAnswer {
    let Some(command) = protocol::command_text(&input.tool_input) else {
        return HookAnswer::allow();
    };
    let detection = validation::detect(&command);
    if !detection.any() {
        return HookAnswer::allow();
    }
    let (exit_code, output) = protocol::bash_result(input);
    let report = counts::read(&output);
    let (success, note) = state::judge_run(&detection, exit_code, report.counts);
    let tree = current_tree(root);
    let store = match (deps.store)(root) {
        Ok(s) => s,
        Err(e) => return HookAnswer::allow().with_stderr(&format!("slopguard: {e}")),
    };
    let evidence = Evidence {
        seq: 0,
        command: command.clone(),
        runners: detection.found.iter().map(|f| f.runner.clone()).collect(),
        exit_code,
        counts: report.counts,
        passed_tests: report.passed,
        failed_tests: report.failed,
        tree_hash: String::new(),
        success,
        note,
    };
    let mut recorded = None;
    let slot = &mut recorded;
    let r = store.update(
        &input.session_id,
        Box::new(move |s| {
            let mut e = evidence;
            e.tree_hash = tree.unwrap_or_else(|| format!("edits:{}", s.edits));
            *slot = Some(state::record_evidence(s, e));
        }),
    );
    if let Err(e) = r {
        return HookAnswer::allow().with_stderr(&format!("slopguard: {e}"));
    }
    if let Some(evidence) = recorded {
        let entry = LedgerEntry {
            session_id: input.session_id.clone(),
            argv: detection
                .found
                .first()
                .map(|f| f.argv.clone())
                .unwrap_or_default(),
            evidence,
        };
        if let Err(e) = store.add_evidence(&entry) {
            return HookAnswer::allow().with_stderr(&format!("slopguard: {e}"));
        }
    }
    HookAnswer::allow()
}

fn stop(input: &HookInput, root: &Path, config: &HookConfig, deps: &Deps<'_>) -> HookAnswer {
    let mut notes = Vec::new();
    // A goal file that exists but cannot be read or parsed is not ignored quietly: the stop is
    // blocked (once) with what is wrong, since its criteria would otherwise go unchecked.
    let (goal, goal_problem) = match Goal::load(&root.join(&config.goal_file)) {
        Ok(g) => (g, None),
        Err(e) => {
            notes.push(format!("slopguard: {e}"));
            (None, Some(e.to_string()))
        }
    };
    let tree = current_tree(root);
    let store = match (deps.store)(root) {
        Ok(s) => s,
        Err(e) => return HookAnswer::allow().with_stderr(&format!("slopguard: {e}")),
    };
    let active = input.stop_hook_active;
    let mut decision = StopDecision::Allow;
    let slot = &mut decision;
    let goal_ref = goal.as_ref();
    let r = store.update(
        &input.session_id,
        Box::new(move |s| {
            let t = tree.unwrap_or_else(|| format!("edits:{}", s.edits));
            *slot = match &goal_problem {
                Some(problem) => state::decide_stop_with_unusable_goal(s, problem, active),
                None => state::decide_stop(s, &t, goal_ref, active),
            };
        }),
    );
    if let Err(e) = r {
        notes.push(format!("slopguard: {e}"));
        decision = StopDecision::Allow;
    }
    let mut answer = match decision {
        StopDecision::Block(reason) => HookAnswer::block(&reason),
        StopDecision::AllowEscape => HookAnswer::allow().with_stderr(
            "slopguard: verification gate not satisfied, but it already blocked once; letting the stop through",
        ),
        StopDecision::Allow => HookAnswer::allow(),
    };
    for n in notes {
        answer = answer.with_stderr(&n);
    }
    answer
}

//! `fix`: a triaged item planned (the critic on the plan when on), held for approval when it
//! is a large job, else written by a `run` on `slopguard/fix/<id>` behind the
//! `regression-proof` gate; the landed fix (its proof read back from the run's trace, its PR
//! body written beside the run's files) is recorded on the item. An approved or interrupted
//! fix (in-fix) goes on with its stored plan.

use std::path::Path;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;
use slopguard_llm::{BlockingClient, LlmConfig, Role};

use super::error::StepError;
use super::item::{first_line, stored_plan, triaged_item};
use crate::detail::Detail;
use crate::fix::{self as fix_plan, FixPlan, LandedFix};
use crate::inbox::Inbox;
use crate::{Intake, State};
use slopguard_agent::dynamic::DynamicOptions;
use slopguard_agent::gates::step_critic::{self as critic, CriticMode, Finding};
use slopguard_agent::git::short_id;
use slopguard_agent::run::candidates::CandidateCount;
use slopguard_agent::run::{PlanSource, RunError, RunOptions, RunSummary};

/// How to fix an item.
#[derive(Debug, Clone)]
pub struct FixRequest {
    /// The item.
    pub id: i64,
    /// The models (the reviewer's is the critic's).
    pub llm: LlmConfig,
    /// The store URL the run records into.
    pub db: Option<String>,
    /// Attempts of the fix subtask.
    pub max_attempts: u32,
    /// Candidates per attempt.
    pub candidates: CandidateCount,
    /// Build and test timeout.
    pub timeout: Duration,
    /// Wall budget of the fix.
    pub budget: Duration,
    /// `--critic`, when given (else the repository's `[feedback] critic`, else auto).
    pub critic: Option<CriticMode>,
}

/// What the fix asks of the front end.
pub struct FixHooks<'a> {
    /// Runs the fix's run (the front end shows its progress).
    pub run: &'a dyn Fn(&RunOptions) -> Result<RunSummary, RunError>,
    /// A warning that does not stop the fix (an answer the critic could not give).
    pub warn: &'a dyn Fn(&str),
}

/// How a fix ended.
#[derive(Debug)]
pub enum Fixed {
    /// A large job: the plan waits for `approve` (the item is awaiting-approval).
    AwaitingApproval {
        /// Why it waits.
        why: String,
    },
    /// The run stopped with an error; the item is triaged again.
    RunStopped(RunError),
    /// No candidate landed; the item is triaged again.
    NotLanded {
        /// The failed subtask's error, else a general reason.
        why: String,
    },
    /// The fix landed (the item is fix-pr-open).
    Landed {
        /// The fix.
        fix: LandedFix,
        /// What the critic cost.
        critic: CriticCost,
    },
}

/// The name of item `id`'s fix branch.
pub fn branch(id: i64) -> String {
    format!("slopguard/fix/{id}")
}

/// `fix` of item `id`: see the module's doc.
pub fn fix(inbox: &Inbox, req: &FixRequest, hooks: &FixHooks<'_>) -> Result<Fixed, StepError> {
    let row = inbox.get(req.id)?;
    let mut detail = Detail::from_value(&row.detail);
    let t = triaged_item(&row, &detail)?;
    let critic = critic_setting(req, inbox.root())?;
    let plan = match State::parse(&row.state) {
        Some(State::Triaged) => {
            let mut plan = fix_plan::plan_fix(inbox.root(), &t.intake, &t.triage, &t.loc);
            detail.critic = Some(critic.why.clone());
            if critic.on {
                detail.plan_critique = Some(critique_plan(req, &t.intake, &mut plan)?);
            }
            detail.plan = Some(plan.clone());
            if let Some(why) = &plan.needs_approval {
                inbox.transition(&row, State::AwaitingApproval, why, detail.to_value())?;
                return Ok(Fixed::AwaitingApproval { why: why.clone() });
            }
            let note = format!("fixing on {}", branch(req.id));
            inbox.transition(&row, State::InFix, &note, detail.to_value())?;
            plan
        }
        // Approved, or a fix that was interrupted: go on with the stored plan.
        Some(State::InFix) => stored_plan(&detail)?,
        Some(State::AwaitingApproval) => {
            return Err(StepError::Refused(format!(
                "feedback {} is waiting for approval: `slopguard feedback approve {}`",
                row.id, row.id
            )));
        }
        _ => {
            return Err(StepError::Refused(format!(
                "feedback {} is {}; only triaged items are fixed",
                row.id, row.state
            )));
        }
    };
    let row = inbox.get(req.id)?;
    discard_interrupted_branch(inbox.root(), req.id);
    let mut opts = run_options(req, inbox.root(), &t.intake, &plan);
    opts.step_critic = critic.on;
    let summary = match (hooks.run)(&opts) {
        Ok(s) => s,
        Err(e) => {
            let note = format!("fix run stopped: {e}");
            inbox.transition(&row, State::Triaged, &note, row.detail.clone())?;
            return Ok(Fixed::RunStopped(e));
        }
    };
    let trace = std::fs::read_to_string(&summary.trace_path).unwrap_or_default();
    let reviews = CriticReviews::gather(&Detail::from_value(&row.detail), &trace);
    for w in reviews.warnings() {
        (hooks.warn)(w);
    }
    let Some(landed) = landed_fix(req.id, &t.intake, &plan, &summary, &trace, reviews.kept())?
    else {
        let why = summary
            .failed()
            .first()
            .and_then(|s| s.error.clone())
            .unwrap_or_else(|| {
                "no candidate passed the guards and the regression proof".to_string()
            });
        let note = format!("no fix landed: {}", first_line(&why));
        inbox.transition(&row, State::Triaged, &note, row.detail.clone())?;
        return Ok(Fixed::NotLanded { why });
    };
    let mut detail = Detail::from_value(&row.detail);
    detail.fix = Some(landed.clone());
    let note = format!("fix {} on {}", short_id(&landed.commit), landed.branch);
    inbox.transition(&row, State::FixPrOpen, &note, detail.to_value())?;
    Ok(Fixed::Landed {
        fix: landed,
        critic: reviews.cost(critic.on),
    })
}

/// Whether the critic runs for a fix, and why.
struct CriticSetting {
    on: bool,
    why: String,
}

/// `--critic`, else `[feedback] critic` in the repository's slopguard.toml, else auto; auto
/// decides by the reviewer model's size.
fn critic_setting(req: &FixRequest, root: &Path) -> Result<CriticSetting, StepError> {
    let (on, why) =
        CriticMode::for_repository(req.critic, root, None, &req.llm.role(Role::Reviewer).model)
            .map_err(StepError::Refused)?;
    Ok(CriticSetting { on, why })
}

/// The critic on the fix plan: a confident finding joins the plan's notes (the worker hears
/// it in its first attempt); the critique's trace data is returned for the item's detail.
fn critique_plan(
    req: &FixRequest,
    intake: &Intake,
    plan: &mut FixPlan,
) -> Result<Value, StepError> {
    let client = BlockingClient::new(req.llm.clone()).map_err(StepError::Client)?;
    let shown = format!(
        "The fix plan:\nroot cause: {}\nchange: {}\nfiles: {}\nregression test: {}",
        plan.root_cause,
        plan.proposed_change,
        plan.files.join(", "),
        plan.test_sketch
    );
    let review = critic::review(
        &client,
        &critic::Step {
            name: "plan",
            task: &intake.text,
            outcome: &shown,
        },
    );
    if let Some(line) = review.feedback_line() {
        plan.notes
            .push(line.trim_start_matches("- [critic] ").to_string());
    }
    Ok(review.trace_data(true))
}

/// A killed fix can leave its branch and worktree behind, the worktree locked when the kill
/// came inside `git worktree add`: they are ours (the item is in-fix), so they go before the
/// fix starts again.
fn discard_interrupted_branch(root: &Path, id: i64) {
    let name = branch(id);
    let worktrees = worktrees_on_branch(&worktree_listing(root), &name);
    // A fix killed alone, not with its process group, leaves its git children running: one
    // may create the branch after it was discarded here (`git branch NAME`, or a `git -C
    // WORKTREE reset --hard` in its worktree), or hold a lock removed below.
    let paths: Vec<_> = worktrees.iter().map(std::path::PathBuf::from).collect();
    slopguard_agent::git::wait_for_git_on_branch(&name, &paths, ORPHAN_WAIT);
    if !worktrees.is_empty() || slopguard_agent::git::branch_exists(root, &name) {
        remove_branch_and_worktrees(root, &name);
    }
}

/// `git worktree list --porcelain` of the repository at `root`; empty when git fails.
fn worktree_listing(root: &Path) -> String {
    slopguard_agent::git::git(root, &["worktree", "list", "--porcelain"]).unwrap_or_default()
}

/// Longest wait for the git processes of a killed fix: four times a run's
/// (`slopguard_agent::git::ORPHAN_WAIT`). The branch is slopguard's own. In a test run beside
/// two model servers (both cores taken), a resumed fix found its branch created after it had
/// discarded it: most likely an orphaned `git worktree add`, starved, outlasted the 5 s wait.
/// The wait ends as soon as no git process names the branch, so an idle machine never waits.
const ORPHAN_WAIT: std::time::Duration = std::time::Duration::from_secs(20);

/// Removes branch `name` and the worktrees that have it checked out, locked or not (listed
/// again here: an orphan waited for may have added one since).
fn remove_branch_and_worktrees(root: &Path, name: &str) {
    for path in worktrees_on_branch(&worktree_listing(root), name) {
        // A fix killed inside `git worktree add` leaves the worktree locked ("initializing"),
        // and git removes or prunes a locked worktree only when unlocked or forced twice.
        let _ = slopguard_agent::git::git(root, &["worktree", "unlock", &path]);
        let _ =
            slopguard_agent::git::git(root, &["worktree", "remove", "--force", "--force", &path]);
    }
    let _ = slopguard_agent::git::git(root, &["worktree", "prune"]);
    // A fix killed inside a ref update leaves the ref's lock file, and git refuses to delete
    // a locked ref ("Unable to create '...lock': File exists"). Only slopguard writes this
    // branch, and its run is gone: the lock is stale.
    let common = slopguard_agent::git::common_dir(root).ok();
    if let Some(common) = &common {
        let _ = std::fs::remove_file(common.join(format!("refs/heads/{name}.lock")));
    }
    let _ = slopguard_agent::git::git(root, &["branch", "-D", name]);
    // `branch -D` refuses a branch a worktree still has checked out (one whose removal
    // failed); the ref itself goes anyway, the worktree entry with the next prune.
    if slopguard_agent::git::branch_exists(root, name) {
        let _ =
            slopguard_agent::git::git(root, &["update-ref", "-d", &format!("refs/heads/{name}")]);
    }
    // Git deletes a ref only while it holds `packed-refs.lock`, which a fix killed inside such
    // a delete leaves behind, and which is the repository's, not ours to remove: the branch's
    // own loose ref file goes instead (a packed copy, after a `git gc`, would stay).
    if let Some(common) = common.filter(|_| slopguard_agent::git::branch_exists(root, name)) {
        let _ = std::fs::remove_file(common.join(format!("refs/heads/{name}")));
        let _ = std::fs::remove_file(common.join(format!("logs/refs/heads/{name}")));
    }
}

/// The worktrees of `git worktree list --porcelain`'s `listing` that have `branch` checked
/// out.
fn worktrees_on_branch(listing: &str, branch: &str) -> Vec<String> {
    let checked_out = format!("branch refs/heads/{branch}");
    let mut path = None;
    let mut found = Vec::new();
    for line in listing.lines() {
        if let Some(p) = line.strip_prefix("worktree ") {
            path = Some(p.to_string());
        } else if line == checked_out
            && let Some(p) = path.take()
        {
            found.push(p);
        }
    }
    found
}

/// The run that writes the fix: the one-subtask plan on the fix branch, the regression proof
/// on, no analysis toolchain and no metrics after (the fix is judged by its proof).
fn run_options(req: &FixRequest, root: &Path, intake: &Intake, plan: &FixPlan) -> RunOptions {
    RunOptions {
        path: root.to_path_buf(),
        branch: Some(branch(req.id)),
        plan: PlanSource::Given(fix_plan::run_plan(req.id, intake, plan)),
        llm: req.llm.clone(),
        db: req.db.clone(),
        max_attempts: req.max_attempts.max(1),
        dynamic: DynamicOptions {
            build_timeout: req.timeout,
            test_timeout: req.timeout,
            ..DynamicOptions::default()
        },
        analysis_toolchain: false,
        measure_after: false,
        candidates: req.candidates,
        subtask_budget: req.budget.max(Duration::from_secs(1)),
        regression_proof: true,
        ..RunOptions::default()
    }
}

/// The landed fix of a run, with its PR body (and the critic's `self_review`) written beside
/// the run's files; `None` when no subtask landed.
fn landed_fix(
    id: i64,
    intake: &Intake,
    plan: &FixPlan,
    summary: &RunSummary,
    trace: &str,
    self_review: Vec<Finding>,
) -> Result<Option<LandedFix>, StepError> {
    let Some(st) = summary.subtasks().find(|s| s.commit.is_some()) else {
        return Ok(None);
    };
    let test_files: Vec<String> = st
        .touched_files
        .iter()
        .filter(|f| slopguard_planning::analysis::is_test_file(f))
        .cloned()
        .collect();
    let run_dir = Path::new(&summary.trace_path)
        .parent()
        .unwrap_or(Path::new("."));
    let landed = LandedFix {
        branch: summary.run.branch.clone(),
        commit: st.commit.clone().unwrap_or_default(),
        test_files,
        fails_without_fix: proven_tests(trace),
        pr_body: run_dir.join("FIX-PR.md").display().to_string(),
        self_review,
    };
    let body = fix_plan::pr_body(id, intake, plan, &landed);
    std::fs::write(&landed.pr_body, body).map_err(|source| StepError::Write {
        path: landed.pr_body.clone(),
        source,
    })?;
    Ok(Some(landed))
}

/// The events of a run's trace (`trace.jsonl`), one JSON object a line; lines that are not
/// JSON are skipped.
fn trace_events(trace: &str) -> impl DoubleEndedIterator<Item = Value> + '_ {
    trace
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
}

/// The tests the regression proof saw fail without the fix (its last `proven` event).
fn proven_tests(trace: &str) -> Vec<String> {
    trace_events(trace)
        .rev()
        .find(|e| e["event"] == "worker.regression_proof.proven")
        .and_then(|e| serde_json::from_value(e["data"]["fails_without_fix"].clone()).ok())
        .unwrap_or_default()
}

/// What the critic cost a fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CriticCost {
    /// Whether the critic ran.
    pub on: bool,
    /// Its reviews (the plan's and the run's).
    pub reviews: usize,
    /// Model calls.
    pub calls: u64,
    /// Tokens.
    pub tokens: u64,
    /// Wall time, milliseconds.
    pub ms: u64,
}

/// The critic's reviews of one fix: the plan's (in the item's detail) and the run's (its
/// trace's `critic.review` events), as their trace data.
struct CriticReviews {
    all: Vec<Value>,
}

impl CriticReviews {
    fn gather(detail: &Detail, trace: &str) -> CriticReviews {
        let mut all: Vec<Value> = detail.plan_critique.clone().into_iter().collect();
        all.extend(
            trace_events(trace)
                .filter(|e| e["event"] == "critic.review")
                .map(|e| e["data"].clone()),
        );
        CriticReviews { all }
    }

    /// The findings kept for the PR body's self-review.
    fn kept(&self) -> Vec<Finding> {
        self.all
            .iter()
            .filter(|d| d["action"] == "kept")
            .filter_map(|d| serde_json::from_value(d["finding"].clone()).ok())
            .collect()
    }

    /// The answers the critic could not give (never fatal).
    fn warnings(&self) -> impl Iterator<Item = &str> {
        self.all.iter().filter_map(|d| d["warning"].as_str())
    }

    /// What the critic cost: calls, tokens, wall time.
    fn cost(&self, on: bool) -> CriticCost {
        let sum = |k: &str| self.all.iter().filter_map(|d| d[k].as_u64()).sum::<u64>();
        CriticCost {
            on,
            reviews: self.all.len(),
            calls: sum("calls"),
            tokens: sum("tokens"),
            ms: sum("ms"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `git -C dir args`, which must succeed.
    fn run_git(dir: &Path, args: &[&str]) {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }

    /// A repository with one empty commit.
    fn repo_with_one_commit() -> tempfile::TempDir {
        let repo = tempfile::tempdir().unwrap();
        run_git(repo.path(), &["init", "-q"]);
        run_git(
            repo.path(),
            &["commit", "-q", "--allow-empty", "-m", "init"],
        );
        repo
    }

    #[test]
    fn a_fix_branch_left_in_a_locked_worktree_is_discarded() {
        let repo = repo_with_one_commit();
        let git = |args: &[&str]| run_git(repo.path(), args);
        let wt = tempfile::tempdir().unwrap();
        let wt_path = wt.path().join("fix");
        let path = wt_path.to_string_lossy().to_string();
        git(&["worktree", "add", "-q", "-b", &branch(7), &path]);
        // As `git worktree add` leaves it when killed half-way.
        git(&["worktree", "lock", "--reason", "initializing", &path]);
        discard_interrupted_branch(repo.path(), 7);
        assert!(!slopguard_agent::git::branch_exists(
            repo.path(),
            &branch(7)
        ));
        assert!(!wt_path.exists());
    }

    /// Discards fix branch `id` of a repository where a killed git left the lock file `lock`
    /// (relative to `.git`); whether the branch went, and whether the lock is still there.
    fn discarded_beside_a_lock(id: i64, lock: &str) -> (bool, bool) {
        let repo = repo_with_one_commit();
        run_git(repo.path(), &["branch", &branch(id)]);
        let lock = repo.path().join(".git").join(lock);
        std::fs::write(&lock, "").unwrap();
        discard_interrupted_branch(repo.path(), id);
        let gone = !slopguard_agent::git::branch_exists(repo.path(), &branch(id));
        (gone, lock.exists())
    }

    #[test]
    fn a_fix_branch_whose_ref_a_killed_git_left_locked_is_discarded() {
        // As a git process killed while updating the ref leaves it.
        let (gone, lock_left) = discarded_beside_a_lock(4, "refs/heads/slopguard/fix/4.lock");
        assert!(gone);
        assert!(!lock_left);
    }

    #[test]
    fn a_fix_branch_is_discarded_while_a_killed_delete_left_packed_refs_locked() {
        // As a git killed inside `git branch -D` leaves it: every ref delete then fails.
        let (gone, lock_left) = discarded_beside_a_lock(5, "packed-refs.lock");
        assert!(gone);
        // The repository's lock is not ours to remove.
        assert!(lock_left);
    }

    #[test]
    fn only_the_worktrees_on_the_fix_branch_are_found() {
        let listing = "worktree /repo\nHEAD 1111\nbranch refs/heads/main\n\n\
                       worktree /tmp/wt-a\nHEAD 2222\nbranch refs/heads/slopguard/fix/3\n\n\
                       worktree /tmp/wt-b\nHEAD 3333\nbranch refs/heads/slopguard/fix/31\n\n\
                       worktree /tmp/wt-c\nHEAD 4444\ndetached\n";
        assert_eq!(
            worktrees_on_branch(listing, "slopguard/fix/3"),
            ["/tmp/wt-a"]
        );
        assert!(worktrees_on_branch(listing, "slopguard/fix/9").is_empty());
        assert_eq!(branch(3), "slopguard/fix/3");
    }

    #[test]
    fn the_proof_is_the_last_proven_event_of_the_trace() {
        let trace = [
            json!({"event": "worker.regression_proof.proven",
                   "data": {"fails_without_fix": ["t::old"]}})
            .to_string(),
            "not json".to_string(),
            json!({"event": "worker.regression_proof.proven",
                   "data": {"fails_without_fix": ["t::a", "t::b"]}})
            .to_string(),
            json!({"event": "run.finished", "data": {}}).to_string(),
        ]
        .join("\n");
        assert_eq!(proven_tests(&trace), ["t::a", "t::b"]);
        assert!(proven_tests("").is_empty());
    }

    #[test]
    fn critic_reviews_join_the_plans_and_the_runs_and_add_up_their_cost() {
        let mut detail = Detail::default();
        detail.plan_critique = Some(json!({"action": "kept", "calls": 1, "tokens": 100, "ms": 5,
            "finding": {"message": "check n=0", "confidence": 70, "step": "plan"}}));
        let trace = [
            json!({"event": "critic.review", "data": {"action": "none", "calls": 2,
                   "tokens": 50, "ms": 7}}),
            json!({"event": "critic.review", "data": {"action": "ignored", "calls": 1,
                   "warning": "the critic's answer was not JSON"}}),
            json!({"event": "worker.candidate", "data": {"calls": 99}}),
        ]
        .map(|e| e.to_string())
        .join("\n");
        let reviews = CriticReviews::gather(&detail, &trace);
        let kept = reviews.kept();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].message, "check n=0");
        assert_eq!(
            reviews.warnings().collect::<Vec<_>>(),
            ["the critic's answer was not JSON"]
        );
        assert_eq!(
            reviews.cost(true),
            CriticCost {
                on: true,
                reviews: 3,
                calls: 4,
                tokens: 150,
                ms: 12
            }
        );
        assert_eq!(
            serde_json::to_value(reviews.cost(false)).unwrap(),
            json!({"on": false, "reviews": 3, "calls": 4, "tokens": 150, "ms": 12})
        );
    }
}

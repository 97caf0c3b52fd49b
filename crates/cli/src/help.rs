//! The text `--help` prints after each command's options: real examples and the exit codes
//! (the same codes as docs/output.md's table; `tests/docs_output.rs` keeps the two equal).

/// `slopguard check`.
pub(crate) const CHECK: &str = "\
Examples:
  slopguard check                         the working tree against HEAD
  slopguard check --staged --format sarif the index, as SARIF for code scanning
  slopguard check --commit HEAD~1 -C ../other-repo
  git diff main | slopguard check --diff - --base main

Exit codes: 0 pass (warnings allowed), 1 blocked, 2 error";

/// `slopguard replay`.
pub(crate) const REPLAY: &str = "\
Examples:
  slopguard replay HEAD --limit 200        the newest 200 non-merge commits
  slopguard replay v1.0..v2.0 -C ../repo --format json

Exit codes: 0 when the range was replayed (blocked commits are counted, not failed), 2 error";

/// `slopguard guards`.
pub(crate) const GUARDS: &str = "\
Examples:
  slopguard guards                        every guard with its code and severity
  slopguard guards explain G7             what one guard checks, and how to silence it

Exit codes: 0, 2 unknown guard";

/// `slopguard hook`.
pub(crate) const HOOK: &str = "\
Examples:
  slopguard hook install claude           write the hooks into .claude/settings.json
  slopguard hook install codex --lean
  slopguard hook claude < event.json      answer one hook event (what the agent runs)

Exit codes: the agent's protocol: 0 (2 only with fail_closed_on_bad_input) for hook claude|codex;
hook install: 0, 2 error";

/// `slopguard serve`: the gateway's endpoints, then examples and exit codes.
pub(crate) fn serve() -> String {
    format!("{}\n\n{SERVE}", slopguard_server::endpoints_help())
}

/// `slopguard serve`'s examples and exit codes.
const SERVE: &str = "\
Examples:
  slopguard serve                         the gateway on 127.0.0.1:9999, the user's SQLite store
  slopguard serve --db postgres://user:pw@db/slopguard --addr 0.0.0.0:9999

Exit codes: 0 clean stop (Ctrl-C, SIGTERM), 2 store or address cannot be opened";

/// `slopguard analyze`.
pub(crate) const ANALYZE: &str = "\
Examples:
  slopguard analyze                       the repository in the current directory
  slopguard analyze ../repo --format json
  slopguard analyze -C ../repo            the same: -C PATH works as for check and replay

Exit codes: 0 (the report is the result), 2 path not a directory";

/// `slopguard plan`.
pub(crate) const PLAN: &str = "\
Examples:
  slopguard plan                          audit, then the task plan (failing tests first)
  slopguard plan ../repo --format json    the model at SLOPGUARD_LLM_URL

Exit codes: 0 plan printed, 1 the model gave no usable plan, 2 endpoint unreachable or bad input";

/// `slopguard run`.
pub(crate) const RUN: &str = "\
Examples:
  slopguard run                           fix the repository on a new branch, guarded
  slopguard run --dry-run                 plan and guard verdicts only, nothing committed
  slopguard run --resume                  continue the latest interrupted run
  slopguard run ../repo --candidates 4 --subtask-budget 300 --format json

Exit codes: 0 every subtask landed, 1 some failed (or a partial fix landed), 2 usage or
environment error";

/// `slopguard ci-watch`.
pub(crate) const CI_WATCH: &str = "\
Examples:
  slopguard ci-watch https://github.com/owner/repo/pull/7   with GITHUB_TOKEN set

Exit codes: 0 green, 1 still failing / the fix did not pass the guards / deadline, 2 no token,
no matching remote, unreadable PR, network, git or model error";

/// `slopguard doctor`.
pub(crate) const DOCTOR: &str = "\
Examples:
  slopguard doctor                        can the guards run? can the agent?
  slopguard doctor --agent --format json  fail unless the model endpoint answers too

Exit codes: 0 the guards can run (with --agent, the agent too), 1 otherwise";

/// `slopguard feedback`.
pub(crate) const FEEDBACK: &str = "\
Examples:
  slopguard feedback add \"average() divides by n-1\"
  slopguard feedback triage 1
  slopguard feedback fix 1
  slopguard feedback list --format json

Exit codes: 0 done (an escalation or a wait for approval is done too), 1 triage or refinement
refused / no fix landed / verify red, 2 usage, unknown item, a move the item's state does not
allow, unreachable endpoint or GitHub API";

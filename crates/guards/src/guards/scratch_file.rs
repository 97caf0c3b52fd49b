//! scratch-file: throwaway files the task did not ask for.

use crate::text::file_name;
use crate::{Context, Finding, Guard, GuardInfo};

/// The scratch-file guard.
pub struct ScratchFile;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "scratch-file",
    code: None,
    summary: "new throwaway files: reproduction scripts, *.orig/*.rej/*.bak, debug dumps, editor and OS droppings",
    doc: include_str!("../../docs/scratch-file.md"),
    default_enabled: true,
    failure_mode: "patcher_reject",
    trace_event: "critic_scratch_file.fail",
};

/// Extensions of files that are text whatever `lang` says.
pub(crate) fn is_text_extension(path: &str) -> bool {
    let name = file_name(path);
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    matches!(
        ext.as_str(),
        "txt" | "csv" | "html" | "htm" | "css" | "scss" | "xml" | "svg" | "sql" | "rst" | "adoc"
    )
}

/// Why a new file at `path` looks like scratch, if it does.
pub fn scratch_reason(path: &str) -> Option<&'static str> {
    let name = file_name(path);
    let lower = name.to_ascii_lowercase();
    let at_root = !path.contains('/');
    let stem = lower.split('.').next().unwrap_or("");
    let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    let script = matches!(ext, "py" | "js" | "ts" | "sh" | "rb" | "go" | "rs" | "mjs");
    if lower.ends_with(".orig") || lower.ends_with(".rej") {
        return Some("a leftover from a failed patch");
    }
    if lower.ends_with(".bak")
        || lower.ends_with(".swp")
        || lower.ends_with(".swo")
        || lower.ends_with('~')
        || lower == ".ds_store"
    {
        return Some("a backup or editor/OS file");
    }
    if lower.ends_with(".pyc") || path.contains("__pycache__/") || lower == "nohup.out" {
        return Some("a generated artefact");
    }
    if script
        && at_root
        && (stem.starts_with("repro")
            || stem.starts_with("scratch")
            || stem.starts_with("debug_")
            || stem == "debug"
            || stem.starts_with("tmp_")
            || stem.starts_with("temp_")
            || stem == "tmp"
            || stem == "temp"
            || stem.starts_with("test_fix")
            || stem.starts_with("quick_test")
            || stem.starts_with("try_"))
    {
        return Some("a throwaway reproduction or debug script");
    }
    if at_root
        && (matches!(
            lower.as_str(),
            "out.txt"
                | "output.txt"
                | "debug.txt"
                | "log.txt"
                | "result.txt"
                | "results.txt"
                | "diff.txt"
                | "patch.diff"
                | "changes.diff"
        ) || ext == "log")
    {
        return Some("a debug dump");
    }
    if at_root
        && script
        && (stem.starts_with("test_") || stem.starts_with("check_") || stem.starts_with("verify_"))
    {
        return Some("a one-off test script at the repository root");
    }
    None
}

impl Guard for ScratchFile {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        for file in cx.files() {
            if file.change().before.is_some() || file.change().after.is_none() {
                continue;
            }
            let path = file.path();
            let Some(why) = scratch_reason(path) else {
                continue;
            };
            if cx.task().is_some_and(|t| t.hints_path(path)) {
                continue;
            }
            out.push(
                Finding::new(&INFO, cx.intent_severity(), format!("new file `{path}` looks like {why}"))
                    .at(path, None, None)
                    .feedback(format!("Do not add `{path}` ({why}); the task did not ask for it. Put tests in the project's test suite instead.")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_names() {
        for p in [
            "reproduce_bug.py",
            "src/db.py.orig",
            "x.rej",
            "debug.log",
            "tmp_test.js",
            "test_fix.py",
            "out.txt",
        ] {
            assert!(scratch_reason(p).is_some(), "{p}");
        }
        for p in [
            "src/repro.md",
            "tests/test_db.py",
            "docs/output.txt",
            "src/temperature.py",
            "scripts/check_links.py",
        ] {
            assert!(scratch_reason(p).is_none(), "{p}");
        }
    }
}

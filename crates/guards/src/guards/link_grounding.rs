//! G14 link-grounding: links and images a doc change adds must point at things that exist.

use serde::Deserialize;
use slopguard_grounding::links::{self, LinkProblem, UrlVerdict};

use super::content_grounding::AfterTree;
use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The link-grounding guard.
pub struct LinkGrounding;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "link-grounding",
    code: Some("G14"),
    summary: "added relative links/images to files or anchors that do not exist; added URLs to hosts that do not resolve (opt-in network check, fail-open)",
    doc: include_str!("../../docs/link-grounding.md"),
    default_enabled: true,
    failure_mode: "link_invalid",
    trace_event: "critic_url_grounding.fail",
};

/// `[guards.link-grounding]` settings.
#[derive(Debug, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Check added `http(s)` URLs' hosts with DNS. Off by default; fails open when offline.
    pub network: bool,
    /// Most URLs checked per change.
    pub max_urls: usize,
    /// A host that always resolves when the network works, to tell "offline" from "invented".
    pub control_host: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            network: false,
            max_urls: 10,
            control_host: "github.com".into(),
        }
    }
}

impl Guard for LinkGrounding {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        let s: Settings = cx.settings(INFO.slug);
        let tree = AfterTree(cx);
        let mut urls_checked = 0;
        for file in cx.files() {
            let Some(after) = file.after_text() else {
                continue;
            };
            if slopguard_grounding::doc_links::Markup::of(file.path()).is_none() {
                continue;
            }
            let path = file.path();
            for b in links::check(path, file.before_text(), after, &tree) {
                let what = if b.image { "image" } else { "link" };
                let (message, feedback) = match b.problem {
                    LinkProblem::MissingTarget => (
                        format!("added {what} to `{}`, which does not exist", b.dest),
                        format!(
                            "{path} line {}: the {what} target `{}` does not exist in the repository (tried {}). Link only \
                             to files that exist, or remove the {what}; do not invent pages.",
                            b.line,
                            b.dest,
                            b.tried.join(", ")
                        ),
                    ),
                    LinkProblem::MissingAnchor => (
                        format!(
                            "added {what} to `{}`, whose anchor matches no heading",
                            b.dest
                        ),
                        format!(
                            "{path} line {}: `{}` points at a section that does not exist in {}. Use an existing \
                             heading's anchor or drop the fragment.",
                            b.line,
                            b.dest,
                            b.tried.join(", ")
                        ),
                    ),
                };
                out.push(
                    Finding::new(&INFO, Severity::Block, message)
                        .at(path, Some(b.line), None)
                        .feedback(feedback)
                        .data(serde_json::to_value(&b).unwrap_or_default()),
                );
            }
            if !s.network || !slopguard_grounding::markdown::is_markdown_path(path) {
                continue;
            }
            for (line, url) in links::added_urls(file.before_text(), after) {
                if urls_checked >= s.max_urls {
                    break;
                }
                urls_checked += 1;
                match links::check_url(&url, &s.control_host, &links::std_resolve) {
                    UrlVerdict::UnknownHost => out.push(
                        Finding::new(&INFO, Severity::Block, format!("added URL `{url}` whose host does not resolve"))
                            .at(path, Some(line), None)
                            .feedback(format!(
                                "{path} line {line}: the host of `{url}` does not exist (DNS has no record for it). Do not \
                                 invent URLs; link to a page you know exists or remove the link."
                            ))
                            .data(serde_json::json!({"url": url})),
                    ),
                    UrlVerdict::Offline => return, // fail open: no network is never "fabricated"
                    UrlVerdict::Ok => {}
                }
            }
        }
    }
}

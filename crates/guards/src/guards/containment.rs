//! containment: paths and contents a change must never write.

use serde::Deserialize;
use slopguard_lang::FileKind;

use crate::text::file_name;
use crate::{Context, Finding, Guard, GuardInfo, Severity};

/// The containment guard.
pub struct Containment;

/// Static description.
pub static INFO: GuardInfo = GuardInfo {
    slug: "containment",
    code: None,
    summary: "paths outside the root, .git/, secrets and CI paths, symlink escapes, oversized or binary-garbage files",
    doc: include_str!("../../docs/containment.md"),
    default_enabled: true,
    failure_mode: "denylist",
    trace_event: "critic_containment.fail",
};

/// `[guards.containment]` settings.
#[derive(Debug, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Largest file a change may write, in bytes.
    pub max_file_bytes: u64,
    /// Allow edits to CI configuration (.github/workflows, .gitlab-ci.yml, ...) without a task
    /// that names them.
    pub allow_ci: bool,
    /// Extra denied path patterns (`*` and `**` globs).
    pub deny: Vec<String>,
    /// Patterns exempt from the secret denylist (e.g. `config/credentials.example.yml`).
    pub allow: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_file_bytes: 2 * 1024 * 1024,
            allow_ci: false,
            deny: Vec::new(),
            allow: Vec::new(),
        }
    }
}

/// Why a path is unsafe to write, independent of intent.
fn hostile_path(path: &str) -> Option<String> {
    if path.is_empty() {
        return Some("empty path".into());
    }
    if path.contains('\0') {
        return Some("path contains a NUL byte".into());
    }
    if path.starts_with('/') || path.starts_with('\\') || path.as_bytes().get(1) == Some(&b':') {
        return Some("absolute path: changes must stay inside the repository".into());
    }
    let parts: Vec<&str> = path.split(['/', '\\']).collect();
    if parts.contains(&"..") {
        return Some("`..` escapes the repository root".into());
    }
    if parts.iter().any(|p| p.eq_ignore_ascii_case(".git")) {
        return Some("writes inside .git/ (git's own data)".into());
    }
    None
}

/// What [`secret_path`] calls key material.
const KEY_FILE: &str = "a private key or certificate bundle";

/// `secrets.go`, `secrets.py`: source code named after what it handles, not a secrets store.
fn is_source_code(name: &str) -> bool {
    matches!(
        slopguard_lang::detect(name, b""),
        slopguard_lang::FileKind::Code(_)
    )
}

/// Directories whose key material is test or sample data (self-signed certificates for an
/// example server, the keys of a test CA): a path component `test`, `tests`, `testdata`,
/// `example`, `examples`, `fixtures` (or `test_*`, `*_test`, `test-*`).
fn test_or_example_path(path: &str) -> bool {
    path.split('/').rev().skip(1).any(|p| {
        let p = p.to_ascii_lowercase();
        matches!(
            p.as_str(),
            "test" | "tests" | "testdata" | "example" | "examples" | "fixtures" | "__tests__"
        ) || p.starts_with("test_")
            || p.starts_with("test-")
            || p.ends_with("_test")
            || p.ends_with("-tests")
    })
}

/// Whether a PEM text holds a private key (a certificate or CA bundle alone is public).
fn holds_private_key(text: &str) -> bool {
    text.contains("PRIVATE KEY-----") || text.contains("BEGIN ENCRYPTED")
}

/// Secret-bearing paths: environment files, keys, credentials.
fn secret_path(path: &str) -> Option<&'static str> {
    let name = file_name(path).to_ascii_lowercase();
    let template = [".example", ".sample", ".template", ".dist", ".defaults"]
        .iter()
        .any(|s| name.ends_with(s));
    let parts: Vec<&str> = path.split('/').collect();
    if parts
        .iter()
        .any(|p| *p == ".ssh" || *p == ".aws" || *p == ".gnupg")
    {
        return Some("a credentials directory");
    }
    if template {
        return None;
    }
    if name == ".env" || name.starts_with(".env.") {
        return Some("an environment file");
    }
    if name.starts_with("id_rsa") || name.starts_with("id_ed25519") || name.starts_with("id_ecdsa")
    {
        return Some("an SSH private key");
    }
    if name.ends_with(".pem")
        || name.ends_with(".key")
        || name.ends_with(".p12")
        || name.ends_with(".pfx")
    {
        return Some(KEY_FILE);
    }
    if matches!(
        name.as_str(),
        ".netrc"
            | ".pypirc"
            | ".git-credentials"
            | ".npmrc"
            | "credentials"
            | "credentials.json"
            | ".htpasswd"
    ) || (name.starts_with("secrets.") && !is_source_code(&name))
    {
        return Some("a credentials file");
    }
    None
}

/// What a secret-bearing path's first added line that writes a credential is, if any, for the
/// config-like credential files (`.npmrc`, `.netrc`, `.pypirc`, `credentials*`, ...): a
/// setting named like a secret (`_authToken=`, `password`, `api_key`, `client_secret`, ...)
/// with a literal value, a URL with a password in it, or any entry of `.htpasswd` /
/// `.git-credentials` (every line of those is one). A value that only references the
/// environment (`${NPM_TOKEN}`, `$TOKEN`, `%TOKEN%`) is not a credential. Lines the old version
/// already had are not the change's.
fn written_credential(path: &str, before: &str, after: &str) -> Option<(u32, String)> {
    static KEY: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    static URL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let key = KEY.get_or_init(|| {
        regex::Regex::new(
            r#"(?i)(_auth|auth_?token|token|password|passwd|secret|api[_-]?key|private[_-]?key|access[_-]?key|credential)[^=:\s]*["']?\s*[=:]\s*(.*)$"#,
        )
        .expect("static regex")
    });
    let url = URL.get_or_init(|| {
        regex::Regex::new(r"[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@").expect("static regex")
    });
    let name = file_name(path).to_ascii_lowercase();
    let every_line = matches!(name.as_str(), ".htpasswd" | ".git-credentials");
    let old: std::collections::BTreeSet<&str> = before.lines().map(str::trim).collect();
    for (i, line) in after.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with(';') || old.contains(t) {
            continue;
        }
        let literal = |v: &str| {
            let v = v.trim().trim_end_matches(',');
            // A JSON value ends at its object's brace: `{"token": null}`.
            let v = match v.strip_suffix('}') {
                Some(x) if !x.contains('{') => x.trim_end(),
                _ => v,
            };
            let v = v.trim_matches(|c| c == '"' || c == '\'');
            let env_ref = (v.starts_with("${") && v.ends_with('}') && !v[2..].contains('{'))
                || (v.starts_with('$') && v[1..].chars().all(|c| c.is_alphanumeric() || c == '_'))
                || (v.starts_with('%') && v.ends_with('%') && v.len() > 2);
            !v.is_empty() && !env_ref && !matches!(v, "null" | "true" | "false")
        };
        // What the finding shows: the key, never the value.
        let hit = if every_line {
            Some("a credential entry".to_string())
        } else if url.is_match(t) {
            Some("a URL with a password".to_string())
        } else if let Some(c) = key.captures(t).filter(|c| literal(&c[2])) {
            let start = c.get(2).map_or(t.len(), |m| m.start());
            Some(format!("{}<redacted>", &t[..start]))
        } else {
            // `.netrc`: `machine host login me password hunter2` on one line.
            t.split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .any(|w| w[0] == "password" && literal(w[1]))
                .then(|| "password <redacted>".to_string())
        };
        if let Some(what) = hit {
            return Some((i as u32 + 1, what));
        }
    }
    None
}

/// CI configuration paths.
/// Words a commit message uses for a change to CI configuration (workflows pin tools and
/// versions, so a message about dependencies or environments announces them too).
const CI_WORDS: &[&str] = &[
    "ci",
    "workflow",
    "workflows",
    "actions",
    "action",
    "dependabot",
    "pipeline",
    "pipelines",
    "codeql",
    "pre-commit",
    "lint",
    "linting",
    "tox",
    "nox",
    "coverage",
    "release",
    "publish",
    "bump",
    "upgrade",
    "pin",
    "dependency",
    "dependencies",
    "deps",
    "env",
    "envs",
    "environment",
    "environments",
    "matrix",
];

fn ci_path(path: &str) -> bool {
    path.starts_with(".github/workflows/")
        || path.starts_with(".github/actions/")
        || path == ".gitlab-ci.yml"
        || path.starts_with(".circleci/")
        || path == ".travis.yml"
        || path == "azure-pipelines.yml"
        || path == "Jenkinsfile"
        || path.starts_with(".buildkite/")
}

/// Minimal glob: `*` matches within a component, `**` across components.
pub(crate) fn glob_match(pattern: &str, path: &str) -> bool {
    fn rec(p: &[u8], s: &[u8]) -> bool {
        match p.first() {
            None => s.is_empty(),
            Some(b'*') if p.get(1) == Some(&b'*') => {
                let rest = p[2..].strip_prefix(b"/").unwrap_or(&p[2..]);
                (0..=s.len())
                    .any(|i| (i == 0 || s[i - 1] == b'/' || rest.is_empty()) && rec(rest, &s[i..]))
            }
            Some(b'*') => (0..=s.len())
                .take_while(|i| *i == 0 || s[i - 1] != b'/')
                .any(|i| rec(&p[1..], &s[i..])),
            Some(c) => s.first() == Some(c) && rec(&p[1..], &s[1..]),
        }
    }
    rec(pattern.as_bytes(), path.as_bytes())
}

/// Whether a symlink at `path` pointing to `target` leaves the repository.
fn symlink_escapes(path: &str, target: &str) -> bool {
    if target.starts_with('/')
        || target.starts_with('\\')
        || target.as_bytes().get(1) == Some(&b':')
    {
        return true;
    }
    let mut depth: i64 = path.split('/').count() as i64 - 1;
    for part in target.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                depth -= 1;
                if depth < 0 {
                    return true;
                }
            }
            _ => depth += 1,
        }
    }
    false
}

impl Guard for Containment {
    fn info(&self) -> &'static GuardInfo {
        &INFO
    }

    fn check(&self, cx: &Context<'_>, out: &mut Vec<Finding>) {
        let s: Settings = cx.settings(INFO.slug);
        for file in cx.all_files() {
            let change = file.change();
            let path = file.path();
            for p in [path, change.old_path()] {
                if let Some(why) = hostile_path(p) {
                    out.push(
                        Finding::new(
                            &INFO,
                            Severity::Block,
                            format!("refused path `{}`: {why}", p.escape_debug()),
                        )
                        .at(p, None, None)
                        .feedback(format!(
                            "Do not write `{}`: {why}. Use a relative path inside the repository.",
                            p.escape_debug()
                        )),
                    );
                }
            }
            if hostile_path(path).is_some() {
                continue;
            }
            if change.after.is_none() {
                continue;
            }
            let allowed = s.allow.iter().any(|g| glob_match(g, path));
            if let Some(what) = secret_path(path).filter(|_| !allowed) {
                // Credential files that are also tool configuration (`.npmrc` gaining
                // `ignore-scripts=true`) block only when the change writes a credential.
                let text = |b: Option<&[u8]>| {
                    b.and_then(crate::context::decode_text)
                        .unwrap_or_default()
                        .to_string()
                };
                // Environment files too: `FOO=env` in a test app's `.env` is no secret.
                let config_like = what == "a credentials file" || what == "an environment file";
                let before_text = text(change.before.as_deref());
                let after_text = text(change.after.as_deref());
                let mut judged = false;
                if what == KEY_FILE {
                    // A certificate or CA bundle is public; a private key is a secret unless it
                    // is test or sample data (an example server's self-signed key).
                    let bytes = change.after.as_deref().unwrap_or_default();
                    let pem = crate::context::decode_text(bytes);
                    let public =
                        pem.is_some_and(|t| t.contains("-----BEGIN") && !holds_private_key(t));
                    if public || test_or_example_path(path) {
                        let why = if public {
                            "holds certificates only, no private key"
                        } else {
                            "sits in a test or example directory"
                        };
                        out.push(
                            Finding::new(&INFO, Severity::Warn, format!("`{path}` is {what}; it {why}"))
                                .at(path, None, None)
                                .feedback(format!("`{path}` is {what}: change it only if the task asks, and never write a real private key into the repository.")),
                        );
                        judged = true;
                    }
                }
                let verdict =
                    config_like.then(|| written_credential(path, &before_text, &after_text));
                match verdict {
                    _ if judged => {}
                    Some(None) => out.push(
                        Finding::new(&INFO, Severity::Warn, format!("`{path}` is {what}; the change writes no credential to it"))
                            .at(path, None, None)
                            .feedback(format!("`{path}` is {what}: change it only if the task asks, and never write a token or password into it.")),
                    ),
                    Some(Some((line, excerpt))) => out.push(
                        Finding::new(&INFO, Severity::Block, format!("`{path}` is {what} and the change writes a credential to it ({excerpt})"))
                            .at(path, Some(line), None)
                            .feedback(format!("Do not write credentials into `{path}` ({what}). Reference an environment variable (`${{TOKEN}}`) or put example values in a `.example` file instead.")),
                    ),
                    None => out.push(
                        Finding::new(&INFO, Severity::Block, format!("`{path}` is {what}; slopguard never lets a change write it"))
                            .at(path, None, None)
                            .feedback(format!("Do not create or edit `{path}` ({what}). Put example values in a `.example` file instead.")),
                    ),
                }
            }
            if let Some(g) = s.deny.iter().find(|g| glob_match(g, path)) {
                out.push(
                    Finding::new(
                        &INFO,
                        Severity::Block,
                        format!("`{path}` matches the configured denylist pattern `{g}`"),
                    )
                    .at(path, None, None)
                    .feedback(format!(
                        "Do not edit `{path}`: the repository's configuration forbids it."
                    )),
                );
            }
            if ci_path(path)
                && !s.allow_ci
                && !cx.task().is_some_and(|t| {
                    t.hints_path(path) || crate::intent::announced_by_message(t, file, CI_WORDS)
                })
            {
                out.push(
                    Finding::new(&INFO, cx.intent_severity(), format!("`{path}` is CI configuration and the task does not name it"))
                        .at(path, None, None)
                        .feedback(format!("Leave `{path}` alone: CI configuration is out of scope unless the task names that file.")),
                );
            }
            let after = change.after.as_deref().unwrap_or_default();
            // Excluded paths (fixtures, vendored code) keep the security checks above; their
            // content may be deliberately odd.
            let excluded = cx.config().excluded(path);
            if change.after_is_symlink {
                let target = String::from_utf8_lossy(after);
                if symlink_escapes(path, &target) {
                    out.push(
                        Finding::new(&INFO, Severity::Block, format!("symlink `{path}` -> `{target}` points outside the repository"))
                            .at(path, None, None)
                            .feedback(format!("Do not create symlinks that leave the repository (`{path}` -> `{target}`).")),
                    );
                }
                continue;
            }
            if excluded {
                continue;
            }
            if after.len() as u64 > s.max_file_bytes {
                out.push(
                    Finding::new(
                        &INFO,
                        Severity::Block,
                        format!("`{path}` is {} bytes, over the {}-byte cap", after.len(), s.max_file_bytes),
                    )
                    .at(path, None, None)
                    .feedback(format!("`{path}` is too large ({} bytes). Write only the code the task needs.", after.len()))
                    .data(serde_json::json!({"bytes": after.len(), "max_file_bytes": s.max_file_bytes})),
                );
                continue;
            }
            let text_kind = !matches!(file.kind(), FileKind::Other)
                || crate::guards::scratch_file::is_text_extension(path);
            let before_binary = change
                .before
                .as_deref()
                .is_some_and(|b| crate::context::decode_text(b).is_none());
            if text_kind && !before_binary && crate::context::decode_text(after).is_none() {
                let why = if after.contains(&0) {
                    "NUL bytes"
                } else {
                    "invalid UTF-8"
                };
                out.push(
                    Finding::new(
                        &INFO,
                        Severity::Block,
                        format!("`{path}` should be text but contains {why}"),
                    )
                    .at(path, None, None)
                    .feedback(format!(
                        "`{path}` came out as binary garbage ({why}). Write plain UTF-8 text."
                    )),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_paths() {
        assert!(hostile_path("../etc/passwd").is_some());
        assert!(hostile_path("/etc/passwd").is_some());
        assert!(hostile_path("C:\\x").is_some());
        assert!(hostile_path("a/.git/config").is_some());
        assert!(hostile_path("src/ok.rs").is_none());
        assert!(hostile_path("docs/..foo.md").is_none());
    }

    #[test]
    fn secrets() {
        assert!(secret_path(".env").is_some());
        assert!(secret_path("app/.env.production").is_some());
        assert!(secret_path(".env.example").is_none());
        assert!(secret_path("home/.ssh/config").is_some());
        assert!(secret_path("certs/server.pem").is_some());
        assert!(secret_path("src/environment.rs").is_none());
    }

    #[test]
    fn credentials_written() {
        let w = |p, b, a| written_credential(p, b, a).map(|(l, _)| l);
        assert_eq!(w(".npmrc", "", "ignore-scripts=true\n"), None);
        assert_eq!(
            w(
                ".npmrc",
                "",
                "//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n"
            ),
            None
        );
        assert_eq!(
            w(
                ".npmrc",
                "",
                "a=1\n//registry.npmjs.org/:_authToken=npm_abc123\n"
            ),
            Some(2)
        );
        let old = "//r/:_authToken=npm_abc123\n";
        assert_eq!(
            w(
                ".npmrc",
                old,
                "ignore-scripts=true\n//r/:_authToken=npm_abc123\n"
            ),
            None
        );
        assert_eq!(
            w(".netrc", "", "machine h login me password hunter2\n"),
            Some(1)
        );
        assert_eq!(
            w(
                ".pypirc",
                "",
                "[pypi]\nusername = __token__\npassword = pypi-AgE\n"
            ),
            Some(3)
        );
        assert_eq!(
            w(".git-credentials", "", "https://u:t@github.com\n"),
            Some(1)
        );
        assert_eq!(
            w("credentials.json", "", "{\"client_secret\": \"s3cr3t\"}"),
            Some(1)
        );
        assert_eq!(w("credentials.json", "", "{\"client_secret\": null}"), None);
    }

    #[test]
    fn symlinks() {
        assert!(symlink_escapes("a/link", "../../x"));
        assert!(!symlink_escapes("a/link", "../x"));
        assert!(symlink_escapes("link", "/etc/passwd"));
    }

    #[test]
    fn globs() {
        assert!(glob_match("docs/**", "docs/a/b.md"));
        assert!(glob_match("*.lock", "Cargo.lock"));
        assert!(!glob_match("*.lock", "a/Cargo.lock"));
        assert!(glob_match("**/*.lock", "a/Cargo.lock"));
    }
}

//! Ruby manifests: a `Gemfile`'s `gem` lines and a `.gemspec`'s dependency calls (the gem's own
//! name, from the file name, is local).

use crate::manifests::Facts;

fn first_quoted(s: &str) -> Option<&str> {
    let s = s.trim_start();
    let q = s.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let end = s[1..].find(q)?;
    Some(&s[1..1 + end])
}

pub(crate) fn gemfile(text: &str, facts: &mut Facts) {
    facts.stack.insert("ruby/bundler".into());
    for raw in text.lines() {
        let line = raw.trim();
        if let Some(rest) = line
            .strip_prefix("gem ")
            .or_else(|| line.strip_prefix("gem("))
            && let Some(name) = first_quoted(rest)
        {
            facts.dep("ruby", name);
        }
    }
}

pub(crate) fn gemspec(path: &str, text: &str, facts: &mut Facts) {
    facts.stack.insert("ruby/gem".into());
    for raw in text.lines() {
        let line = raw.trim();
        for key in [
            "add_dependency",
            "add_runtime_dependency",
            "add_development_dependency",
        ] {
            if let Some(i) = line.find(key) {
                let rest = line[i + key.len()..].trim_start_matches(['(', ' ']);
                if let Some(name) = first_quoted(rest) {
                    facts.dep("ruby", name);
                }
            }
        }
    }
    let base = path.rsplit('/').next().unwrap_or(path);
    if let Some(name) = base.strip_suffix(".gemspec") {
        facts.local.insert(name.to_string());
    }
}

//! Go modules and workspaces: `go.mod` (the module's path, its required modules) and `go.work`
//! (the modules a workspace builds together: each `use` directory's module is local, so
//! importing it needs no `require`).
//!
//! Both files are read the same way: line by line, `//` comments dropped, a directive either on
//! one line (`require example.com/x v1.0.0`, `use ./api`) or over a block (`require (` ...
//! `)`), as the go command writes them.

use crate::manifests::{Facts, dir_of, join};

/// The directives of a `go.mod` or `go.work`, as (keyword, argument): one entry per line of a
/// block (`use (` ./a ./b `)` gives `("use", "./a")`, `("use", "./b")`).
fn directives(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut block: Option<&str> = None;
    for raw in text.lines() {
        let line = raw.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(keyword) = block {
            if line.starts_with(')') {
                block = None;
            } else {
                out.push((keyword, line));
            }
            continue;
        }
        let (keyword, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(k, r)| (k, r.trim()));
        if rest.starts_with('(') {
            block = Some(keyword);
        } else {
            out.push((keyword, rest));
        }
    }
    out
}

/// The module path of a `module` directive's argument (quoted or not).
fn module_argument(argument: &str) -> Option<&str> {
    let m = argument.trim_matches('"');
    (!m.is_empty()).then_some(m)
}

/// The module path a `go.mod` declares, when it declares one.
pub fn go_module_path(go_mod: &str) -> Option<String> {
    directives(go_mod)
        .into_iter()
        .find(|(keyword, _)| *keyword == "module")
        .and_then(|(_, argument)| module_argument(argument))
        .map(str::to_string)
}

/// A `go.mod`: the module's own path is local, every required module a dependency.
pub(crate) fn go_mod(path: &str, text: &str, facts: &mut Facts) {
    facts.stack.insert("go/modules".into());
    for (keyword, argument) in directives(text) {
        match keyword {
            "module" => {
                if let Some(m) = module_argument(argument) {
                    facts.local.insert(m.to_string());
                }
            }
            "require" => {
                if let Some(m) = argument.split_whitespace().next() {
                    facts.dep("go", m);
                }
            }
            _ => {}
        }
    }
    facts.entrypoints.insert(join(dir_of(path), "main.go"));
}

/// A `go.work`: the module of every `use` directory inside the tree is local, read from that
/// directory's `go.mod` wherever it is (a fork kept under `third_party/`, whose manifests the
/// fingerprint does not read otherwise). A directory outside the tree (`../shared`) cannot be
/// read and adds nothing.
pub(crate) fn go_work(
    path: &str,
    text: &str,
    read: &dyn Fn(&str) -> Option<String>,
    facts: &mut Facts,
) {
    facts.stack.insert("go/workspace".into());
    for (keyword, argument) in directives(text) {
        if keyword != "use" {
            continue;
        }
        let Some(dir) = inside_tree(dir_of(path), argument.trim_matches('"')) else {
            continue;
        };
        if let Some(m) = read(&join(&dir, "go.mod")).and_then(|t| go_module_path(&t)) {
            facts.local.insert(m);
        }
    }
}

/// `rel` resolved against the directory `base`, when it stays inside the tree (no absolute
/// path, no `..` above the root).
fn inside_tree(base: &str, rel: &str) -> Option<String> {
    if rel.starts_with('/') || rel.is_empty() {
        return None;
    }
    let mut depth = base.split('/').filter(|c| !c.is_empty()).count();
    for c in rel.split('/') {
        match c {
            "" | "." => {}
            ".." => depth = depth.checked_sub(1)?,
            _ => depth += 1,
        }
    }
    Some(join(base, rel))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifests::{manifest_kind, parse};

    fn facts_with(path: &str, text: &str, files: &[(&str, &str)]) -> Facts {
        let mut f = Facts::default();
        let read = |p: &str| {
            files
                .iter()
                .find(|(name, _)| *name == p)
                .map(|(_, t)| t.to_string())
        };
        parse(manifest_kind(path).unwrap(), path, text, &read, &mut f);
        f
    }

    #[test]
    fn go_module_path_reads_the_module_directive() {
        let go_mod = "// header\nmodule \"example.com/m\" // the module\n\ngo 1.22\n";
        assert_eq!(go_module_path(go_mod).as_deref(), Some("example.com/m"));
        assert_eq!(go_module_path("go 1.22\n"), None);
    }

    #[test]
    fn go_mod_blocks() {
        let f = facts_with(
            "go.mod",
            "module example.com/app\n\ngo 1.22\n\nrequire github.com/spf13/cobra v1.8.0\nrequire (\n\tgithub.com/gin-gonic/gin v1.9.1 // indirect\n\tgolang.org/x/sys v0.1.0\n)\n",
            &[],
        );
        let deps: Vec<&String> = f.deps["go"].iter().collect();
        assert_eq!(
            deps,
            [
                "github.com/gin-gonic/gin",
                "github.com/spf13/cobra",
                "golang.org/x/sys"
            ]
        );
        assert!(f.local.contains("example.com/app"));
    }

    #[test]
    fn go_work_use_directories_are_local_modules() {
        // The shape of 0xsequence/go-sequence's go.work (`use ( . ./tools )`), one directory
        // a fork under third_party/, one outside the tree.
        let work = "go 1.22.6\n\nuse (\n\t.\n\t./tools // generators\n\t\"./third_party/ratelimit\"\n\t../shared\n)\n\nuse ./cmd/seqctl\n";
        let files = [
            ("go.mod", "module github.com/0xsequence/go-sequence\n"),
            (
                "tools/go.mod",
                "module github.com/0xsequence/go-sequence/tools\n",
            ),
            (
                "third_party/ratelimit/go.mod",
                "module go.uber.org/ratelimit\n\ngo 1.20\n",
            ),
            ("shared/go.mod", "module example.com/outside\n"),
            (
                "cmd/seqctl/go.mod",
                "// seqctl\nmodule \"example.com/seqctl\"\n",
            ),
        ];
        let f = facts_with("go.work", work, &files);
        let local: Vec<&String> = f.local.iter().collect();
        assert_eq!(
            local,
            [
                "example.com/seqctl",
                "github.com/0xsequence/go-sequence",
                "github.com/0xsequence/go-sequence/tools",
                "go.uber.org/ratelimit"
            ]
        );
        assert!(f.deps.is_empty());
        assert!(f.stack.contains("go/workspace"));
    }

    #[test]
    fn paths_outside_the_tree_are_not_read() {
        assert_eq!(inside_tree("", "../shared"), None);
        assert_eq!(inside_tree("", "/abs/mod"), None);
        assert_eq!(inside_tree("work", "../lib").as_deref(), Some("lib"));
        assert_eq!(inside_tree("", "./a/b").as_deref(), Some("a/b"));
        assert_eq!(inside_tree("", ".").as_deref(), Some(""));
    }
}

//! The crate layering of docs/ARCHITECTURE.md, checked against `cargo metadata`: the code map's
//! "must not depend on" column is a rule, and this test fails when a crate's dependencies
//! (direct or through other workspace crates, build and normal; test-only dependencies are
//! free) break it. Adding a row to the table adds a rule; a crate missing from the table fails
//! too, so a new crate gets its place in the map.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// Workspace crates by short name (`lang` for `slopguard-lang`) with their workspace
/// dependencies, test-only ones left out.
fn workspace_graph(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let names: BTreeSet<String> = packages
        .iter()
        .filter_map(|p| p["name"].as_str().map(str::to_string))
        .collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|d| d["kind"].as_str() != Some("dev"))
                .filter_map(|d| d["name"].as_str())
                .filter(|n| names.contains(*n))
                .map(short)
                .collect();
            (short(p["name"].as_str().unwrap_or_default()), deps)
        })
        .collect()
}

/// `slopguard-apply-patch` -> `apply-patch`.
fn short(name: &str) -> String {
    name.strip_prefix("slopguard-").unwrap_or(name).to_string()
}

/// Every workspace crate `krate` depends on, directly or through others.
fn reachable(graph: &BTreeMap<String, BTreeSet<String>>, krate: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = graph.get(krate).into_iter().flatten().cloned().collect();
    while let Some(next) = stack.pop() {
        if seen.insert(next.clone()) {
            stack.extend(graph.get(&next).into_iter().flatten().cloned());
        }
    }
    seen
}

/// What is forbidden to a crate, from the code map's "must not depend on" cell.
enum Forbidden {
    /// "anything else in the workspace", "everything".
    All,
    /// Named crates.
    These(BTreeSet<String>),
}

/// The code map: `| `crate` | owns | must not depend on |` rows of docs/ARCHITECTURE.md.
fn code_map(doc: &str) -> BTreeMap<String, Forbidden> {
    let section = doc
        .split("## Code map")
        .nth(1)
        .expect("docs/ARCHITECTURE.md has a code map");
    let mut map = BTreeMap::new();
    for line in section.lines().take_while(|l| !l.starts_with("Inside ")) {
        let cells: Vec<&str> = line.split(" | ").map(str::trim).collect();
        let [first, _, forbidden] = cells.as_slice() else {
            continue;
        };
        let Some(name) = first
            .trim_start_matches('|')
            .trim()
            .strip_prefix('`')
            .and_then(|n| n.strip_suffix('`'))
        else {
            continue;
        };
        let forbidden = forbidden.trim_end_matches('|').trim();
        let rule = if forbidden.starts_with("anything") || forbidden == "everything" {
            Forbidden::All
        } else {
            Forbidden::These(
                forbidden
                    .split(',')
                    .map(|c| c.trim().trim_matches('`').to_string())
                    .filter(|c| !c.is_empty() && c != "—")
                    .collect(),
            )
        };
        map.insert(name.to_string(), rule);
    }
    map
}

#[test]
fn every_crate_keeps_the_layering_of_the_code_map() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).expect("read the doc");
    let map = code_map(&doc);
    let graph = workspace_graph(&root);
    let mut broken = Vec::new();
    for krate in graph.keys() {
        let Some(rule) = map.get(krate) else {
            broken.push(format!(
                "`{krate}` is not in the code map of docs/ARCHITECTURE.md"
            ));
            continue;
        };
        let deps = reachable(&graph, krate);
        let bad: Vec<&String> = match rule {
            Forbidden::All => deps.iter().collect(),
            Forbidden::These(names) => deps.iter().filter(|d| names.contains(*d)).collect(),
        };
        if !bad.is_empty() {
            broken.push(format!(
                "`{krate}` depends on {bad:?}, which the code map forbids"
            ));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_code_map_reads_each_kind_of_rule() {
    let doc = "## Code map\n\n| crate | owns | must not depend on |\n|---|---|---|\n\
               | `lang` | parses | anything else in the workspace |\n\
               | `guards` | the guards | agent, llm, store |\n\
               | `cli` | the binary | — |\n\nInside `agent`:\n| `x` | y | z |\n";
    let map = code_map(doc);
    assert_eq!(map.len(), 3, "{:?}", map.keys().collect::<Vec<_>>());
    assert!(matches!(map["lang"], Forbidden::All));
    let Forbidden::These(g) = &map["guards"] else {
        panic!("guards names crates");
    };
    assert_eq!(g.iter().collect::<Vec<_>>(), ["agent", "llm", "store"]);
    assert!(matches!(&map["cli"], Forbidden::These(c) if c.is_empty()));
    let graph: BTreeMap<String, BTreeSet<String>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec![])]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
            .collect();
    assert_eq!(
        reachable(&graph, "a").into_iter().collect::<Vec<_>>(),
        ["b", "c"]
    );
}

#[test]
fn every_crate_takes_the_workspace_lints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let workspace: toml::Table = std::fs::read_to_string(root.join("Cargo.toml"))
        .expect("read the workspace manifest")
        .parse()
        .expect("the workspace manifest is TOML");
    let members = workspace["workspace"]["members"]
        .as_array()
        .expect("members");
    assert!(!members.is_empty());
    let lints = &workspace["workspace"]["lints"];
    assert_eq!(lints["clippy"]["unwrap_used"].as_str(), Some("deny"));
    assert_eq!(lints["rust"]["unsafe_code"].as_str(), Some("deny"));
    for member in members {
        let dir = member.as_str().expect("a member is a path");
        let manifest: toml::Table = std::fs::read_to_string(root.join(dir).join("Cargo.toml"))
            .expect("read a member manifest")
            .parse()
            .expect("a member manifest is TOML");
        let takes = manifest
            .get("lints")
            .and_then(|l| l.get("workspace"))
            .and_then(toml::Value::as_bool);
        assert_eq!(
            takes,
            Some(true),
            "{dir}/Cargo.toml must have `[lints] workspace = true`"
        );
    }
}

/// The sibling modules a file of `run/` names (`super::x`) in its code, outside comments and
/// its tests.
fn run_module_imports(run_dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for entry in std::fs::read_dir(run_dir).expect("run/ is readable") {
        let path = entry.expect("an entry").path();
        let (name, file) = if path.is_dir() {
            let name = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .to_string();
            (name, path.join("mod.rs"))
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path
                .file_stem()
                .expect("a stem")
                .to_string_lossy()
                .to_string();
            (name, path)
        } else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let uses: BTreeSet<String> = code
            .lines()
            .map(str::trim_start)
            .filter(|l| !l.starts_with("//"))
            .flat_map(|l| l.match_indices("super::").map(move |(at, _)| &l[at + 7..]))
            .filter_map(|rest| {
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                (end > 0).then(|| rest[..end].to_string())
            })
            .filter(|m| *m != name)
            .collect();
        graph.insert(name, uses);
    }
    graph
}

/// The run loop's steps import each other in one direction only: no file of `run/` reaches
/// itself through the modules it imports. The shared types live in `carry`, `context`,
/// `progress` and `store`, which import no step.
#[test]
fn the_run_loop_has_no_file_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let graph = run_module_imports(&root.join("crates/agent/src/run"));
    assert!(graph.len() > 10, "run/ was read: {graph:?}");
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&String> = graph[start].iter().collect();
        while let Some(m) = stack.pop() {
            assert!(m != start, "run/{start} imports itself through {seen:?}");
            if seen.insert(m.clone()) {
                stack.extend(graph.get(m).into_iter().flatten());
            }
        }
    }
}

/// The crates the run loop is made of, whose files stay small enough to read in one sitting.
const AGENT_CRATES: [&str; 6] = [
    "agent",
    "worker",
    "planning",
    "forge",
    "feedback",
    "apply-patch",
];

/// Most lines a source file of [`AGENT_CRATES`] may have.
const MAX_FILE_LINES: usize = 800;

#[test]
fn no_source_file_of_the_agents_crates_is_over_800_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = BTreeMap::new();
    for krate in AGENT_CRATES {
        let src = root.join("crates").join(krate).join("src");
        for (rel, bytes) in slopguard_testkit::snapshot(&src) {
            if rel.ends_with(".rs") {
                files.insert(format!("crates/{krate}/src/{rel}"), bytes);
            }
        }
    }
    assert!(files.len() > 50, "{:?}", files.keys());
    let long: Vec<String> = files
        .iter()
        .filter_map(|(path, bytes)| {
            let lines = String::from_utf8_lossy(bytes).lines().count();
            (lines > MAX_FILE_LINES).then(|| format!("{path} has {lines} lines"))
        })
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}

//! docs/output.md stays true to the binary: every command `slopguard --help` lists has its
//! section, with a text example for a command that prints text and its JSON described for a
//! command with `--format json`.

mod common;

use std::process::Command;

use common::bin;

fn help(args: &[&str]) -> String {
    let out = Command::new(bin())
        .args(args)
        // The short help: `--format`'s values on one line, `[possible values: text, json]`.
        .arg("-h")
        .env("NO_COLOR", "1")
        .output()
        .expect("slopguard runs");
    assert!(out.status.success(), "slopguard {args:?} -h");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The subcommand names under `Commands:` in a help text (without `help`).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The values `--format` takes in a help text, if the command has the option.
fn format_values(help: &str) -> Vec<String> {
    let Some(at) = help.find("--format <") else {
        return Vec::new();
    };
    let rest = &help[at..];
    let list = rest
        .find("[possible values: ")
        .unwrap_or_else(|| panic!("--format without its values in:\n{help}"));
    let list = &rest[list + "[possible values: ".len()..];
    let end = list.find(']').unwrap_or(list.len());
    list[..end].split(", ").map(str::to_string).collect()
}

/// The `## `name`` section of docs/output.md, up to the next `## ` heading.
fn section<'a>(doc: &'a str, name: &str) -> Option<&'a str> {
    let heading = format!("\n## `{name}`\n");
    let body = &doc[doc.find(&heading)? + heading.len()..];
    let end = body.find("\n## ").unwrap_or(body.len());
    Some(&body[..end])
}

#[test]
fn output_md_covers_every_command_and_its_formats() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/output.md"),
    )
    .expect("docs/output.md");
    let commands = subcommands(&help(&[]));
    assert!(commands.len() >= 10, "{commands:?}");
    for command in &commands {
        let text = section(&doc, command)
            .unwrap_or_else(|| panic!("docs/output.md has no `## `{command}`` section"));
        // A command's formats: its own `--format`, else its subcommands' (feedback).
        let own = help(&[command]);
        let mut formats = format_values(&own);
        if formats.is_empty() {
            for sub in subcommands(&own) {
                formats.extend(format_values(&help(&[command, &sub])));
            }
        }
        if formats.iter().any(|f| f == "text") {
            assert!(
                text.contains("```text"),
                "docs/output.md: `{command}` prints text, but its section shows no text example"
            );
        }
        if formats.iter().any(|f| f == "json") {
            assert!(
                text.contains("--format json"),
                "docs/output.md: `{command}` has --format json, but its section does not describe it"
            );
        }
        // The formats table at the top names every value.
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| [`{command}")))
            .unwrap_or_else(|| panic!("docs/output.md: no table row for `{command}`"));
        for f in &formats {
            assert!(
                row.contains(f.as_str()),
                "docs/output.md: the table row of `{command}` does not name --format {f}: {row}"
            );
        }
    }
}

/// The repository's root.
fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Relative link targets (`[text](target)`, anchors dropped) in a Markdown text.
fn relative_links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|t| t.split('#').next().unwrap_or("").to_string())
        .filter(|t| !t.is_empty() && !t.contains("://") && !t.starts_with("mailto:"))
        .collect()
}

/// Repository paths quoted in backticks (`scripts/main-job.sh`), templates (`<id>`, `*`) left out.
fn quoted_paths(text: &str) -> Vec<String> {
    const TOP: [&str; 5] = ["scripts/", "docs/", "crates/", "tests/", "examples/"];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|q| TOP.iter().any(|t| q.starts_with(t)))
        .filter(|q| !q.contains([' ', '<', '*', '{', '$']))
        .map(|q| q.trim_end_matches([':', ',', '.']).to_string())
        .collect()
}

#[test]
fn readme_and_docs_point_only_at_files_the_repository_has() {
    let root = root().canonicalize().unwrap();
    // Inside the clone: a link out of it (`../shared/DESIGN.md`) may resolve on one machine and
    // on no other.
    let in_clone = |p: &std::path::Path| p.canonicalize().is_ok_and(|p| p.starts_with(&root));
    let mut pages = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "md") {
            pages.push(e.path());
        }
    }
    let mut missing = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let dir = page.parent().unwrap();
        for link in relative_links(&text) {
            if !in_clone(&dir.join(&link)) {
                missing.push(format!("{}: link {link}", page.display()));
            }
        }
        // README and ARCHITECTURE describe this repository; output.md's paths are its
        // examples' (`tests/test_db.py` of the sample project).
        let describes_this_repository =
            page.ends_with("README.md") || page.ends_with("ARCHITECTURE.md");
        if !describes_this_repository {
            continue;
        }
        for path in quoted_paths(&text) {
            if !in_clone(&root.join(&path)) {
                missing.push(format!("{}: `{path}`", page.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the docs name files a clone does not have:\n{}",
        missing.join("\n")
    );
}

/// Every command's `--help` ends with real examples and its exit codes, and the exit codes are
/// the ones docs/output.md's table gives.
#[test]
fn every_command_help_shows_examples_and_the_documented_exit_codes() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/output.md"),
    )
    .expect("read docs/output.md");
    for command in [
        "check", "replay", "guards", "hook", "serve", "analyze", "plan", "run", "ci-watch",
        "doctor", "feedback",
    ] {
        let out = assert_cmd::Command::cargo_bin("slopguard")
            .unwrap()
            .args([command, "--help"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{command}");
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains("Examples:\n  slopguard"), "{command}: {help}");
        let codes = help
            .split("Exit codes: ")
            .nth(1)
            .unwrap_or_else(|| panic!("{command}: no exit codes: {help}"));
        // The first code's meaning, as the docs' table says it.
        let first = codes.split(',').next().unwrap_or("").trim();
        let first = first.split(" (").next().unwrap_or(first);
        assert!(
            doc.lines()
                .any(|l| l.starts_with(&format!("| [`{command}")) && l.contains(first)),
            "{command}: `{first}` is not in docs/output.md's table"
        );
    }
}

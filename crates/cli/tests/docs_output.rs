//! docs/output.md stays true to the binary: every command `slopguard --help` lists has its
//! section, with a text example for a command that prints text and its JSON described for a
//! command with `--format json`.

mod common;

use std::process::Command;

use common::bin;

fn help(args: &[&str]) -> String {
    let out = Command::new(bin())
        .args(args)
        .arg("--help")
        .env("NO_COLOR", "1")
        .output()
        .expect("slopguard runs");
    assert!(out.status.success(), "slopguard {args:?} --help");
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
    let Some(list) = rest.find("[possible values: ") else {
        return Vec::new();
    };
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

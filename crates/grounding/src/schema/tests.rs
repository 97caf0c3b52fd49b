use super::*;

#[test]
fn kinds() {
    assert_eq!(
        config_kind(".github/workflows/ci.yml"),
        Some(ConfigKind::Workflow)
    );
    assert_eq!(
        config_kind(".github/dependabot.yml"),
        Some(ConfigKind::Dependabot)
    );
    assert_eq!(
        config_kind("tools/setup/action.yaml"),
        Some(ConfigKind::Action)
    );
    assert_eq!(
        config_kind("web/tsconfig.build.json"),
        Some(ConfigKind::Tsconfig)
    );
    assert_eq!(config_kind(".eslintrc.json"), Some(ConfigKind::Eslintrc));
    assert_eq!(config_kind("src/ci.yml"), None);
}

#[test]
fn eslintrc_parser_object_is_flagged() {
    let bad = r#"{
  "root": true,
  "parser": {"parser": "@typescript-eslint/parser"},
  "rules": {}
}"#;
    let v = check(".eslintrc.json", None, bad);
    assert!(!v.is_empty(), "{v:?}");
    assert_eq!(v[0].pointer, "/parser");
    assert_eq!(v[0].line, Some(3));
    let good = r#"{"root": true, "parser": "@typescript-eslint/parser", "rules": {}}"#;
    assert!(check(".eslintrc.json", None, good).is_empty());
}

#[test]
fn workflow_unknown_key_and_typed_errors() {
    let good = "name: CI\non:\n  push:\n    branches: [main]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: cargo test\n";
    assert!(
        check(".github/workflows/ci.yml", None, good).is_empty(),
        "{:?}",
        check(".github/workflows/ci.yml", None, good)
    );
    let bad = good.replace("runs-on", "runs_on");
    let v = check(".github/workflows/ci.yml", None, &bad);
    assert!(!v.is_empty());
    assert!(
        v.iter()
            .any(|x| x.message.contains("runs") || x.message.contains("required")),
        "{v:?}"
    );
    // Carry-over: the same problem before and after is not this change's.
    assert!(check(".github/workflows/ci.yml", Some(&bad), &bad).is_empty());
}

#[test]
fn workflow_strategy_without_matrix_runs() {
    // psf/requests' run-tests.yml: GitHub runs it; the schema's `required: [matrix]` is
    // stricter than GitHub's own workflow schema.
    let text = "name: CI\non: [push]\njobs:\n  urllib3:\n    name: 'urllib3 1.x'\n    runs-on: 'ubuntu-latest'\n    strategy:\n      fail-fast: true\n    steps:\n      - uses: actions/checkout@v4\n      - run: make ci\n";
    let v = check(".github/workflows/run-tests.yml", None, text);
    assert!(v.is_empty(), "{v:?}");
    // Other problems of the same job still count.
    let bad = text.replace("fail-fast: true", "fail-fast: true\n      max_parallel: 2");
    assert!(!check(".github/workflows/run-tests.yml", None, &bad).is_empty());
}

#[test]
fn an_empty_env_value_in_a_workflow_is_an_empty_string() {
    // `KEY:` reads as null in YAML; GitHub sets the variable to the empty string.
    let text = "name: CI\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    env:\n      RUST_LOG: info\n      TARGET_FLAGS:\n    steps:\n      - run: make\n";
    let v = check(".github/workflows/ci.yml", None, text);
    assert!(v.is_empty(), "{v:?}");
    // A value of the wrong type there still counts.
    let bad = text.replace("TARGET_FLAGS:\n", "TARGET_FLAGS: [a, b]\n");
    let v = check(".github/workflows/ci.yml", None, &bad);
    assert!(
        v.iter().any(|x| x.message.contains("TARGET_FLAGS")),
        "{v:?}"
    );
}

#[test]
fn dependabot() {
    let good = "version: 2\nupdates:\n  - package-ecosystem: cargo\n    directory: /\n    schedule:\n      interval: weekly\n";
    assert!(
        check(".github/dependabot.yml", None, good).is_empty(),
        "{:?}",
        check(".github/dependabot.yml", None, good)
    );
    let bad = good.replace("weekly", "fortnightly");
    assert!(!check(".github/dependabot.yml", None, &bad).is_empty());
}

#[test]
fn package_json_and_tsconfig() {
    assert!(
        check(
            "package.json",
            None,
            r#"{"name":"x","version":"1.0.0","scripts":{"test":"vitest"}}"#
        )
        .is_empty()
    );
    assert!(!check("package.json", None, r#"{"name":"x","scripts":["vitest"]}"#).is_empty());
    let ts = "{\n  // comment\n  \"compilerOptions\": {\"strict\": true, \"moduleResolution\": \"bundler\",},\n}";
    assert!(
        check("tsconfig.json", None, ts).is_empty(),
        "{:?}",
        check("tsconfig.json", None, ts)
    );
    assert!(
        !check(
            "tsconfig.json",
            None,
            r#"{"compilerOptions": {"strict": "yes"}}"#
        )
        .is_empty()
    );
}

#[test]
fn prettierrc() {
    assert!(check(".prettierrc", None, "semi: false\nsingleQuote: true\n").is_empty());
    assert!(!check(".prettierrc.json", None, r#"{"tabWidth": "four"}"#).is_empty());
}

#[test]
fn pyproject() {
    let good = "[project]\nname = \"tool\"\nversion = \"0.1.0\"\ndependencies = [\"requests\"]\n[tool.ruff]\nline-length = 100\n";
    assert!(
        check("pyproject.toml", None, good).is_empty(),
        "{:?}",
        check("pyproject.toml", None, good)
    );
    let bad = "[project]\nname = \"tool\"\nversion = \"0.1.0\"\ndependencies = \"requests\"\n";
    assert!(!check("pyproject.toml", None, bad).is_empty());
    let bad_tool =
        "[project]\nname = \"tool\"\nversion = \"0.1.0\"\n[tool.ruff]\nline-length = \"long\"\n";
    let v = check("pyproject.toml", None, bad_tool);
    assert!(
        v.iter().any(|x| x.pointer.starts_with("/tool/ruff")),
        "{v:?}"
    );
    assert_eq!(v[0].line, Some(5));
}

#[test]
fn pyproject_tool_tables_are_judged_when_they_change() {
    let bad_ruff =
        "[project]\nname = \"tool\"\nversion = \"0.1.0\"\n[tool.ruff]\nline-length = \"long\"\n";
    // An old violation in an unchanged table is not the change's, whatever else changed.
    let other_edit = format!("{bad_ruff}[tool.pyright]\nreportPrivateUsage = false\n");
    assert_eq!(
        check("pyproject.toml", Some(bad_ruff), &other_edit),
        Vec::new()
    );
    // The same table, changed and still wrong, is judged.
    let changed = bad_ruff.replace("\"long\"", "\"longer\"");
    let v = check("pyproject.toml", Some(bad_ruff), &changed);
    assert!(
        v.iter().any(|x| x.pointer.starts_with("/tool/ruff")),
        "{v:?}"
    );
    // A table made wrong by the change is judged.
    let good = bad_ruff.replace("\"long\"", "100");
    let v = check("pyproject.toml", Some(&good), bad_ruff);
    assert!(
        v.iter().any(|x| x.pointer.starts_with("/tool/ruff")),
        "{v:?}"
    );
}

#[test]
fn cargo() {
    assert!(
        check(
            "Cargo.toml",
            None,
            "[package]\nname = \"x\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"
        )
        .is_empty()
    );
    let v = check(
        "Cargo.toml",
        None,
        "[package]\nname = \"x\"\nversion = \"0.1.0\"\nedition = 2021\n",
    );
    assert_eq!(v.len(), 1, "{v:?}");
    // Syntax errors are not G10's.
    assert!(check("Cargo.toml", None, "[package\n").is_empty());
}

#[test]
fn jsonc() {
    let s = strip_jsonc("{\"a\": \"//not\", /* x\n */ \"b\": [1,2,],}");
    let v: Value = serde_json::from_str(&s).unwrap();
    assert_eq!(v["a"], "//not");
}

#[test]
fn each_registry_holds_what_its_schema_references() {
    let names = |root: &str| -> Vec<&str> {
        needed_by(bundled(root).unwrap())
            .iter()
            .map(|b| b.name)
            .collect()
    };
    assert_eq!(
        names("package.json"),
        ["package.json", "eslintrc", "prettierrc"]
    );
    assert_eq!(names("pyproject"), ["pyproject", "project-metadata"]);
    assert_eq!(names("workflow"), ["workflow"]);
    // Every absolute `$ref` in the bundle names a bundled schema (none is left unresolved).
    for b in BUNDLED {
        for uri in absolute_refs(b.text) {
            assert!(BUNDLED.iter().any(|d| d.uri == uri), "{}: {uri}", b.name);
        }
    }
}

#[test]
fn a_condition_written_as_a_yaml_tag_is_flagged_at_its_line() {
    // psf/black's diff_shades.yml at a180c830 (`if: !cancelled()` on a job).
    let tagged = "on: push\njobs:\n  compare:\n    needs: [a]\n    if: !cancelled()\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n";
    let v = check(".github/workflows/diff.yml", None, tagged);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].line, Some(5));
    assert_eq!(v[0].source, "yaml-tagged-condition");
    assert!(
        v[0].message.contains("`if: ${{ !cancelled() }}`"),
        "{}",
        v[0].message
    );

    // The same condition on a step, and the two ways to write it that GitHub reads.
    let step = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - if: !failure()\n        run: echo hi\n";
    assert_eq!(
        check(".github/workflows/s.yml", None, step)[0].line,
        Some(6)
    );
    for good in [
        "${{ !cancelled() }}",
        "'!cancelled()'",
        "\"!cancelled()\"",
        "success()",
    ] {
        let text = tagged.replace("!cancelled()", good);
        assert!(
            check(".github/workflows/diff.yml", None, &text).is_empty(),
            "{good}"
        );
    }

    // A tagged condition the file already had is not the change's; a second one is.
    assert!(check(".github/workflows/diff.yml", Some(tagged), tagged).is_empty());
    let two = tagged.replace(
        "steps:",
        "steps:\n      - if: !failure()\n        run: echo bye",
    );
    let v = check(".github/workflows/diff.yml", Some(tagged), &two);
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(v[0].message.contains("!failure()"));
}

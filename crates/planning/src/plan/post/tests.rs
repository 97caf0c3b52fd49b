use super::*;
use slopguard_store::failure_memory::failure_memory;
use slopguard_store::{FailureMode, ObservationRow, Outcome};
use slopguard_toolchain::MemoryView;

fn st(id: &str, title: &str, hints: &[&str]) -> Subtask {
    Subtask {
        id: id.into(),
        title: title.into(),
        description: String::new(),
        file_hints: hints.iter().map(|s| s.to_string()).collect(),
        action: Action::Modify,
    }
}

fn task(id: &str, subtasks: Vec<Subtask>) -> Task {
    Task {
        id: id.into(),
        title: format!("task {id}"),
        priority: 2,
        description: String::new(),
        subtasks,
    }
}

fn metric(name: &str, status: Status, details: &[&str]) -> Metric {
    Metric {
        name: name.into(),
        title: name.into(),
        score: Some(if status == Status::Fail { 0.2 } else { 0.9 }),
        status,
        weight: 1.0,
        details: details.iter().map(|s| s.to_string()).collect(),
    }
}

fn view() -> MemoryView {
    MemoryView::from_pairs(&[
        ("calc/__init__.py", ""),
        ("calc/ops.py", "def sub(a, b): return a + b\n"),
        ("tests/test_ops.py", "from calc.ops import sub\n"),
        ("README.md", "# calc"),
        ("docs/guide.md", ""),
        (".github/workflows/ci.yml", ""),
    ])
}

fn failing() -> Vec<FailingTest> {
    vec![FailingTest {
        id: "tests/test_ops.py::test_sub".into(),
        file: Some("tests/test_ops.py".into()),
    }]
}

#[test]
fn failing_tests_first_prepends_t000_when_planner_ignores_failing_test() {
    let plan = Plan {
        tasks: vec![task(
            "T001",
            vec![st("T001-S01", "Add CI", &[".github/workflows/ci.yml"])],
        )],
    };
    let tr = metric("test_results", Status::Fail, &["1 failed"]);
    let (out, ev) = failing_tests_first(plan, Some(&tr), &failing(), &view());
    assert_eq!(out.tasks.len(), 2);
    let t0 = &out.tasks[0];
    assert_eq!((t0.id.as_str(), t0.priority), ("T000", 1));
    assert_eq!(t0.subtasks[0].file_hints, vec!["calc/ops.py"]);
    assert!(
        t0.subtasks[0]
            .description
            .contains("tests/test_ops.py::test_sub")
    );
    let ev = ev.unwrap();
    assert_eq!(ev.event, "plan.real_bug_synthesized");
    assert_eq!(ev.data["source_files"][0], "calc/ops.py");
}

#[test]
fn failing_tests_first_respects_a_plan_about_the_failing_tests_and_puts_it_first() {
    let about = task(
        "T002",
        vec![st("T002-S01", "Make test_sub pass", &["calc/ops.py"])],
    );
    let other = task("T001", vec![st("T001-S01", "Add README", &["README.md"])]);
    let plan = Plan {
        tasks: vec![other.clone(), about.clone()],
    };
    let tr = metric("test_results", Status::Fail, &[]);
    let (out, ev) = failing_tests_first(plan, Some(&tr), &failing(), &view());
    assert_eq!(out.tasks, vec![about, other]);
    assert!(ev.is_none());
    // A subtask that only names the file is not about the failing tests: T000 comes first.
    let named = Plan {
        tasks: vec![task(
            "T001",
            vec![st("T001-S01", "Create ops module", &["calc/ops.py"])],
        )],
    };
    let (out, ev) = failing_tests_first(named, Some(&tr), &failing(), &view());
    assert_eq!(out.tasks[0].id, "T000");
    assert!(ev.is_some());
    // Passing tests: nothing to do either.
    let ok = metric("test_results", Status::Pass, &[]);
    let (_, ev) = failing_tests_first(Plan::default(), Some(&ok), &failing(), &view());
    assert!(ev.is_none());
}

#[test]
fn failing_tests_first_caps_subtasks() {
    let mut pairs: Vec<(String, String)> = (0..6)
        .map(|i| (format!("m{i}.py"), String::new()))
        .collect();
    let imports: String = (0..6).map(|i| format!("import m{i}\n")).collect();
    pairs.push(("tests/test_all.py".into(), imports));
    let v = MemoryView(pairs.into_iter().collect());
    let f = vec![FailingTest {
        id: "t".into(),
        file: Some("tests/test_all.py".into()),
    }];
    let tr = metric("test_results", Status::Fail, &[]);
    let (out, _) = failing_tests_first(Plan::default(), Some(&tr), &f, &v);
    assert_eq!(out.tasks[0].subtasks.len(), MAX_SYNTH_SUBTASKS);
}

#[test]
fn failing_tests_first_names_the_file_the_test_is_named_after_first() {
    let v = MemoryView::from_pairs(&[
        ("go.mod", "module example.com/cron\n"),
        ("constantdelay.go", "package cron\n"),
        ("parser.go", "package cron\n"),
        ("spec.go", "package cron\n"),
        ("parser_test.go", "package cron\n"),
    ]);
    let f = vec![FailingTest {
        id: "example.com/cron::TestParse".into(),
        file: Some("parser_test.go".into()),
    }];
    let tr = metric("test_results", Status::Fail, &[]);
    let (out, _) = failing_tests_first(Plan::default(), Some(&tr), &f, &v);
    let hints: Vec<&str> = out.tasks[0]
        .subtasks
        .iter()
        .map(|s| s.file_hints[0].as_str())
        .collect();
    assert_eq!(hints, ["parser.go", "constantdelay.go", "spec.go"]);
}

#[test]
fn a_test_file_is_named_after_its_subject_by_each_languages_convention() {
    for (test, subject) in [
        ("parser_test.go", "parser.go"),
        ("tests/test_units.py", "pkg/units.py"),
        ("tests/test_html5.py", "src/webcolors/_html5.py"),
        ("test/bytes.test.js", "index/bytes.js"),
        ("spec/version_spec.rb", "lib/version.rb"),
        ("test/version_test.rb", "lib/version.rb"),
        ("src/test/ParserTest.java", "src/main/Parser.java"),
    ] {
        assert!(is_named_subject(test, subject), "{test} tests {subject}");
    }
    assert!(!is_named_subject("parser_test.go", "spec.go"));
    assert!(!is_named_subject("tests/test.py", "test.py"));
    assert!(!is_named_subject("tests/test_html5.py", "_html.py"));
}

#[test]
fn retarget_test_only_hints_maps_test_only_hints_to_sources() {
    let plan = Plan {
        tasks: vec![task(
            "T001",
            vec![
                st("T001-S01", "Fix subtraction", &["tests/test_ops.py"]),
                st("T001-S02", "Add tests for mul", &["tests/test_ops.py"]),
                st(
                    "T001-S03",
                    "Fix both",
                    &["tests/test_ops.py", "calc/ops.py"],
                ),
            ],
        )],
    };
    let (out, ev) = retarget_test_only_hints(plan, &view());
    let s = &out.tasks[0].subtasks;
    assert_eq!(s[0].file_hints, vec!["calc/ops.py"]);
    assert_eq!(
        s[1].file_hints,
        vec!["tests/test_ops.py"],
        "adding tests keeps the test file"
    );
    assert_eq!(s[2].file_hints, vec!["tests/test_ops.py", "calc/ops.py"]);
    let ev = ev.unwrap();
    assert_eq!(ev.event, "plan.occam_rewrite");
    assert_eq!(ev.data["rewrites"][0]["before"][0], "tests/test_ops.py");
    assert_eq!(ev.data["rewrites"][0]["after"][0], "calc/ops.py");
}

#[test]
fn a_subtask_that_would_weaken_a_test_is_rewritten_to_fix_the_code() {
    let plan = Plan {
        tasks: vec![task(
            "T001",
            vec![
                st(
                    "T001-S01",
                    "Remove `assert` statement in `test_sub`",
                    &["tests/test_ops.py"],
                ),
                st("T001-S02", "Skip the flaky tests", &["tests/test_ops.py"]),
            ],
        )],
    };
    let (out, ev) = retarget_test_only_hints(plan, &view());
    let s = &out.tasks[0].subtasks;
    assert_eq!(s[0].title, "Make `test_sub` pass by fixing the code");
    assert!(s[0].description.contains("Tests are never weakened"));
    assert_eq!(s[0].file_hints, vec!["calc/ops.py"]);
    assert_eq!(s[1].title, "Fix the code so the failing tests pass");
    let ev = ev.unwrap();
    assert_eq!(
        ev.data["rewrites"][0]["title_before"],
        "Remove `assert` statement in `test_sub`"
    );
    // A subtask that does not weaken tests keeps its title.
    let plan = Plan {
        tasks: vec![task(
            "T001",
            vec![st("T001-S01", "Fix subtraction", &["tests/test_ops.py"])],
        )],
    };
    let (out, _) = retarget_test_only_hints(plan, &view());
    assert_eq!(out.tasks[0].subtasks[0].title, "Fix subtraction");
}

#[test]
fn drop_readme_only_drops_readme_only_subtasks() {
    let plan = Plan {
        tasks: vec![
            task(
                "T001",
                vec![st("T001-S01", "Update README", &["README.md"])],
            ),
            task(
                "T002",
                vec![
                    st("T002-S01", "Fix", &["calc/ops.py"]),
                    st("T002-S02", "Document", &["README.md", "calc/ops.py"]),
                    st("T002-S03", "Readme badge", &["readme.rst"]),
                ],
            ),
        ],
    };
    let docs_ok = metric("docs", Status::Warn, &["no CHANGELOG"]);
    let (out, ev) = drop_readme_only(plan.clone(), Some(&docs_ok));
    assert_eq!(out.tasks.len(), 1, "T001 emptied and removed");
    let ids: Vec<&str> = out.tasks[0]
        .subtasks
        .iter()
        .map(|s| s.id.as_str())
        .collect();
    assert_eq!(ids, vec!["T002-S01", "T002-S02"]);
    let ev = ev.unwrap();
    assert_eq!(ev.event, "plan.readme_banished");
    assert_eq!(ev.data["dropped"].as_array().unwrap().len(), 2);
    assert_eq!(ev.data["tasks_dropped"], 1);
    // Docs metric failing AND citing the README: kept.
    let docs_bad = metric(
        "docs",
        Status::Fail,
        &["README missing: no entry documentation"],
    );
    let (out, ev) = drop_readme_only(plan.clone(), Some(&docs_bad));
    assert_eq!(out, plan);
    assert!(ev.is_none());
    // Failing but not citing the README: still dropped.
    let docs_other = metric("docs", Status::Fail, &["no docs/ directory"]);
    let (out, _) = drop_readme_only(plan, Some(&docs_other));
    assert_eq!(out.subtask_count(), 2);
}

fn row(id: i64, repo: &str, outcome: Outcome, files: &[&str]) -> ObservationRow {
    ObservationRow {
        id,
        ts: String::new(),
        ts_ms: id * 1000,
        repo: repo.into(),
        run_id: "r".into(),
        agent: "slopguard".into(),
        subtask_id: None,
        model: None,
        branch: None,
        commit_sha: None,
        outcome,
        touched_files: files.iter().map(|s| s.to_string()).collect(),
        failure_modes: vec![FailureMode::AstDiff],
        confidence: None,
        extra: None,
    }
}

#[test]
fn g9_drops_subtask_failed_three_times_in_this_repo_only() {
    let rows = vec![
        row(1, "this", Outcome::Fail, &["calc/ops.py"]),
        row(2, "this", Outcome::Fail, &["calc/ops.py"]),
        row(3, "this", Outcome::Fail, &["calc/ops.py"]),
        row(4, "other", Outcome::Fail, &["src/util.py"]),
        row(5, "other", Outcome::Fail, &["src/util.py"]),
        row(6, "other", Outcome::Fail, &["src/util.py"]),
    ];
    let memory = failure_memory("this", &rows);
    let plan = Plan {
        tasks: vec![
            task("T001", vec![st("T001-S01", "Fix ops", &["calc/ops.py"])]),
            task(
                "T002",
                vec![
                    st("T002-S01", "Util", &["src/util.py"]),
                    st("T002-S02", "Ops again", &["./calc/ops.py", "x.py"]),
                ],
            ),
        ],
    };
    let (out, ev) = drop_repeated_failures(plan, &memory, 2);
    assert_eq!(out.tasks.len(), 1);
    assert_eq!(out.tasks[0].subtasks.len(), 1);
    assert_eq!(
        out.tasks[0].subtasks[0].id, "T002-S01",
        "another repo's failures do not count"
    );
    let ev = ev.unwrap();
    assert_eq!(ev.event, "plan.occam_filter");
    assert_eq!(ev.data["total_subtasks"], 3);
    assert_eq!(ev.data["kept_subtasks"], 1);
    assert_eq!(ev.data["tasks_dropped"], 1);
    assert_eq!(ev.data["threshold"], 2);
}

#[test]
fn g9_below_threshold_keeps_everything() {
    let memory = failure_memory("this", &[row(1, "this", Outcome::Fail, &["a.py"])]);
    let plan = Plan {
        tasks: vec![task("T001", vec![st("T001-S01", "A", &["a.py"])])],
    };
    let (out, ev) = drop_repeated_failures(plan.clone(), &memory, 2);
    assert_eq!(out, plan);
    assert!(ev.is_none());
}

#[test]
fn scope_docs_keeps_doc_only_subtasks() {
    let plan = Plan {
        tasks: vec![task(
            "T001",
            vec![
                st("T001-S01", "Guide", &["docs/guide.md"]),
                st("T001-S02", "Code", &["calc/ops.py"]),
                st("T001-S03", "Mixed", &["docs/a.md", "src/x.rs"]),
                st("T001-S04", "Nothing", &[]),
            ],
        )],
    };
    let (same, ev) = scope_filter(plan.clone(), None);
    assert_eq!(same, plan);
    assert!(ev.is_none());
    let (out, ev) = scope_filter(plan, Some(Scope::Docs));
    assert_eq!(out.subtask_count(), 1);
    assert_eq!(out.tasks[0].subtasks[0].id, "T001-S01");
    let ev = ev.unwrap();
    assert_eq!(ev.event, "scope.plan_filtered");
    assert_eq!(ev.data["dropped"].as_array().unwrap().len(), 3);
}

#[test]
fn readme_and_doc_predicates() {
    assert!(is_readme("README.md") && is_readme("docs/Readme.rst") && is_readme("README"));
    assert!(!is_readme("READMEish.py"));
    assert!(!is_readme("src/readme_parser.rs"));
    assert!(is_doc("docs/x.png") && is_doc("CHANGELOG.md") && !is_doc("src/a.py"));
    assert_eq!("docs".parse::<Scope>(), Ok(Scope::Docs));
    assert!("code".parse::<Scope>().is_err());
}

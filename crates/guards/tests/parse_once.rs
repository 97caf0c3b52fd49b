//! Every guard reads source files through the context's parse cache: one check parses each
//! file version once, however many guards read its analysis or resolve names in it.

use std::collections::BTreeMap;
use std::sync::Arc;

use slopguard_change::{ChangeKind, ChangeSet, FileChange, MemTree, Tree};
use slopguard_guards::{Config, Context, GuardStatus, run_static, run_static_parallel};

const UTIL_BEFORE: &str = "def helper(x):\n    return x + 1\n\n\ndef other(y):\n    return y * 2\n";
const UTIL_AFTER: &str = "def other(y):\n    return y * 2\n";
const APP_BEFORE: &str = "from util import helper\n\n\ndef run():\n    return helper(1)\n";
const APP_AFTER: &str = "from util import helper\n\n\ndef run():\n    return helper(2)\n";
const CLI: &str = "import util\n\n\ndef main():\n    print(util.helper(3))\n";

/// `util.py` drops `helper`, `app.py` (changed) and `cli.py` (unchanged, read from the base)
/// still use it: symbol preservation resolves names in all three, syntax, placeholder and
/// the import guards read the same versions' analyses.
fn change() -> ChangeSet {
    let mut base = BTreeMap::new();
    base.insert("util.py".to_string(), UTIL_BEFORE.as_bytes().to_vec());
    base.insert("app.py".to_string(), APP_BEFORE.as_bytes().to_vec());
    base.insert("cli.py".to_string(), CLI.as_bytes().to_vec());
    let modify = |path: &str, before: &str, after: &str| FileChange {
        path: path.to_string(),
        kind: ChangeKind::Modify,
        before: Some(before.as_bytes().to_vec()),
        after: Some(after.as_bytes().to_vec()),
        after_is_symlink: false,
    };
    ChangeSet::new(
        Arc::new(MemTree::new(base)) as Arc<dyn Tree>,
        vec![
            modify("util.py", UTIL_BEFORE, UTIL_AFTER),
            modify("app.py", APP_BEFORE, APP_AFTER),
        ],
        "test",
    )
}

#[test]
fn each_file_version_is_parsed_once_per_check() {
    let change = change();
    let config = Config::default();
    let start = slopguard_lang::parse_count();
    let report = run_static(&change, None, &config);
    let parses = slopguard_lang::parse_count() - start;
    // The guards did look at the sources: the removal of a used function is found.
    let sp = report
        .guards
        .iter()
        .find(|g| g.guard == "symbol-preservation")
        .expect("symbol-preservation ran");
    assert_ne!(sp.status, GuardStatus::Passed, "{report:?}");
    // util.py before and after, app.py before and after, cli.py from the base: five texts.
    assert_eq!(parses, 5, "one parse per file version");
}

#[test]
fn the_same_text_is_one_parse_whoever_asks() {
    let change = change();
    let config = Config::default();
    let cx = Context::new(&change, None, &config);
    let start = slopguard_lang::parse_count();
    let app = cx
        .files()
        .iter()
        .find(|f| f.path() == "app.py")
        .expect("app.py is in the change");
    let from_view = app.after_analysis().expect("python source").clone();
    let uses = app
        .after_source()
        .and_then(|s| s.names_uses(&["helper"]))
        .expect("python has scopes");
    let shared = cx.source(slopguard_lang::Language::Python, APP_AFTER);
    assert_eq!(*shared.analysis(), from_view);
    assert_eq!(uses[0].free_uses, vec![5]);
    // The after version of a modified file is parsed from its before version's tree: two
    // parses (the before text, then the after text incrementally), each text once.
    assert_eq!(slopguard_lang::parse_count() - start, 2);
    assert_eq!(cx.parses().len(), 2);
    let before = cx.source(slopguard_lang::Language::Python, APP_BEFORE);
    assert!(std::ptr::eq(before.as_ref(), app.before_source().unwrap()));
    assert_eq!(slopguard_lang::parse_count() - start, 2);
}

#[test]
fn the_parallel_runner_reports_what_the_sequential_one_does() {
    let change = change();
    let config = Config::default();
    let one = run_static(&change, None, &config);
    let two = run_static_parallel(&change, None, &config, Default::default());
    let verdicts = |r: &slopguard_guards::Report| {
        let guards: Vec<_> = r.guards.iter().map(|g| (g.guard, g.status)).collect();
        (
            r.verdict,
            serde_json::to_string(&r.findings).unwrap(),
            guards,
        )
    };
    assert_eq!(verdicts(&one), verdicts(&two));
    assert_ne!(one.verdict, slopguard_guards::Verdict::Pass);
}

#[test]
fn a_file_over_the_containment_cap_is_not_parsed() {
    let big = "def f():\n    return 1\n".repeat(40);
    let mut base = BTreeMap::new();
    base.insert("data.py".to_string(), b"X = 1\n".to_vec());
    let change = ChangeSet::new(
        Arc::new(MemTree::new(base)) as Arc<dyn Tree>,
        vec![FileChange {
            path: "data.py".to_string(),
            kind: ChangeKind::Modify,
            before: Some(b"X = 1\n".to_vec()),
            after: Some(big.clone().into_bytes()),
            after_is_symlink: false,
        }],
        "test",
    );
    // Runs the static guards under the configuration `toml`: the report and the parses it took.
    let judge = |toml: &str| {
        let config = Config::parse(toml, std::path::Path::new("slopguard.toml")).expect("config");
        let start = slopguard_lang::parse_count();
        let report = run_static(&change, None, &config);
        (report, slopguard_lang::parse_count() - start)
    };
    let (report, parses) = judge("[guards.containment]\nmax_file_bytes = 100\n");
    assert_eq!(parses, 0, "{report:?}");
    let containment = report
        .guards
        .iter()
        .find(|g| g.guard == "containment")
        .expect("containment ran");
    assert_eq!(containment.status, GuardStatus::Blocked, "{report:?}");
    // Without the guard there is nothing to stop the change for its size: it is parsed.
    let (_, parses) = judge("[guards.containment]\nenabled = false\n");
    assert!(parses > 0);
    // Nor when the size only warns: the file may land, so the other guards read it.
    let (_, parses) = judge("[guards.containment]\nmax_file_bytes = 100\nseverity = \"warn\"\n");
    assert!(parses > 0);
}

//! The guard's unit tests (the fixtures are in tests/fixtures/symbol-preservation).

use super::uses::*;
use super::*;

#[test]
fn bindings() {
    assert!(binds("int2byte = struct.Struct('>B').pack", "int2byte"));
    assert!(binds("    const LO_U64: u64 = 0x0101;", "LO_U64"));
    assert!(binds("from typing import Literal as Lit", "Lit"));
    assert!(binds(
        "export function executableDir(path: string): this;",
        "path"
    ));
    assert!(binds("def f(helper=None):", "helper"));
    assert!(!binds("x = helper(1)", "helper"));
    assert!(!binds("if helper == 1:", "helper"));
    assert!(!binds("print(helper())", "helper"));
    assert!(binds("attributes = attrs = _make_attrs", "attributes"));
    assert!(binds("a, helper = 1, 2", "helper"));
}

#[test]
fn word_boundaries() {
    assert_eq!(
        word_positions("x = helper(1)", "helper").collect::<Vec<_>>(),
        vec![4]
    );
    assert!(word_positions("helpers()", "helper").next().is_none());
    assert!(word_positions("$helper", "helper").next().is_none());
    assert!(word_positions("éhelper", "helper").next().is_none());
    assert!(word_positions("é helper", "helper").next().is_some());
}

#[test]
fn barrels_above_a_file() {
    assert!(barrel_above("lib/index.js", "lib/utils.js"));
    assert!(barrel_above("lib/index.ts", "lib/deep/utils.ts"));
    assert!(barrel_above("index.js", "lib/utils.js"));
    assert!(!barrel_above("lib/mime-helpers/index.js", "lib/utils.js"));
    assert!(!barrel_above("lib/utils.js", "lib/utils.js"));
    assert!(!barrel_above("libx/index.js", "lib/utils.js"));
}

#[test]
fn commonjs_exports_read_one_property_at_a_time() {
    let text = "exports = module.exports = create;\nexports.Router = Router;\nmodule.exports.json = parser.json\nif (exports.debug == true) {}\n  exports.nested = 1;\nexports.$x=2\n";
    let names: Vec<&str> = commonjs_exports(text).into_iter().collect();
    assert_eq!(names, ["$x", "Router", "json"]);
    assert!(!exports_otherwise(text));
    assert!(exports_otherwise("module.exports = { Router };\n"));
    assert!(exports_otherwise(
        "Object.assign(module.exports, helpers);\n"
    ));
    assert!(exports_otherwise("export function f() {}\n"));
}

#[test]
fn members_split() {
    assert_eq!(split_member("Util.helper"), (Some("Util"), "helper"));
    assert_eq!(split_member("Level::clone"), (Some("Level"), "clone"));
    assert_eq!(split_member("a::b::Level::clone"), (Some("Level"), "clone"));
    assert_eq!(split_member("helper"), (None, "helper"));
}

#[test]
fn python_modules_that_may_hold_a_definition() {
    // click 8.5.1: `termui.py` and its implementation module `_termui_impl.py`.
    assert!(python_module_may_hold(".termui", "src/click/termui.py"));
    assert!(!python_module_may_hold(
        "._termui_impl",
        "src/click/termui.py"
    ));
    assert!(!python_module_may_hold(
        "click._termui_impl",
        "src/click/termui.py"
    ));
    // Packages above the file may re-export it (`from attr import has`, `from . import x`).
    assert!(python_module_may_hold("attr", "src/attr/_funcs.py"));
    assert!(python_module_may_hold(".", "src/attr/_funcs.py"));
    assert!(python_module_may_hold(
        "humanize.number",
        "src/humanize/number.py"
    ));
    assert!(!python_module_may_hold(
        "humanize.time",
        "src/humanize/number.py"
    ));
}

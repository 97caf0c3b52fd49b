//! The requirements a `setup.py` declares, read from its syntax tree (it is code and is never
//! executed): the literal values of `install_requires`, `extras_require`, `tests_require` and
//! `setup_requires`, given as keyword arguments (`setup(install_requires=[...])`,
//! `dict(install_requires=...)`) or dictionary keys (`{"install_requires": [...]}`).
//!
//! A value may be a list, tuple or set of strings, a dictionary of such lists (extras), a `+`
//! of them, or a module-level name bound to any of these (`requires = [...]` then
//! `install_requires=requires`, extended by `requires += [...]` or `requires.append("x")`).
//! Anything computed (a file read, a comprehension) is left out: fewer names, never invented
//! ones.

use tree_sitter::Node;

use crate::Language;
use crate::ts::{self, named_kids, text};

/// The keys whose values are requirement lists.
const KEYS: [&str; 4] = [
    "install_requires",
    "extras_require",
    "tests_require",
    "setup_requires",
];

/// How deep names may refer to names (`a = b + c`, `b = [...]`).
const MAX_DEPTH: usize = 8;

/// The requirement strings (`"urllib3>=1.21.1,<3"`) `source`, a `setup.py`, declares, in
/// source order; `None` when it could not be parsed in time.
pub(crate) fn requirements(source: &str) -> Option<Vec<String>> {
    let tree = ts::parse(Language::Python, source)?;
    let root = tree.root_node();
    let module = ModuleNames::of(root, source);
    let mut out = Vec::new();
    ts::preorder(root, |node| {
        if let Some(value) = requirement_value(node, source) {
            module.strings(value, 0, &mut out);
        }
    });
    Some(out)
}

/// The value of `node` when it is `install_requires=<value>` (a keyword argument) or
/// `"install_requires": <value>` (a dictionary pair) for one of [`KEYS`].
fn requirement_value<'t>(node: Node<'t>, src: &str) -> Option<Node<'t>> {
    let key = match node.kind() {
        "keyword_argument" => text(node.child_by_field_name("name")?, src),
        "pair" => string_value(node.child_by_field_name("key")?, src)?,
        _ => return None,
    };
    KEYS.contains(&key)
        .then(|| node.child_by_field_name("value"))
        .flatten()
}

/// The text of a plain string literal, without prefix and quotes; `None` for an f-string or
/// a string with interpolations.
fn string_value<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    ts::python_string(node, src).map(|(_, body)| body)
}

/// The module-level bindings a requirement value may name: `name = value`,
/// `name += value`, `name.append(value)`, `name.extend(value)`.
struct ModuleNames<'t, 's> {
    src: &'s str,
    bound: Vec<(&'s str, Node<'t>)>,
}

impl<'t, 's> ModuleNames<'t, 's> {
    fn of(root: Node<'t>, src: &'s str) -> Self {
        let mut bound = Vec::new();
        for statement in named_kids(root) {
            let Some(e) = statement
                .named_child(0)
                .filter(|_| statement.kind() == "expression_statement")
            else {
                continue;
            };
            match e.kind() {
                "assignment" | "augmented_assignment" => {
                    if let (Some(left), Some(right)) = (
                        e.child_by_field_name("left"),
                        e.child_by_field_name("right"),
                    ) && left.kind() == "identifier"
                    {
                        bound.push((text(left, src), right));
                    }
                }
                "call" => {
                    if let Some(f) = e.child_by_field_name("function")
                        && f.kind() == "attribute"
                        && let (Some(object), Some(method)) = (
                            f.child_by_field_name("object"),
                            f.child_by_field_name("attribute"),
                        )
                        && matches!(text(method, src), "append" | "extend")
                        && let Some(args) = e.child_by_field_name("arguments")
                    {
                        for arg in named_kids(args) {
                            bound.push((text(object, src), arg));
                        }
                    }
                }
                _ => {}
            }
        }
        ModuleNames { src, bound }
    }

    /// Appends the strings `value` stands for to `out`.
    fn strings(&self, value: Node<'t>, depth: usize, out: &mut Vec<String>) {
        if depth > MAX_DEPTH {
            return;
        }
        match value.kind() {
            "string" => out.extend(string_value(value, self.src).map(str::to_owned)),
            "list" | "tuple" | "set" | "parenthesized_expression" => {
                for item in named_kids(value) {
                    self.strings(item, depth + 1, out);
                }
            }
            // Extras: the values are lists; the keys name extras, not distributions.
            "dictionary" => {
                for pair in named_kids(value).into_iter().filter(|p| p.kind() == "pair") {
                    if let Some(v) = pair.child_by_field_name("value") {
                        self.strings(v, depth + 1, out);
                    }
                }
            }
            "binary_operator" => {
                for side in ["left", "right"] {
                    if let Some(s) = value.child_by_field_name(side) {
                        self.strings(s, depth + 1, out);
                    }
                }
            }
            // `dict(socks=[...], security=[...])`, `list([...])`.
            "call" => {
                let callee = value
                    .child_by_field_name("function")
                    .map(|f| text(f, self.src));
                if matches!(callee, Some("dict" | "list" | "tuple" | "set"))
                    && let Some(args) = value.child_by_field_name("arguments")
                {
                    for arg in named_kids(args) {
                        let arg = match arg.kind() {
                            "keyword_argument" => arg.child_by_field_name("value"),
                            _ => Some(arg),
                        };
                        if let Some(arg) = arg {
                            self.strings(arg, depth + 1, out);
                        }
                    }
                }
            }
            "identifier" => {
                let name = text(value, self.src);
                for &(_, bound) in self.bound.iter().filter(|(n, _)| *n == name) {
                    self.strings(bound, depth + 1, out);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::requirements;

    #[test]
    fn literal_lists_names_and_extras() {
        // psf/requests' setup.py: the list is bound to a name first.
        let src = r#"
import sys
from setuptools import setup

requires = [
    "charset_normalizer>=2,<4",
    "idna>=2.5,<4",
    "urllib3>=1.21.1,<3",
]
requires.append("certifi>=2017.4.17")
test_requirements = ["pytest-httpbin==2.1.0", "pytest>=3"] + ["trustme"]

setup(
    name="requests",
    packages=["requests"],
    install_requires=requires,
    extras_require={
        "socks": ["PySocks>=1.5.6, !=1.5.7"],
        "use_chardet_on_py3": ["chardet>=3.0.2,<6"],
    },
    tests_require=test_requirements,
)
"#;
        assert_eq!(
            requirements(src).unwrap(),
            [
                "charset_normalizer>=2,<4",
                "idna>=2.5,<4",
                "urllib3>=1.21.1,<3",
                "certifi>=2017.4.17",
                "PySocks>=1.5.6, !=1.5.7",
                "chardet>=3.0.2,<6",
                "pytest-httpbin==2.1.0",
                "pytest>=3",
                "trustme",
            ]
        );
    }

    #[test]
    fn keyword_dicts_brackets_in_strings_and_computed_values() {
        let src = r#"
kwargs = {"install_requires": ("requests[socks]>=2", 'click')}
extras = dict(dev=["black"], docs=list(["sphinx"]))
setup(extras_require=extras, setup_requires=[l.strip() for l in open("r.txt")], **kwargs)
"#;
        assert_eq!(
            requirements(src).unwrap(),
            ["requests[socks]>=2", "click", "black", "sphinx"]
        );
        let src = "setup(name='x', packages=['x'], description='install_requires')\n";
        assert!(requirements(src).unwrap().is_empty());
    }
}

//! Definitions of Ruby (classes, modules and methods: `Class#method`, `Class.method`) and Bash
//! (functions).

use tree_sitter::Node;

use super::{Defs, MAX_NEST, qualify};
use crate::DefKind;
use crate::ts::named_kids;

impl Defs<'_> {
    // ---------------------------------------------------------------- Ruby

    /// A method of the class `prefix` itself (`def self.f`, or `def f` in `class << self`):
    /// `Prefix.f`, `self.f` at the top level.
    fn ruby_class_method(&mut self, method: Node<'_>, prefix: &str) {
        if let Some(name) = self.field_text(method, "name") {
            let full = if prefix.is_empty() {
                format!("self.{name}")
            } else {
                format!("{prefix}.{name}")
            };
            self.push(full, name, DefKind::Function, method);
        }
    }

    pub(super) fn ruby_items(&mut self, container: Node<'_>, prefix: &str, nest: usize) {
        if nest > MAX_NEST {
            return;
        }
        for c in named_kids(container) {
            match c.kind() {
                "method" => {
                    if let Some(name) = self.field_text(c, "name") {
                        self.push(qualify(prefix, "#", name), name, DefKind::Function, c);
                    }
                }
                "singleton_method" => self.ruby_class_method(c, prefix),
                "singleton_class" => {
                    // `class << self`: its methods are the enclosing class's own.
                    for body in named_kids(c)
                        .into_iter()
                        .filter(|b| b.kind() == "body_statement")
                    {
                        for m in named_kids(body)
                            .into_iter()
                            .filter(|m| m.kind() == "method")
                        {
                            self.ruby_class_method(m, prefix);
                        }
                    }
                }
                "class" | "module" => {
                    let kind = if c.kind() == "class" {
                        DefKind::Class
                    } else {
                        DefKind::Module
                    };
                    let Some(name) = self.field_text(c, "name") else {
                        continue;
                    };
                    let full = qualify(prefix, "::", name);
                    let simple = name.rsplit("::").next().unwrap_or(name);
                    self.push(full.clone(), simple, kind, c);
                    for b in named_kids(c) {
                        if matches!(b.kind(), "body_statement") {
                            self.ruby_items(b, &full, nest + 1);
                        }
                    }
                    if let Some(b) = c.child_by_field_name("body")
                        && b.kind() != "body_statement"
                    {
                        self.ruby_items(b, &full, nest + 1);
                    }
                }
                "assignment" => {
                    if let Some(left) = c.child_by_field_name("left")
                        && left.kind() == "constant"
                    {
                        let name = self.text(left);
                        self.push(qualify(prefix, "::", name), name, DefKind::Const, c);
                    }
                }
                _ => {}
            }
        }
    }

    // ---------------------------------------------------------------- Bash

    pub(super) fn bash_items(&mut self, container: Node<'_>, nest: usize) {
        if nest > 6 {
            return;
        }
        for c in named_kids(container) {
            match c.kind() {
                "function_definition" => {
                    if let Some(name) = self.field_text(c, "name") {
                        self.push(name.to_owned(), name, DefKind::Function, c);
                    }
                }
                "if_statement" | "elif_clause" | "else_clause" | "compound_statement" | "list" => {
                    self.bash_items(c, nest + 1)
                }
                _ => {}
            }
        }
    }
}

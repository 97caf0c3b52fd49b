//! G12 config-grounding: JS/TS tool configs that reference npm packages the repository does not
//! declare.
//!
//! Only files whose base name is in a closed set of well-known config files are checked (see
//! [`is_config_file`]). Three extractors collect references: `require('x')`, ESM `import` (static
//! and dynamic), and string entries of `plugins` / `presets` / `extends` / `parser` (the PR #21
//! shape: `plugins: ['prettier-plugin-tailwindcss']`). Each reference is normalised
//! (`@scope/pkg/sub` -> `@scope/pkg`, `lodash/fp` -> `lodash`); Node built-ins (with or without
//! `node:`), relative and absolute paths, aliases and virtual modules are skipped. Tool naming
//! conventions are honoured: ESLint `plugins: ['react']` is `eslint-plugin-react`, Babel
//! `presets: ['@babel/env']` is `@babel/preset-env`.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;
use slopguard_fingerprint::Fingerprint;

use crate::data;

/// The config base names G12 checks (47 + JSON variants of the same tools).
pub const CONFIG_BASENAMES: &[&str] = &[
    "prettier.config.js",
    "prettier.config.cjs",
    "prettier.config.mjs",
    "prettier.config.ts",
    ".prettierrc.js",
    ".prettierrc.cjs",
    ".prettierrc.mjs",
    ".prettierrc",
    ".prettierrc.json",
    "eslint.config.js",
    "eslint.config.cjs",
    "eslint.config.mjs",
    "eslint.config.ts",
    ".eslintrc.js",
    ".eslintrc.cjs",
    ".eslintrc",
    ".eslintrc.json",
    "tailwind.config.js",
    "tailwind.config.cjs",
    "tailwind.config.mjs",
    "tailwind.config.ts",
    "vite.config.js",
    "vite.config.mjs",
    "vite.config.ts",
    "vite.config.mts",
    "vitest.config.js",
    "vitest.config.ts",
    "vitest.config.mts",
    "webpack.config.js",
    "webpack.config.cjs",
    "webpack.config.ts",
    "jest.config.js",
    "jest.config.cjs",
    "jest.config.mjs",
    "jest.config.ts",
    "playwright.config.js",
    "playwright.config.ts",
    "next.config.js",
    "next.config.mjs",
    "next.config.ts",
    "nuxt.config.js",
    "nuxt.config.ts",
    "astro.config.mjs",
    "astro.config.js",
    "astro.config.ts",
    "svelte.config.js",
    "svelte.config.mjs",
    "postcss.config.js",
    "postcss.config.cjs",
    "postcss.config.mjs",
    "postcss.config.ts",
    "babel.config.js",
    "babel.config.cjs",
    "babel.config.json",
    ".babelrc",
    ".babelrc.js",
    ".babelrc.json",
    "rollup.config.js",
    "rollup.config.mjs",
    "rollup.config.ts",
    "stylelint.config.js",
    ".stylelintrc.js",
    ".stylelintrc.json",
    "commitlint.config.js",
    "commitlint.config.ts",
    ".vitepress/config.js",
    ".vitepress/config.mts",
    ".vitepress/config.ts",
    "docusaurus.config.js",
    "docusaurus.config.ts",
    "tsup.config.ts",
    "vue.config.js",
    "karma.conf.js",
    "gatsby-config.js",
    "gatsby-config.ts",
];

/// True when `path` is a config file G12 checks.
pub fn is_config_file(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    CONFIG_BASENAMES.contains(&base)
        || CONFIG_BASENAMES
            .iter()
            .any(|c| c.contains('/') && (path == *c || path.ends_with(&format!("/{c}"))))
}

/// Which tool a config belongs to (for plugin naming conventions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Eslint,
    Babel,
    Prettier,
    Postcss,
    Stylelint,
    Other,
}

fn tool_of(path: &str) -> Tool {
    let base = path.rsplit('/').next().unwrap_or(path);
    if base.contains("eslint") {
        Tool::Eslint
    } else if base.contains("babel") {
        Tool::Babel
    } else if base.contains("prettier") {
        Tool::Prettier
    } else if base.contains("postcss") {
        Tool::Postcss
    } else if base.contains("stylelint") {
        Tool::Stylelint
    } else {
        Tool::Other
    }
}

/// A package reference found in a config file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PackageRef {
    /// The reference as written.
    pub raw: String,
    /// Normalised package name (`@scope/pkg`, `lodash`).
    pub package: String,
    /// 1-based line.
    pub line: u32,
    /// How it was referenced: "require", "import", "plugins", "presets", "extends", "parser".
    pub via: &'static str,
}

fn re(cell: &'static OnceLock<Regex>, src: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(src).expect("static regex"))
}

/// `@scope/pkg/sub` -> `@scope/pkg`; `lodash/fp` -> `lodash`; `pkg@1.2` -> `pkg`. `None` for
/// paths, URLs, aliases, virtual modules and anything that cannot be an npm name.
pub fn normalize_npm(spec: &str) -> Option<String> {
    let spec = spec.trim();
    if spec.is_empty()
        || spec.starts_with(['.', '/', '~', '#', '$', '\\'])
        || spec.starts_with("@/")
        || spec.contains(':')
        || spec.contains(char::is_whitespace)
        || spec.contains(['*', '{', '<', '$'])
    {
        return None;
    }
    let spec = spec.split(['?', '!']).next().unwrap_or(spec);
    let mut parts = spec.split('/');
    let first = parts.next()?;
    let name = if let Some(scope) = first.strip_prefix('@') {
        let pkg = parts.next()?;
        if scope.is_empty() || pkg.is_empty() {
            return None;
        }
        format!("@{scope}/{}", pkg.split('@').next().unwrap_or(pkg))
    } else {
        first.split('@').next().unwrap_or(first).to_string()
    };
    let valid = name
        .trim_start_matches('@')
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-._/".contains(c));
    (valid && !name.is_empty() && name.len() <= 214).then_some(name)
}

/// True for Node built-ins (`fs`, `node:fs`, `fs/promises`, `node:test`).
pub fn is_node_builtin(spec: &str) -> bool {
    let s = spec.strip_prefix("node:").unwrap_or(spec);
    let top = s.split('/').next().unwrap_or(s);
    data::node_builtins().contains(s) || data::node_builtins().contains(top)
}

fn line_of(text: &str, offset: usize) -> u32 {
    text[..offset].matches('\n').count() as u32 + 1
}

/// String literals at the top nesting level of the array/value starting at `start` (just after
/// `[`), skipping anything inside `{...}` (option objects). For `[['plugin', {...}]]` the first
/// string of each inner array is taken.
fn array_strings(text: &str, start: usize) -> Vec<(usize, String)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut depth_sq = 1i32;
    let mut depth_br = 0i32;
    let mut i = start;
    let mut inner_taken = false;
    while i < b.len() && depth_sq > 0 {
        match b[i] {
            b'[' => {
                depth_sq += 1;
                inner_taken = false;
            }
            b']' => depth_sq -= 1,
            b'{' => depth_br += 1,
            b'}' => depth_br -= 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            q @ (b'"' | b'\'' | b'`') => {
                let Some(len) = text[i + 1..].find(q as char) else {
                    break;
                };
                let s = &text[i + 1..i + 1 + len];
                let take = depth_br == 0 && (depth_sq == 1 || !inner_taken);
                if take {
                    out.push((i + 1, s.to_string()));
                    if depth_sq > 1 {
                        inner_taken = true;
                    }
                }
                i += len + 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Keys of the object starting at `start` (just after `{`) at depth 1 (postcss `plugins: {
/// tailwindcss: {}, autoprefixer: {} }`).
fn object_keys(text: &str, start: usize) -> Vec<(usize, String)> {
    static KEY: OnceLock<Regex> = OnceLock::new();
    let key = re(
        &KEY,
        r#"^\s*(?:"([^"]+)"|'([^']+)'|([A-Za-z_$][\w$-]*))\s*:"#,
    );
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 1i32;
    let mut i = start;
    let mut expect_key = true;
    while i < b.len() && depth > 0 {
        if depth == 1
            && expect_key
            && let Some(c) = key.captures(&text[i..])
        {
            let m = c
                .get(1)
                .or(c.get(2))
                .or(c.get(3))
                .expect("one group matches");
            out.push((i + m.start(), m.as_str().to_string()));
            expect_key = false;
            i += c.get(0).map_or(1, |m| m.end());
            continue;
        }
        match b[i] {
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' => depth -= 1,
            b',' if depth == 1 => expect_key = true,
            q @ (b'"' | b'\'' | b'`') => {
                if let Some(len) = text[i + 1..].find(q as char) {
                    i += len + 2;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The parsers Prettier ships (its `parser` option), as of Prettier 3.
const PRETTIER_PARSERS: &[&str] = &[
    "babel",
    "babel-flow",
    "babel-ts",
    "flow",
    "typescript",
    "espree",
    "meriyah",
    "acorn",
    "css",
    "less",
    "scss",
    "json",
    "json5",
    "jsonc",
    "json-stringify",
    "graphql",
    "markdown",
    "mdx",
    "vue",
    "yaml",
    "glimmer",
    "html",
    "angular",
    "lwc",
];

/// Extracts every package reference of a config file's text.
pub fn extract(path: &str, text: &str) -> Vec<PackageRef> {
    static REQUIRE: OnceLock<Regex> = OnceLock::new();
    static IMPORT: OnceLock<Regex> = OnceLock::new();
    static KEYED: OnceLock<Regex> = OnceLock::new();
    let require = re(
        &REQUIRE,
        r#"\brequire(?:\.resolve)?\s*\(\s*["'`]([^"'`]+)["'`]\s*\)"#,
    );
    let import = re(
        &IMPORT,
        r#"(?m)(?:^\s*import\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?|\bimport\s*\(\s*|^\s*export\s+[\w*{}\s,$]+\s+from\s+)["']([^"']+)["']"#,
    );
    let keyed = re(
        &KEYED,
        r#"["']?\b(plugins|presets|extends|parser)["']?\s*[:=]\s*([\[{"'])"#,
    );
    let tool = tool_of(path);
    let mut refs = Vec::new();
    let push = |raw: &str, off: usize, via: &'static str, refs: &mut Vec<PackageRef>| {
        if is_node_builtin(raw) {
            return;
        }
        if let Some(package) = normalize_npm(raw) {
            refs.push(PackageRef {
                raw: raw.to_string(),
                package,
                line: line_of(text, off),
                via,
            });
        }
    };
    for c in require.captures_iter(text) {
        let m = c.get(1).expect("group");
        push(m.as_str(), m.start(), "require", &mut refs);
    }
    for c in import.captures_iter(text) {
        let m = c.get(1).expect("group");
        push(m.as_str(), m.start(), "import", &mut refs);
    }
    for c in keyed.captures_iter(text) {
        let key = c.get(1).expect("group").as_str();
        let open = c.get(2).expect("group");
        let via: &'static str = match key {
            "plugins" => "plugins",
            "presets" => "presets",
            "extends" => "extends",
            _ => "parser",
        };
        let items: Vec<(usize, String)> = match open.as_str() {
            "[" => array_strings(text, open.end()),
            "{" if via == "plugins" && tool == Tool::Postcss => object_keys(text, open.end()),
            "{" => Vec::new(),
            q => {
                let rest = &text[open.end()..];
                rest.find(q)
                    .map(|end| vec![(open.end(), rest[..end].to_string())])
                    .unwrap_or_default()
            }
        };
        for (off, s) in items {
            // Prettier's `parser` names one of its own parsers (`parser: 'jsonc'` in an
            // override for `*.json` files), not a package.
            if tool == Tool::Prettier && via == "parser" && PRETTIER_PARSERS.contains(&s.as_str()) {
                continue;
            }
            // ESLint's "plugin:react/recommended" and "eslint:recommended" name plugins/configs.
            let s = match s.strip_prefix("plugin:") {
                Some(rest) => rest.split('/').next().unwrap_or(rest).to_string(),
                None => s,
            };
            push(&s, off, via, &mut refs);
        }
    }
    refs.sort_by_key(|r| r.line);
    refs
}

/// Package names a reference may resolve to under the tool's naming conventions.
fn candidates(path: &str, r: &PackageRef) -> Vec<String> {
    let p = r.package.as_str();
    let mut out = vec![p.to_string()];
    let tool = tool_of(path);
    let prefixes: &[&str] = match (tool, r.via) {
        (Tool::Eslint, "plugins") => &["eslint-plugin-"],
        (Tool::Eslint, "extends") => &["eslint-config-", "eslint-plugin-"],
        (Tool::Babel, "plugins") => &["babel-plugin-"],
        (Tool::Babel, "presets") => &["babel-preset-"],
        (Tool::Prettier, "plugins") => &["prettier-plugin-"],
        (Tool::Stylelint, "extends") => &["stylelint-config-"],
        (Tool::Stylelint, "plugins") => &["stylelint-"],
        _ => &[],
    };
    let babel_kind = match r.via {
        "presets" => "preset",
        _ => "plugin",
    };
    for pre in prefixes {
        if let Some(rest) = p.strip_prefix('@') {
            let (scope, name) = rest.split_once('/').unwrap_or((rest, ""));
            if name.is_empty() {
                out.push(format!("@{scope}/{}", pre.trim_end_matches('-')));
            } else {
                out.push(format!("@{scope}/{pre}{name}"));
                if tool == Tool::Babel {
                    out.push(format!("@{scope}/{babel_kind}-{name}"));
                }
            }
        } else {
            out.push(format!("{pre}{p}"));
        }
    }
    // `@scope` alone (eslint plugins "@typescript-eslint") -> "@scope/eslint-plugin".
    if tool == Tool::Eslint && p.starts_with('@') && !p.contains('/') {
        out.push(format!("{p}/eslint-plugin"));
    }
    out
}

/// A reference that no declared package satisfies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UndeclaredPackage {
    /// The reference.
    pub reference: PackageRef,
    /// The package names that would have satisfied it.
    pub expected_one_of: Vec<String>,
}

/// G12: references in `after` (not already in `before`) to packages absent from the
/// fingerprint's npm dependencies. Silent when the tree has no `package.json` at all (a pure
/// Rust/Python/Go repository shipping a config file gets a free pass) or the file is not a
/// known config.
pub fn check(
    path: &str,
    before: Option<&str>,
    after: &str,
    fp: &Fingerprint,
) -> Vec<UndeclaredPackage> {
    if !is_config_file(path) || !fp.has_ecosystem("npm") {
        return Vec::new();
    }
    let old: BTreeSet<String> = before
        .map(|b| extract(path, b).into_iter().map(|r| r.package).collect())
        .unwrap_or_default();
    let declared: BTreeSet<&str> = fp
        .deps("npm")
        .iter()
        .chain(fp.local_packages.iter())
        .map(String::as_str)
        .collect();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for r in extract(path, after) {
        if old.contains(&r.package) || !seen.insert(r.package.clone()) {
            continue;
        }
        // ESLint's own configs and the tool itself.
        if r.package == "eslint" || r.raw.starts_with("eslint:") {
            continue;
        }
        let cands = candidates(path, &r);
        if cands.iter().any(|c| declared.contains(c.as_str())) {
            continue;
        }
        out.push(UndeclaredPackage {
            reference: r,
            expected_one_of: cands,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use slopguard_fingerprint::{MemorySource, compute_from};

    fn vitepress() -> Fingerprint {
        compute_from(&MemorySource::new().with(
            "package.json",
            r#"{"name":"b2v-docs","devDependencies":{"vitepress":"1","@babel/preset-env":"7","eslint-plugin-react":"7","@typescript-eslint/eslint-plugin":"8","lodash":"4"}}"#,
        ))
    }

    #[test]
    fn prettier_plugin_not_declared() {
        let text =
            "module.exports = {\n  semi: false,\n  plugins: ['prettier-plugin-tailwindcss'],\n};\n";
        let v = check("prettier.config.js", None, text, &vitepress());
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].reference.package, "prettier-plugin-tailwindcss");
        assert_eq!(v[0].reference.line, 3);
    }

    #[test]
    fn prettier_builtin_parser_is_no_package() {
        // tj/commander.js's .prettierrc.js.
        let text = "const config = {\n  singleQuote: true,\n  overrides: [\n    {\n      files: ['tsconfig*.json'],\n      options: { parser: 'jsonc' },\n    },\n  ],\n};\n";
        assert!(check(".prettierrc.js", None, text, &vitepress()).is_empty());
        // A parser that is a package still needs declaring.
        let text = "module.exports = { parser: 'prettier-plugin-foo-parser' };\n";
        assert_eq!(check(".prettierrc.js", None, text, &vitepress()).len(), 1);
    }

    #[test]
    fn declared_builtin_relative_and_conventions_pass() {
        let text = r#"
import { defineConfig } from 'vitepress'
import path from 'node:path'
import fs from "fs/promises"
const local = require('./local.js')
const fp = require('lodash/fp')
export default defineConfig({})
"#;
        assert!(check(".vitepress/config.ts", None, text, &vitepress()).is_empty());
        let eslint = r#"{"plugins": ["react", "@typescript-eslint"], "extends": ["eslint:recommended", "plugin:react/recommended"]}"#;
        assert!(check(".eslintrc.json", None, eslint, &vitepress()).is_empty());
        let babel = r#"{"presets": [["@babel/env", {"targets": "defaults"}]]}"#;
        assert!(check(".babelrc", None, babel, &vitepress()).is_empty());
    }

    #[test]
    fn no_package_json_is_a_free_pass() {
        let fp = compute_from(&MemorySource::new().with("Cargo.toml", "[package]\nname=\"x\"\n"));
        let text = "module.exports = { plugins: ['prettier-plugin-tailwindcss'] }";
        assert!(check("prettier.config.js", None, text, &fp).is_empty());
        assert!(check("src/app.js", None, text, &vitepress()).is_empty());
    }

    #[test]
    fn carry_over_is_exempt_and_postcss_keys_checked() {
        let text = "module.exports = { plugins: { tailwindcss: {}, autoprefixer: {} } }";
        let v = check("postcss.config.js", None, text, &vitepress());
        assert_eq!(v.len(), 2);
        assert!(check("postcss.config.js", Some(text), text, &vitepress()).is_empty());
    }

    #[test]
    fn normalisation() {
        assert_eq!(
            normalize_npm("@scope/pkg/sub").as_deref(),
            Some("@scope/pkg")
        );
        assert_eq!(normalize_npm("lodash/fp").as_deref(), Some("lodash"));
        assert_eq!(normalize_npm("./x"), None);
        assert_eq!(normalize_npm("virtual:pwa"), None);
        assert!(
            is_node_builtin("node:fs")
                && is_node_builtin("fs/promises")
                && !is_node_builtin("lodash")
        );
    }
}

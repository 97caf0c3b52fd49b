//! Where a removed definition is still used: its own file after the change, then every file
//! that mentions its name, through the language's scopes where they are known (imports from
//! the definition's module, references no local binding captures) and a word search otherwise.

use super::*;

/// The first line of `text` that uses `r` (1-based), skipping comments, strings, bindings,
/// Rust macro invocations and qualified uses through an unrelated qualifier; with `bare`
/// false, only qualified uses count (the scope resolution finds the bare ones).
pub(super) fn first_use(text: &str, r: &Removed<'_>, same_file: bool, bare: bool) -> Option<u32> {
    let is_macro = r.def.kind == DefKind::Macro;
    for (i, line) in text.lines().enumerate() {
        if is_comment_line(r.lang, line)
            || (same_file && (binds(line, r.rname) || is_import_line(line)))
        {
            continue;
        }
        for p in word_positions(line, r.rname) {
            if in_string(line, p) {
                continue;
            }
            let after = &line[p + r.rname.len()..];
            if r.lang == Language::Rust && after.starts_with('!') != is_macro {
                continue;
            }
            let before = &line[..p];
            let sep = ["::", "?.", "->", "."]
                .into_iter()
                .find(|s| before.ends_with(s));
            match sep {
                Some(sep) => {
                    let q = before[..before.len() - sep.len()]
                        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .next()
                        .unwrap_or("");
                    // `self.x` / `Self::x` may reach an inherited or renamed owner's member: only
                    // the module, package or owner's own name proves the removed one is meant.
                    // Rust paths are case-sensitive: `Body::empty()` does not go through the
                    // module `body`. Other qualifiers may be an instance named after its type.
                    let mine = if r.lang == Language::Rust && sep == "::" {
                        r.qualifiers.iter().any(|x| x == q)
                    } else {
                        r.qualifiers.iter().any(|x| x.eq_ignore_ascii_case(q))
                    };
                    if mine {
                        return Some(i as u32 + 1);
                    }
                }
                None if r.owner.is_none() && bare => return Some(i as u32 + 1),
                None => {}
            }
        }
    }
    None
}

/// Qualifiers through which other code names what `path` defines: the module (file stem),
/// its directory (Go packages, Python packages) and, for members, the owner.
pub(super) fn qualifiers(path: &str, owner: Option<&str>) -> Vec<String> {
    // A member is reached through its owner (or an instance named after it), never through
    // the module: `tag.tag(value)` in flask's `json/tag.py` calls a `tag` object's method,
    // `repotest.WithMiddleware(...)` a package function, not `Server.WithMiddleware`.
    if let Some(o) = owner {
        return vec![o.to_string()];
    }
    let mut q = Vec::new();
    let mut parts = path.rsplit('/');
    if let Some(file) = parts.next() {
        let stem = file.split('.').next().unwrap_or(file);
        // A package's own file is named by its directory, not its stem (`__init__.py`,
        // `mod.rs`, `lib.rs`, `index.js`); a Python module `lib.py` is still `lib`.
        let ext = file.rsplit_once('.').map_or("", |(_, e)| e);
        let package_file = match stem {
            "__init__" => ext == "py",
            "mod" | "lib" => ext == "rs",
            "index" => matches!(
                ext,
                "js" | "jsx" | "ts" | "tsx" | "mjs" | "cjs" | "mts" | "cts"
            ),
            _ => false,
        };
        if !package_file {
            q.push(stem.to_string());
        }
    }
    if let Some(dir) = parts.next() {
        q.push(dir.to_string());
    }
    q
}

/// The first line of `text` (a file of language `lang` at `path`, where the name resolves as
/// `u` says) where a use resolves to the dropped free definition `r`. Uses are the references
/// no local binding captures, imports of the name from the definition's own module, and (for
/// a pytest fixture) test parameters of its name; qualified uses come from the word search,
/// in Python from the code tokens of `source` (the file's parse, when held): a docstring's
/// `module.name` is no use.
pub(super) fn scoped_use(
    u: &NameUses,
    (text, source): (&str, Option<&ParsedSource>),
    lang: Language,
    path: &str,
    r: &Removed<'_>,
) -> Option<u32> {
    let same_file = path == r.path;
    let imports = imports_from_its_module(u, lang, path, r);
    if !same_file && !u.imports.is_empty() && imports.is_empty() {
        return None;
    }
    // Go resolves bare names within the package (the directory) only.
    fn dir(p: &str) -> &str {
        p.rsplit_once('/').map_or("", |(d, _)| d)
    }
    let bare_reaches = same_file
        || (lang != Language::Go && !r.es_module)
        || (lang == Language::Go && dir(path) == dir(r.path));
    let mut lines: Vec<u32> = imports;
    if bare_reaches {
        let text_lines: Vec<&str> = text.lines().collect();
        lines.extend(u.free_uses.iter().filter(|l| {
            lang != Language::Rust
                || text_lines
                    .get((**l as usize).saturating_sub(1))
                    .is_none_or(|t| rust_line_can_use(t, r))
        }));
    }
    if r.fixture {
        lines.extend(&u.fixture_params);
    }
    lines.extend(match (lang, source) {
        (Language::Python, Some(source)) => python_qualified_use(source, r),
        _ => first_use(text, r, same_file, false),
    });
    lines.into_iter().min()
}

/// The lines of a file (`path`, of language `lang`) that import `r`'s name from `r`'s own
/// module. Imports of the name from another module are a namesake's. A relative JS/TS
/// specifier resolves to files: it is the definition's when one of them is the definition's
/// file, or an `index` above it that may re-export it (`require('./mime-helpers')` is not
/// `lib/utils.js`; `'./lib'` may be).
pub(super) fn imports_from_its_module(
    u: &NameUses,
    lang: Language,
    path: &str,
    r: &Removed<'_>,
) -> Vec<u32> {
    let script = family(lang) == family(Language::JavaScript);
    let relative = |m: &str| m.starts_with('.') || matches!(m, "self" | "super" | "crate");
    let mine = |m: &str| {
        if lang == Language::Python {
            return python_module_may_hold(m, r.path);
        }
        if script && m.starts_with('.') {
            return crate::guards::dangling_import::script_import_targets(path, m)
                .iter()
                .any(|t| t == r.path || barrel_above(t, r.path));
        }
        relative(m)
            || m.split(['.', ':', '/'])
                .filter(|s| !s.is_empty())
                .any(|seg| r.qualifiers.iter().any(|q| q.eq_ignore_ascii_case(seg)))
    };
    u.imports
        .iter()
        .filter(|(_, m)| mine(m))
        .map(|(l, _)| *l)
        .collect()
}

/// Whether the Python module `m` of an import (`._termui_impl`, `humanize.number`, `.`) may
/// hold what the file at `path` defines: its last part names that file (`number` for
/// `src/humanize/number.py`) or a package the file lies in (`attr`, `.`: an `__init__.py` that
/// may re-export it). `from ._termui_impl import get_pager_file` is not an import of
/// `termui.py`'s `get_pager_file`.
pub(super) fn python_module_may_hold(m: &str, path: &str) -> bool {
    let last = m.rsplit('.').next().unwrap_or("");
    if last.is_empty() {
        return true;
    }
    let mut parts = path.rsplit('/');
    let stem = parts.next().and_then(|f| f.split('.').next()).unwrap_or("");
    last == stem || parts.any(|dir| dir == last)
}

/// The first line of another file (`text`, parsed as `source`) that uses the export `r` a
/// change stopped exporting: an import of the name from its module, or a use qualified by
/// the module's name (`express.Router()`). The file's own bindings of the name do not hide
/// such uses: `var Router = express.Router` is one.
pub(super) fn export_use(
    source: &ParsedSource,
    text: &str,
    lang: Language,
    path: &str,
    r: &Removed<'_>,
) -> Option<u32> {
    let imports = source
        .names_uses(&[r.rname])
        .and_then(|v| v.into_iter().next())
        .map(|u| imports_from_its_module(&u, lang, path, r))
        .unwrap_or_default();
    imports
        .into_iter()
        .chain(first_use(text, r, false, false))
        .min()
}

/// The names `text` (a JS/TS file) exports by CommonJS property assignment at the start of a
/// line: `exports.name = ...`, `module.exports.name = ...`.
pub(super) fn commonjs_exports(text: &str) -> BTreeSet<&str> {
    text.lines()
        .filter_map(|l| {
            let rest = l
                .strip_prefix("module.")
                .unwrap_or(l)
                .strip_prefix("exports.")?;
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .unwrap_or(rest.len());
            let (name, tail) = rest.split_at(end);
            let tail = tail.trim_start();
            (!name.is_empty() && tail.starts_with('=') && !tail.starts_with("==")).then_some(name)
        })
        .collect()
}

/// Whether `def` is a CommonJS export: its first line (of `lines`, its file) assigns
/// `exports.<its name>`.
pub(super) fn is_commonjs_export(lines: &[&str], def: &Definition) -> bool {
    lines
        .get((def.start_line as usize).saturating_sub(1))
        .is_some_and(|l| commonjs_exports(l).contains(def.name.as_str()))
}

/// Whether `text` may export names some other way than one property at a time, so that a
/// dropped `exports.name = ...` line may be exported still: a whole `module.exports = ...`
/// object, `Object.assign(exports, ...)`, `Object.defineProperty(exports, ...)` or an ESM
/// `export`.
pub(super) fn exports_otherwise(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_start();
        t.starts_with("module.exports =")
            || t.starts_with("module.exports=")
            || t.starts_with("export ")
            || (t.contains("Object.") && (t.contains("(exports") || t.contains("(module.exports")))
    })
}

/// Whether `candidate` is an `index` file (`lib/index.js`) in a directory holding `path`:
/// a barrel that may re-export what `path` defines.
pub(super) fn barrel_above(candidate: &str, path: &str) -> bool {
    let Some((dir, file)) = candidate.rsplit_once('/') else {
        return candidate.starts_with("index.");
    };
    file.starts_with("index.") && path.starts_with(dir) && path[dir.len()..].starts_with('/')
}

/// Whether a Rust line holding a bare reference to `r`'s name can use the dropped item: never
/// an attribute (`#[path = "src/app.rs"]`, `#[doc(hidden)]`); a module only as a path root
/// (`word::f`) or in a `use`; a `macro_rules!` macro only as `name!` (`rgtest!(word, ...)`
/// names a test, not the module `word`).
pub(super) fn rust_line_can_use(line: &str, r: &Removed<'_>) -> bool {
    let t = line.trim_start();
    if t.starts_with("#[") || t.starts_with("#![") {
        return false;
    }
    // Another definition of the name (`pub(crate) enum Either<A, B>` in another module) is
    // no use of this one.
    if defines(line, r.rname) {
        return false;
    }
    let followed_by = |suffix: &str| {
        word_positions(line, r.rname).any(|p| line[p + r.rname.len()..].starts_with(suffix))
    };
    match r.def.kind {
        DefKind::Module => followed_by("::") || t.starts_with("use ") || t.starts_with("pub use "),
        DefKind::Macro => followed_by("!"),
        _ => true,
    }
}

/// A use of a dropped symbol somewhere after the change.
pub(super) struct Use {
    pub(super) path: String,
    pub(super) line: u32,
}

/// Files that only declare (TypeScript declaration files, Python stub files) never count as
/// users, nor as namesakes: attrs' `__init__.pyi` declares `attrib` for type checkers while
/// `__init__.py` imports it from `_make.py`.
pub(super) fn never_a_user(path: &str) -> bool {
    path.ends_with(".d.ts")
        || path.ends_with(".pyi")
        || path.ends_with(".d.mts")
        || path.ends_with(".d.cts")
        || path.ends_with(".min.js")
}

/// Whether `r` is a Rust item of a proc-macro crate (`proc-macro = true` in the nearest
/// `Cargo.toml` above it) that `user` lies outside of: such a crate exports its macros and
/// nothing else, so a namesake in another crate (serde_derive's `deserialize_struct`, serde's
/// `Deserializer::deserialize_struct`) is never a use of it.
pub(super) fn beyond_its_proc_macro_crate(cx: &Context<'_>, r: &Removed<'_>, user: &str) -> bool {
    if r.lang != Language::Rust || r.def.kind == DefKind::Macro {
        return false;
    }
    let mut dir = r.path;
    while let Some(i) = dir.rfind('/') {
        dir = &dir[..i];
        let manifest = format!("{dir}/Cargo.toml");
        if let Some(text) = cx.read_after(&manifest) {
            let proc_macro = String::from_utf8_lossy(&text).lines().any(|l| {
                let t: String = l.chars().filter(|c| !c.is_whitespace()).collect();
                t == "proc-macro=true" || t == "proc_macro=true"
            });
            return proc_macro && !user.starts_with(&format!("{dir}/"));
        }
    }
    false
}

/// The line of the file's own `__all__` that still lists the free Python definition `r`
/// (in its file after the change): the module still exports the name it lost, and
/// `from module import *` fails on it.
fn listed_in_dunder_all(cx: &Context<'_>, r: &Removed<'_>) -> Option<u32> {
    if r.lang != Language::Python || r.owner.is_some() {
        return None;
    }
    let file = cx.file(r.path)?;
    file.after_source()?
        .python_dunder_all()?
        .into_iter()
        .find(|(name, _)| name == r.rname)
        .map(|(_, line)| line)
}

/// The first line of a Python file's code (`source`, without docstrings and comments) that
/// names the free definition `r` through its module: `_termui_impl.pager(...)`,
/// `click._termui_impl.pager`. A docstring's ":func:`click._termui_impl.pager`" is no use.
fn python_qualified_use(source: &ParsedSource, r: &Removed<'_>) -> Option<u32> {
    // Tokens are read only where the text has `.name` at all.
    let text = source.text();
    if !text
        .match_indices(r.rname)
        .any(|(at, _)| text[..at].ends_with('.'))
    {
        return None;
    }
    let tokens = source.code_tokens()?;
    tokens
        .windows(3)
        .find(|w| w[2].1 == r.rname && w[1].1 == "." && r.qualifiers.contains(&w[0].1))
        .map(|w| w[2].0)
}

/// For every removed definition, its uses after the change (same file first). `None` for a
/// definition another file also defines at top level: uses may refer to that one. Scopes
/// narrow that: another Go package's namesake is never what this package's bare names reach,
/// and beside another Python module's namesake only the uses that name this definition's
/// module count (an import from it, `module.name`).
pub(super) fn find_uses(cx: &Context<'_>, removed: &[Removed<'_>]) -> Vec<Option<Vec<Use>>> {
    let mut result: Vec<Option<Vec<Use>>> = removed.iter().map(|_| Some(Vec::new())).collect();
    // The uses that name the definition's module, and whether a Python namesake was seen.
    let mut through_module: Vec<Vec<Use>> = removed.iter().map(|_| Vec::new()).collect();
    let mut python_namesake = vec![false; removed.len()];
    // Same file.
    for (i, r) in removed.iter().enumerate() {
        if r.export_only {
            continue;
        }
        let Some(text) = cx
            .change()
            .get(r.path)
            .and_then(|c| c.after.as_deref())
            .and_then(crate::context::decode_text)
        else {
            continue;
        };
        let line = match &r.scoped {
            Some(u) => {
                let view = cx.file(r.path);
                let source = view.and_then(|v| v.after_source());
                scoped_use(u, (text, source), r.lang, r.path, r)
            }
            None => first_use(text, r, true, true),
        };
        if let Some(line) = line.into_iter().chain(listed_in_dunder_all(cx, r)).min() {
            let at = || Use {
                path: r.path.to_string(),
                line,
            };
            through_module[i].push(at());
            if let Some(v) = result[i].as_mut() {
                v.push(at());
            }
        }
    }
    // Other files: one grep for every name, each candidate read and parsed at most once.
    let words: Vec<String> = removed.iter().map(|r| r.rname.to_string()).collect();
    for path in cx.files_mentioning(&words) {
        if never_a_user(&path) || cx.config().excluded(&path) {
            continue;
        }
        // A file of the change is already held (and parsed at most once) by the context; any
        // other file is read from the base tree and parsed here, only when a name occurs in it.
        let view = cx.file(&path);
        let bytes;
        let (text, kind) = match view {
            Some(v) => (v.after_text(), v.kind()),
            None => {
                bytes = cx.read_after(&path);
                let Some(b) = bytes.as_deref() else {
                    continue;
                };
                (
                    crate::context::decode_text(b),
                    slopguard_lang::detect(&path, &b[..b.len().min(256)]),
                )
            }
        };
        let (Some(text), FileKind::Code(other)) = (text, kind) else {
            continue;
        };
        // The file's parse, shared with every other guard (a file of the change is the view's).
        let owned;
        let source = match view.and_then(|v| v.after_source()) {
            Some(s) => s,
            None => {
                owned = cx.source(other, text);
                &*owned
            }
        };
        // Scope-aware definitions: one resolution of all their names in this file, which also
        // tells whether the file defines a name itself (no definitions pass needed).
        let scoped: Vec<usize> = (0..removed.len())
            .filter(|&i| {
                let r = &removed[i];
                r.scoped.is_some()
                    && path != r.path
                    && family(other) == family(r.lang)
                    && word_positions(text, r.rname).next().is_some()
            })
            .collect();
        let names: Vec<&str> = scoped.iter().map(|&i| removed[i].rname).collect();
        let resolved = match names.is_empty() {
            true => None,
            false => source.names_uses(&names),
        };
        if let Some(resolved) = &resolved {
            for (u, &i) in resolved.iter().zip(&scoped) {
                // A file that binds the name at top level uses its own; when that binding is a
                // definition, uses elsewhere may refer to it too.
                if u.top_level_binding {
                    let r = &removed[i];
                    let other_go_package = r.lang == Language::Go
                        && path.rsplit_once('/').map(|p| p.0)
                            != r.path.rsplit_once('/').map(|p| p.0);
                    if r.es_module || other_go_package {
                        continue;
                    }
                    let a = source.analysis();
                    let rname = removed[i].rname;
                    if a.definitions
                        .iter()
                        .any(|d| reference_name(d) == rname && split_member(&d.name).0.is_none())
                    {
                        match r.lang {
                            Language::Python => python_namesake[i] = true,
                            _ => result[i] = None,
                        }
                    }
                    continue;
                }
                if beyond_its_proc_macro_crate(cx, &removed[i], &path) {
                    continue;
                }
                if let (Some(line), Some(v)) = (
                    scoped_use(u, (text, Some(source)), other, &path, &removed[i]),
                    result[i].as_mut(),
                ) {
                    v.push(Use {
                        path: path.clone(),
                        line,
                    });
                }
                let r = &removed[i];
                if r.lang == Language::Python
                    && let Some(line) = imports_from_its_module(u, other, &path, r)
                        .into_iter()
                        .chain(python_qualified_use(source, r))
                        .min()
                {
                    through_module[i].push(Use {
                        path: path.clone(),
                        line,
                    });
                }
            }
        }
        for (i, r) in removed.iter().enumerate() {
            if path == r.path
                || family(other) != family(r.lang)
                || word_positions(text, r.rname).next().is_none()
                || (resolved.is_some() && scoped.contains(&i))
                || beyond_its_proc_macro_crate(cx, r, &path)
            {
                continue;
            }
            if r.export_only {
                if let (Some(line), Some(v)) = (
                    export_use(source, text, other, &path, r),
                    result[i].as_mut(),
                ) {
                    v.push(Use {
                        path: path.clone(),
                        line,
                    });
                }
                continue;
            }
            let a = source.analysis();
            if a.definitions
                .iter()
                .any(|d| reference_name(d) == r.rname && split_member(&d.name).0 == r.owner)
            {
                result[i] = None;
                continue;
            }
            // The file binds the name itself (a local, a parameter): its uses are its own.
            if text
                .lines()
                .any(|l| !is_import_line(l) && binds(l, r.rname))
            {
                continue;
            }
            if let Some(line) = first_use(text, r, false, true)
                && let Some(v) = result[i].as_mut()
            {
                v.push(Use {
                    path: path.clone(),
                    line,
                });
            }
        }
    }
    for (i, seen) in python_namesake.into_iter().enumerate() {
        if seen && result[i].is_some() {
            result[i] = Some(std::mem::take(&mut through_module[i]));
        }
    }
    result
}

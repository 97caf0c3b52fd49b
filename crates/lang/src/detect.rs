//! File kind detection from the path, well-known names and the shebang line.

use crate::{DataFormat, FileKind, Language};

/// See [`crate::detect`].
pub(crate) fn detect(path: &str, content: &[u8]) -> FileKind {
    let path = path.replace('\\', "/");
    let name = path.rsplit('/').next().unwrap_or(&path);
    let lower = name.to_ascii_lowercase();
    // VS Code reads its settings as JSON with comments, also from a `vscode/` directory of
    // recommended settings to copy (`contrib/ide/vscode/settings.json`).
    let in_vscode = path.split('/').any(|c| c == ".vscode")
        || (path.split('/').any(|c| c == "vscode")
            && matches!(
                lower.as_str(),
                "settings.json"
                    | "launch.json"
                    | "tasks.json"
                    | "extensions.json"
                    | "keybindings.json"
            ));

    // Well-known names first: they win over extensions.
    match lower.as_str() {
        "rakefile" | "gemfile" | "guardfile" | "podfile" | "vagrantfile" | "brewfile"
        | "capfile" | "fastfile" | "appfile" | "dangerfile" | "berksfile" | "thorfile" => {
            return FileKind::Code(Language::Ruby);
        }
        "cargo.lock" | "poetry.lock" | "uv.lock" | "pdm.lock" | "pipfile" | "gopkg.lock" => {
            return FileKind::Data(DataFormat::Toml);
        }
        "setup.cfg" | "tox.ini" | ".editorconfig" | ".gitconfig" | ".gitmodules" | ".pylintrc"
        | "pylintrc" | ".flake8" | ".coveragerc" | "pytest.ini" | "mypy.ini" | ".npmrc"
        | ".pypirc" | ".hgrc" | "hgrc" | ".isort.cfg" | ".bumpversion.cfg" => {
            return FileKind::Data(DataFormat::Ini);
        }
        ".bashrc" | ".bash_profile" | ".bash_logout" | ".profile" | ".bash_aliases" | ".zshrc"
        | "pkgbuild" | "apkbuild" => return FileKind::Code(Language::Bash),
        ".babelrc" | ".eslintrc" | ".jshintrc" | ".swcrc" | "devcontainer.json"
        | ".devcontainer.json" => return FileKind::Data(DataFormat::Jsonc),
        ".prettierrc" | ".stylelintrc" | ".lintstagedrc" => {
            return FileKind::Data(DataFormat::Json);
        }
        _ => {}
    }
    if path.ends_with(".git/config") {
        return FileKind::Data(DataFormat::Ini);
    }

    let ext = match lower.rfind('.') {
        Some(0) | None => "",
        Some(i) => &lower[i + 1..],
    };
    match ext {
        "py" | "pyi" | "pyw" => FileKind::Code(Language::Python),
        "rs" => FileKind::Code(Language::Rust),
        "js" | "mjs" | "cjs" | "jsx" => FileKind::Code(Language::JavaScript),
        "ts" | "mts" | "cts" => FileKind::Code(Language::TypeScript),
        "tsx" => FileKind::Code(Language::Tsx),
        "go" => FileKind::Code(Language::Go),
        "java" => FileKind::Code(Language::Java),
        "c" | "h" => FileKind::Code(Language::C),
        "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" | "ipp" | "tcc" | "inl" => {
            FileKind::Code(Language::Cpp)
        }
        "rb" | "rake" | "gemspec" | "ru" | "rbi" => FileKind::Code(Language::Ruby),
        "sh" | "bash" => FileKind::Code(Language::Bash),
        "json" => {
            if is_jsonc_json(&lower, in_vscode) {
                FileKind::Data(DataFormat::Jsonc)
            } else {
                FileKind::Data(DataFormat::Json)
            }
        }
        "jsonc" | "json5c" | "code-workspace" | "code-snippets" => {
            FileKind::Data(DataFormat::Jsonc)
        }
        "toml" => FileKind::Data(DataFormat::Toml),
        "yml" | "yaml" => FileKind::Data(DataFormat::Yaml),
        "ini" | "cfg" => FileKind::Data(DataFormat::Ini),
        "md" | "markdown" | "mdx" | "mdown" | "mkd" => FileKind::Markdown,
        "" => shebang_kind(content),
        _ => FileKind::Other,
    }
}

/// JSON files that the tools reading them parse as JSON-with-comments.
fn is_jsonc_json(lower_name: &str, in_vscode: bool) -> bool {
    if in_vscode {
        return true;
    }
    let stem = lower_name.trim_end_matches(".json");
    stem.starts_with("tsconfig")
        || stem.starts_with("jsconfig")
        || stem == "devcontainer"
        || stem == ".devcontainer"
        || stem == ".eslintrc"
        || stem == ".babelrc"
        || stem == "babel.config"
        || stem == ".swcrc"
        || stem == "deno"
        || stem == "api-extractor"
        || stem == "typedoc"
        || stem == ".jshintrc"
        || stem == "tslint"
        || stem == "nodemon"
        || stem == "argv"
        || stem == "turbo"
        || stem == "biome"
        || stem == ".luaurc"
        || stem == "language-configuration"
}

/// Kind of an extension-less file from its `#!` line.
fn shebang_kind(content: &[u8]) -> FileKind {
    let Some(rest) = content.strip_prefix(b"#!") else {
        return FileKind::Other;
    };
    let line_end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    let line = String::from_utf8_lossy(&rest[..line_end.min(200)]);
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return FileKind::Other;
    };
    let mut interp = first.rsplit('/').next().unwrap_or(first);
    if interp == "env" {
        // `#!/usr/bin/env [-S] [VAR=x] prog`
        interp = words
            .find(|w| !w.starts_with('-') && !w.contains('='))
            .map(|w| w.rsplit('/').next().unwrap_or(w))
            .unwrap_or("");
    }
    let base = interp.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match base {
        "sh" | "bash" | "dash" | "ash" | "ksh" | "zsh" => FileKind::Code(Language::Bash),
        "python" | "pypy" => FileKind::Code(Language::Python),
        "node" | "nodejs" => FileKind::Code(Language::JavaScript),
        "ruby" => FileKind::Code(Language::Ruby),
        "ts-node" | "tsx" | "deno" | "bun" => FileKind::Code(Language::TypeScript),
        _ => FileKind::Other,
    }
}

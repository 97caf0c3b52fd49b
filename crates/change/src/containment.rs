//! Where a write would land: inside a project root, outside it, or somewhere nothing may
//! write (`.git/`, a path with a NUL byte). The agent hooks judge an agent's edits with it and
//! the worker checks every file it writes with it.
//!
//! A tool names a path; the kernel decides where the bytes go. So the path is resolved the
//! way the kernel would resolve it when the file is written: every component that exists is
//! looked up (symlinks followed, dangling ones too, since writing through a dangling symlink
//! creates its target), `..` is applied to the directory it is actually in, and components that
//! do not exist yet are appended as they are. A path is inside only when that resolution lies
//! under the resolved project root.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// Symlinks followed while resolving one path before it is refused (Linux's own limit is 40).
const MAX_SYMLINKS: u32 = 40;

/// Why a path named by an edit or a write is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Escape {
    /// It resolves outside the project root; `resolved` is where it would be written.
    Outside {
        /// The path as the tool call named it.
        path: String,
        /// Where the kernel would write it.
        resolved: PathBuf,
    },
    /// It resolves inside the project's `.git/` directory (git's own data).
    GitDir {
        /// The path as the tool call named it.
        path: String,
    },
    /// It cannot name a file: a NUL byte, a symlink loop, or the root directory itself.
    Invalid {
        /// The path as the tool call named it (NUL bytes shown as `\0`).
        path: String,
        /// What is wrong with it.
        why: String,
    },
}

impl Escape {
    /// Whether `[hooks] outside_root` decides this escape (`.git/` and invalid paths are
    /// always denied).
    pub fn is_outside(&self) -> bool {
        matches!(self, Escape::Outside { .. })
    }

    /// One sentence for the agent: which path, where it lands, and why it is refused.
    pub fn describe(&self, root: &Path) -> String {
        match self {
            Escape::Outside { path, resolved } => format!(
                "`{path}` is outside the project root {} (it resolves to {})",
                root.display(),
                resolved.display()
            ),
            Escape::GitDir { path } => {
                format!("`{path}` is inside .git/ (git's own data, never edited by hand)")
            }
            Escape::Invalid { path, why } => format!("`{path}` {why}"),
        }
    }
}

/// Resolves `file` (absolute, or relative to `cwd`) against the project `root`: the
/// repository-relative path (`/`-separated) when the edit lands inside the project and outside
/// `.git/`, the reason otherwise.
pub fn locate(root: &Path, cwd: &Path, file: &str) -> Result<String, Escape> {
    if file.contains('\0') {
        return Err(Escape::Invalid {
            path: file.replace('\0', "\\0"),
            why: "contains a NUL byte, which no file name can hold".into(),
        });
    }
    let named = Path::new(file);
    let abs = if named.is_absolute() {
        named.to_path_buf()
    } else {
        cwd.join(named)
    };
    let invalid = |why: String| Escape::Invalid {
        path: file.to_string(),
        why,
    };
    let root = resolve(root).map_err(invalid)?;
    let resolved = resolve(&abs).map_err(invalid)?;
    let Ok(rel) = resolved.strip_prefix(&root) else {
        return Err(Escape::Outside {
            path: file.to_string(),
            resolved,
        });
    };
    let Some(rel) = rel.to_str().map(|s| s.replace('\\', "/")) else {
        return Err(invalid("resolves to a name that is not UTF-8".into()));
    };
    if rel.is_empty() {
        return Err(invalid("names the project root itself, not a file".into()));
    }
    if rel.split('/').any(|part| part.eq_ignore_ascii_case(".git")) {
        return Err(Escape::GitDir {
            path: file.to_string(),
        });
    }
    Ok(rel)
}

/// The absolute path the kernel would write for `path` (absolute): existing components looked
/// up with symlinks followed, `..` applied to the directory reached, missing components kept as
/// written. Errors on a symlink loop.
pub fn resolve(path: &Path) -> Result<PathBuf, String> {
    let absolute;
    let path = if path.is_absolute() {
        path
    } else {
        let cwd = std::env::current_dir()
            .map_err(|e| format!("is relative and the current directory is unknown ({e})"))?;
        absolute = cwd.join(path);
        &absolute
    };
    let mut out = PathBuf::from("/");
    let mut pending: VecDeque<OsString> = parts(path).collect();
    let mut followed = 0;
    while let Some(part) = pending.pop_front() {
        if part == ".." {
            // `out` is physical up to here (every existing component resolved), so its parent
            // is the directory `..` names.
            out.pop();
            continue;
        }
        let next = out.join(&part);
        match std::fs::symlink_metadata(&next) {
            Ok(meta) if meta.file_type().is_symlink() => {
                followed += 1;
                if followed > MAX_SYMLINKS {
                    return Err(format!(
                        "goes through more than {MAX_SYMLINKS} symlinks (a symlink loop?)"
                    ));
                }
                let target = std::fs::read_link(&next)
                    .map_err(|e| format!("goes through a symlink that cannot be read ({e})"))?;
                if target.is_absolute() {
                    out = PathBuf::from("/");
                }
                for (i, p) in parts(&target).enumerate() {
                    pending.insert(i, p);
                }
            }
            // Existing (and not a symlink), missing, or not statable: the component as written.
            _ => out = next,
        }
    }
    Ok(out)
}

/// The normal and `..` components of a path (root, prefix and `.` dropped).
fn parts(path: &Path) -> impl Iterator<Item = OsString> + '_ {
    path.components().filter_map(|c| match c {
        Component::Normal(n) => Some(n.to_os_string()),
        Component::ParentDir => Some(OsString::from("..")),
        Component::RootDir | Component::CurDir | Component::Prefix(_) => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_cases() {
        let root = Path::new("/nonexistent-root-x1");
        assert_eq!(locate(root, root, "a/b.py").unwrap(), "a/b.py");
        assert_eq!(locate(root, root, "a/../b.py").unwrap(), "b.py");
        assert!(locate(root, root, "/etc/evil.py").unwrap_err().is_outside());
        assert!(
            locate(root, root, "dir/../../outside.py")
                .unwrap_err()
                .is_outside()
        );
        assert!(matches!(
            locate(root, root, ".git/hooks/pre-commit"),
            Err(Escape::GitDir { .. })
        ));
        assert!(matches!(
            locate(root, root, "a\0b.py"),
            Err(Escape::Invalid { .. })
        ));
        assert!(matches!(
            locate(root, root, "."),
            Err(Escape::Invalid { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_followed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("p");
        let out = dir.path().join("o");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::create_dir_all(&out).unwrap();
        std::os::unix::fs::symlink(&out, root.join("link_out")).unwrap();
        std::os::unix::fs::symlink("sub", root.join("link_in")).unwrap();
        std::os::unix::fs::symlink(out.join("gone.py"), root.join("dangle.py")).unwrap();
        std::os::unix::fs::symlink("loop", root.join("loop")).unwrap();
        assert!(
            locate(&root, &root, "link_out/x.py")
                .unwrap_err()
                .is_outside()
        );
        assert!(locate(&root, &root, "dangle.py").unwrap_err().is_outside());
        assert_eq!(locate(&root, &root, "link_in/x.py").unwrap(), "sub/x.py");
        // `..` after a symlink is taken from where the symlink points, as the kernel does.
        assert!(
            locate(&root, &root, "link_in/../../o/x.py")
                .unwrap_err()
                .is_outside()
        );
        assert!(
            locate(&root, &root, "link_out/../p/x.py").is_ok(),
            "back inside through the parent"
        );
        assert!(matches!(
            locate(&root, &root, "loop/x.py"),
            Err(Escape::Invalid { .. })
        ));
    }
}

//! Repository-relative paths, the one lexical normaliser every crate uses: `a/./b/../c` is
//! `a/c`, separators are forward slashes, and a path that climbs above the root has no
//! normal form (it cannot name a file of the repository).

/// The normal form of a repository-relative `path`: `.` and empty segments dropped, `..`
/// applied, `\` read as `/`; `None` when a `..` climbs above the root.
pub fn normalize(path: &str) -> Option<String> {
    let path = path.replace('\\', "/");
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn dots_and_separators_are_resolved_lexically() {
        assert_eq!(normalize("a/./b/../c").as_deref(), Some("a/c"));
        assert_eq!(normalize("./src//lib.rs/").as_deref(), Some("src/lib.rs"));
        assert_eq!(normalize(".\\docs\\x.md").as_deref(), Some("docs/x.md"));
        assert_eq!(normalize("/abs/path").as_deref(), Some("abs/path"));
        assert_eq!(normalize("").as_deref(), Some(""));
    }

    #[test]
    fn climbing_above_the_root_has_no_normal_form() {
        assert_eq!(normalize("../x"), None);
        assert_eq!(normalize("a/../../x"), None);
        assert_eq!(normalize("a/b/../../x").as_deref(), Some("x"));
    }
}

//! The change set and its file changes.

use std::fmt;
use std::sync::Arc;

use crate::tree::Tree;

/// What happened to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeKind {
    Create,
    Modify,
    Delete,
    /// Renamed from `from` (the content may also have changed).
    Rename {
        from: String,
    },
}

impl ChangeKind {
    /// A short lowercase name: create, modify, delete, rename.
    pub fn name(&self) -> &'static str {
        match self {
            ChangeKind::Create => "create",
            ChangeKind::Modify => "modify",
            ChangeKind::Delete => "delete",
            ChangeKind::Rename { .. } => "rename",
        }
    }
}

/// One file's change. Paths are kept exactly as the source gave them (forward slashes, relative
/// to the repository root) so the containment guard can judge hostile paths such as `../x`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// The path after the change (the new path of a rename; the deleted path of a delete).
    pub path: String,
    pub kind: ChangeKind,
    /// Content before the change; `None` for a create.
    pub before: Option<Vec<u8>>,
    /// Content after the change; `None` for a delete. For a symlink, the link target.
    pub after: Option<Vec<u8>>,
    /// The path is a symbolic link after the change.
    pub after_is_symlink: bool,
}

impl FileChange {
    /// A file created with `content`.
    pub fn create(path: impl Into<String>, content: impl Into<Vec<u8>>) -> Self {
        FileChange {
            path: path.into(),
            kind: ChangeKind::Create,
            before: None,
            after: Some(content.into()),
            after_is_symlink: false,
        }
    }

    /// A file modified from `before` to `after`.
    pub fn modify(
        path: impl Into<String>,
        before: impl Into<Vec<u8>>,
        after: impl Into<Vec<u8>>,
    ) -> Self {
        FileChange {
            path: path.into(),
            kind: ChangeKind::Modify,
            before: Some(before.into()),
            after: Some(after.into()),
            after_is_symlink: false,
        }
    }

    /// A file deleted; `before` is its last content.
    pub fn delete(path: impl Into<String>, before: impl Into<Vec<u8>>) -> Self {
        FileChange {
            path: path.into(),
            kind: ChangeKind::Delete,
            before: Some(before.into()),
            after: None,
            after_is_symlink: false,
        }
    }

    /// The content before the change as text (`None` for a create or non-UTF-8 bytes).
    pub fn before_text(&self) -> Option<&str> {
        self.before
            .as_deref()
            .and_then(|b| std::str::from_utf8(b).ok())
    }

    /// The content after the change as text (`None` for a delete or non-UTF-8 bytes).
    pub fn after_text(&self) -> Option<&str> {
        self.after
            .as_deref()
            .and_then(|b| std::str::from_utf8(b).ok())
    }

    /// The path before the change (differs from [`FileChange::path`] only for renames).
    pub fn old_path(&self) -> &str {
        match &self.kind {
            ChangeKind::Rename { from } => from,
            _ => &self.path,
        }
    }
}

/// A change to judge: the tree it applies to plus the file changes.
#[derive(Clone)]
pub struct ChangeSet {
    /// The tree before the change.
    pub base: Arc<dyn Tree>,
    pub changes: Vec<FileChange>,
    /// A commit message or the LLM's `commit_message`, when the source has one.
    pub message: Option<String>,
    /// Where the change came from, for humans: `commit 1a2b3c4`, `working tree`, `patches.json`.
    pub source: String,
}

impl ChangeSet {
    /// A change set over `base` with the given changes.
    pub fn new(base: Arc<dyn Tree>, changes: Vec<FileChange>, source: impl Into<String>) -> Self {
        ChangeSet {
            base,
            changes,
            message: None,
            source: source.into(),
        }
    }

    /// The file change at `path` (after-path), if any.
    pub fn get(&self, path: &str) -> Option<&FileChange> {
        self.changes.iter().find(|c| c.path == path)
    }

    /// Whether the change set touches no file.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

impl fmt::Debug for ChangeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChangeSet")
            .field("base", &self.base.id())
            .field("source", &self.source)
            .field("message", &self.message)
            .field("changes", &self.changes)
            .finish()
    }
}

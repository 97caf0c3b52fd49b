//! The change model: every way slopguard sees a change — the working tree, the index, a commit,
//! a unified diff, an LLM's JSON patch list, search/replace edit blocks — becomes one
//! [`ChangeSet`]: a base [`Tree`] plus file changes with their before and after bytes.
//!
//! Nothing here writes to a repository or a working tree; the one file written is the walk for
//! untracked files kept under the user's cache directory, when the caller asks for it
//! ([`from_worktree_cached`]). Reading a base revision works on bare repositories and never
//! touches a working tree, so guards can judge a change before anything is written.

pub mod cache;
pub mod containment;
mod edit_blocks;
mod error;
pub mod git;
pub mod matcher;
mod model;
mod odb;
mod patches;
mod sources;
mod status;
mod task;
mod tree;
pub mod unified;

pub use cache::cache_dir;
pub use edit_blocks::{EditBlock, apply_edit, apply_edit_traced, parse_edit_blocks};
pub use error::ChangeError;
pub use model::{ChangeKind, ChangeSet, FileChange};
pub use patches::{LlmPatch, LlmPatchList, PatchAction, SearchReplace, parse_patches};
pub use sources::{
    AppliedEdit, from_commit, from_commit_in, from_commit_parts, from_diff, from_edit_blocks,
    from_patch_list, from_patch_list_traced, from_patches_file, from_staged, from_worktree,
    from_worktree_cached, from_worktree_paths,
};
pub use task::Task;
pub use tree::{MemTree, Tree, WorkTree};

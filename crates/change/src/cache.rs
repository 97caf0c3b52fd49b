//! The files slopguard keeps between runs, under one cache directory: the guards' analyses
//! (`slopguard_guards::parse_cache`) and the walk for untracked files (`status::walk_cache`).
//! Where that directory is, how an entry is written so that a concurrent reader never sees
//! half of it, and which entries go first when a directory holds too many.

use std::path::{Path, PathBuf};

/// The directory slopguard keeps what it may reuse between runs in (the guards' analyses, the
/// walk for untracked files): `dir` when given, else `$SLOPGUARD_CACHE_DIR`, else the user's
/// cache directory's `slopguard` (`~/.cache/slopguard`). `None` when `$SLOPGUARD_NO_CACHE` is
/// set (to anything but `0`) or no cache directory is known.
pub fn cache_dir(dir: Option<&Path>) -> Option<PathBuf> {
    if std::env::var_os("SLOPGUARD_NO_CACHE").is_some_and(|v| !v.is_empty() && v != "0") {
        return None;
    }
    match (dir, std::env::var_os("SLOPGUARD_CACHE_DIR")) {
        (Some(dir), _) => Some(dir.to_path_buf()),
        (None, Some(dir)) if !dir.is_empty() => Some(dir.into()),
        _ => Some(dirs::cache_dir()?.join("slopguard")),
    }
}

/// Writes `bytes` to `path` under a temporary name beside it (`<path>.tmp<pid>`) and renames
/// it into place, so that a concurrent reader sees the old entry or the new one, never half.
/// Whether it was written; the temporary file is removed on failure.
pub fn write_replacing(path: &Path, bytes: &[u8]) -> bool {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let written = std::fs::write(&tmp, bytes).is_ok() && std::fs::rename(&tmp, path).is_ok();
    if !written {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The entries of `dir`, least recently modified first.
pub fn oldest_first(dir: &Path) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut entries: Vec<(std::time::SystemTime, PathBuf)> = read
        .flatten()
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    entries.sort();
    entries.into_iter().map(|(_, p)| p).collect()
}

//! `build --check`: compares kits built in memory with what is on disk, writing nothing.
//!
//! Like `cargo fmt --check`, the answer is a list of every file that `build` would change:
//! files whose bytes differ, files that are missing, and stale files (in a kit folder but no
//! longer produced, or a whole kit folder whose ruleset is gone).

use crate::kit::Kit;
use std::path::{Path, PathBuf};

/// One difference between a built kit and the output folder.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    /// The file exists but its bytes differ from what `build` would write.
    Differs(PathBuf),
    /// `build` would create this file (or the whole kit folder).
    Missing(PathBuf),
    /// The file (or kit folder) is on disk but `build` would not produce it.
    Stale(PathBuf),
}

impl Change {
    /// The file or folder concerned.
    pub fn path(&self) -> &Path {
        match self {
            Change::Differs(p) | Change::Missing(p) | Change::Stale(p) => p,
        }
    }
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Change::Differs(p) => write!(f, "would change: {}", p.display()),
            Change::Missing(p) => write!(f, "missing: {}", p.display()),
            Change::Stale(p) => write!(f, "stale: {}", p.display()),
        }
    }
}

use crate::kitdir::is_kit_folder;

/// Compares `kits` with `out` (the folder `build -o` would write to) and returns every
/// difference, sorted: per kit, files that differ or are missing and files on disk the kit does
/// not produce; and kit folders in `out` (recognised by their `manifest.txt`) whose id no kit
/// has. In a kit folder every other file is stale, hidden ones too (`build` replaces the
/// folder whole); in `out`, hidden entries (`build`'s own staging folders) are left out. Reads
/// only; writes nothing. Errors: a file or folder that exists cannot be read, or a kit's place
/// holds what `build` would refuse to replace (a symbolic link, a file, a folder that is not a
/// kit: [`crate::kitdir::may_replace`], the same message).
pub fn compare(kits: &[Kit], out: &Path) -> std::io::Result<Vec<Change>> {
    let mut changes = Vec::new();
    for k in kits {
        let dir = out.join(&k.id);
        crate::kitdir::may_replace(&dir)?;
        if !dir.is_dir() {
            changes.push(Change::Missing(dir));
            continue;
        }
        for f in &k.files {
            let p = dir.join(&f.name);
            match std::fs::read(&p) {
                Ok(b) if b == f.bytes => {}
                Ok(_) => changes.push(Change::Differs(p)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    changes.push(Change::Missing(p))
                }
                Err(e) => return Err(e),
            }
        }
        for e in std::fs::read_dir(&dir)? {
            let e = e?;
            let name = e.file_name().to_string_lossy().into_owned();
            if !k.files.iter().any(|f| f.name == name) {
                changes.push(Change::Stale(e.path()));
            }
        }
    }
    if out.is_dir() {
        for e in std::fs::read_dir(out)? {
            let e = e?;
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || kits.iter().any(|k| k.id == name) {
                continue;
            }
            if e.path().is_dir() && is_kit_folder(&e.path()) {
                changes.push(Change::Stale(e.path()));
            }
        }
    }
    changes.sort_by(|a, b| a.path().cmp(b.path()));
    Ok(changes)
}

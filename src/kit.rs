//! A kit: which sheets a ruleset gets, the files they become, and writing them atomically.
//!
//! [`make`] builds every file of one kit in memory (nothing touches the disk); [`write`] puts
//! them in `<out>/<id>/` by writing a temporary folder next to it and renaming it into place,
//! so a reader never sees a half-written kit and a failed build leaves the old kit untouched.

use crate::doc::Document;
use crate::layout::{self, Paper};
use crate::render;
use crate::ruleset::Ruleset;
use std::path::{Path, PathBuf};

/// One output file: its name inside the kit folder and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// File name, e.g. `kit.pdf`, `01-board.svg`.
    pub name: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

/// A kit built in memory.
#[derive(Clone, Debug)]
pub struct Kit {
    /// The ruleset id: the kit's folder name.
    pub id: String,
    /// The laid-out pages.
    pub document: Document,
    /// The host key's pages (answers to the practice exercises), a separate document.
    pub host_key: Document,
    /// `kit.pdf`, one SVG per page, `host-key.pdf`, one `key-NN-<page>.svg` per host key page,
    /// `manifest.txt`.
    pub files: Vec<File>,
}

/// Lays out and renders the kit of a ruleset whose examples have been checked, and its host key.
/// Errors: the layout cannot place the board or text (message says what).
pub fn make(rs: &Ruleset, paper: Paper) -> Result<Kit, String> {
    let document = layout::kit(rs, paper)?;
    let host_key = layout::host_key(rs, paper)?;
    let mut files = Vec::new();
    files.push(File {
        name: "kit.pdf".to_string(),
        bytes: render::pdf::render(&document),
    });
    for (name, svg) in render::svg::render_all(&document) {
        files.push(File {
            name,
            bytes: svg.into_bytes(),
        });
    }
    files.push(File {
        name: "host-key.pdf".to_string(),
        bytes: render::pdf::render(&host_key),
    });
    for (name, svg) in render::svg::render_all(&host_key) {
        files.push(File {
            name: format!("key-{name}"),
            bytes: svg.into_bytes(),
        });
    }
    let mut manifest = format!(
        "sowkit kit\nruleset: {} ({})\nsource file: {}\npaper: {} ({} x {} mm portrait)\nprint at 100% (actual size); every page has a 100 mm calibration bar\nhost-key.pdf holds the answers to the practice page: print it separately\nfiles:\n",
        rs.name, rs.id, rs.path, paper.name, paper.width, paper.height
    );
    for f in &files {
        manifest.push_str(&format!("  {}  {} bytes\n", f.name, f.bytes.len()));
    }
    files.push(File {
        name: "manifest.txt".to_string(),
        bytes: manifest.into_bytes(),
    });
    Ok(Kit {
        id: rs.id.clone(),
        document,
        host_key,
        files,
    })
}

/// Writes `kit` to `<out>/<id>/`, replacing an earlier kit of the same id atomically (a
/// temporary sibling folder renamed into place). Returns the kit folder. Errors: I/O.
pub fn write(kit: &Kit, out: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(out)?;
    let final_dir = out.join(&kit.id);
    let tmp = out.join(format!(".{}.tmp-{}", kit.id, std::process::id()));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp)?;
    }
    std::fs::create_dir(&tmp)?;
    let result = (|| {
        for f in &kit.files {
            std::fs::write(tmp.join(&f.name), &f.bytes)?;
        }
        let old = out.join(format!(".{}.old-{}", kit.id, std::process::id()));
        if final_dir.exists() {
            std::fs::rename(&final_dir, &old)?;
        }
        std::fs::rename(&tmp, &final_dir)?;
        if old.exists() {
            std::fs::remove_dir_all(&old)?;
        }
        Ok(())
    })();
    if result.is_err() && tmp.exists() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result.map(|_| final_dir)
}

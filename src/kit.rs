//! A kit: which sheets a ruleset gets, the files they become, and writing them atomically.
//!
//! [`make`] builds every file of one kit in memory (nothing touches the disk); [`write`] puts
//! them in `<out>/<id>/` through [`crate::kitdir`], so the folder is at every instant the
//! complete old kit or the complete new one, and a failed build leaves the old kit untouched.

use crate::doc::Document;
use crate::layout::{self, KitOptions};
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

/// Lays out and renders the kit of a ruleset whose examples have been checked, and its host key,
/// as `opts` say (paper, fit, counters).
/// Errors: the layout cannot place the board or text (message says what).
pub fn make(rs: &Ruleset, opts: &KitOptions) -> Result<Kit, String> {
    let paper = opts.paper;
    let document = layout::kit(rs, opts)?;
    let host_key = layout::host_key(rs, opts)?;
    // The PDF backend returns no bytes only if serialising failed; never write an empty PDF.
    let pdf = |d: &Document, what: &str| {
        let bytes = render::pdf::render(d);
        if bytes.is_empty() {
            Err(format!("the {what} PDF could not be written"))
        } else {
            Ok(bytes)
        }
    };
    let mut files = Vec::new();
    files.push(File {
        name: "kit.pdf".to_string(),
        bytes: pdf(&document, "kit")?,
    });
    for (name, svg) in render::svg::render_all(&document) {
        files.push(File {
            name,
            bytes: svg.into_bytes(),
        });
    }
    files.push(File {
        name: "host-key.pdf".to_string(),
        bytes: pdf(&host_key, "host key")?,
    });
    for (name, svg) in render::svg::render_all(&host_key) {
        files.push(File {
            name: format!("key-{name}"),
            bytes: svg.into_bytes(),
        });
    }
    files.push(File {
        name: "index.html".to_string(),
        bytes: preview_html(rs, &files).into_bytes(),
    });
    let mut manifest = format!(
        "sowkit kit\nruleset: {} ({})\nsource file: {} (sha256 {})\npaper: {} ({} x {} mm portrait)\nprint at 100% (actual size); every page has a 100 mm calibration bar\nhost-key.pdf holds the answers to the practice page: print it separately\nfiles:\n",
        rs.name, rs.id, file_name(&rs.path), rs.sha256, paper.name, paper.width, paper.height
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

/// Writes `kit` to `<out>/<id>/`, replacing an earlier kit of the same id atomically.
/// Returns the kit folder. Errors: I/O (nothing changed then). See [`write_all`].
pub fn write(kit: &Kit, out: &Path) -> std::io::Result<PathBuf> {
    write_all(std::slice::from_ref(kit), out).map(|mut v| v.remove(0))
}

/// Writes every kit to `<out>/<id>/` through [`crate::kitdir::Output`]: each kit staged in full
/// and fsynced, then switched in atomically. On an error every kit is as it was and nothing
/// new is left (a missing `out` is not left behind either); if the process is killed, each kit
/// folder is complete, old or new. Returns the kit folders in order. Errors: `out` is not a
/// folder, a file stands where a kit folder goes, or I/O (messages name the path).
pub fn write_all(kits: &[Kit], out: &Path) -> std::io::Result<Vec<PathBuf>> {
    let o = crate::kitdir::Output::open(out)?;
    for k in kits {
        o.stage(&k.id, &k.files)?;
    }
    let ids: Vec<String> = kits.iter().map(|k| k.id.clone()).collect();
    o.commit(&ids)
}

/// The last component of a path as typed (`rulesets/x.toml` → `x.toml`), so nothing of the
/// machine's folders reaches a kit.
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Escapes text for HTML.
fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `index.html`: a preview of every page (the SVGs) that says plainly to print the PDF, since a
/// browser adds its own margins and scaling when printing a web page.
fn preview_html(rs: &Ruleset, files: &[File]) -> String {
    let name = html_escape(&rs.name);
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{name}: print-and-play kit</title>\n<style>body{{font-family:sans-serif;margin:2em;max-width:60em}}img{{width:100%;border:1px solid #999;margin:.5em 0 2em}}</style>\n</head>\n<body>\n<h1>{name}</h1>\n<p><strong>To print, open <a href=\"kit.pdf\">kit.pdf</a> and print it at 100% (\"actual size\"), then check that the black bar on each page measures 100 mm.</strong> The pages below are previews; a browser printing this page adds its own margins and scaling.</p>\n<p>The answers to the practice page are in <a href=\"host-key.pdf\">host-key.pdf</a>: print it separately and keep it away from the players.</p>\n"
    );
    for f in files
        .iter()
        .filter(|f| f.name.ends_with(".svg") && !f.name.starts_with("key-"))
    {
        let file = html_escape(&f.name);
        h.push_str(&format!(
            "<h2>{file}</h2>\n<img src=\"{file}\" alt=\"{file}\">\n"
        ));
    }
    h.push_str("</body>\n</html>\n");
    h
}

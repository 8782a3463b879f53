//! A kit: which sheets a ruleset gets, the files they become, and writing them atomically.
//!
//! [`make`] builds every file of one kit in memory (nothing touches the disk); [`write`] puts
//! them in `<out>/<id>/` by writing a temporary folder next to it and renaming it into place,
//! so a reader never sees a half-written kit and a failed build leaves the old kit untouched.

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

/// Lays out and renders the kit of a ruleset whose examples have been checked, and its host key.
/// Errors: the layout cannot place the board or text (message says what).
pub fn make(rs: &Ruleset, opts: &KitOptions) -> Result<Kit, String> {
    let document = layout::kit(rs, opts)?;
    let host_key = layout::host_key(rs, opts)?;
    let paper = opts.paper;
    let (lrs, ph) = opts.localise(rs)?;
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
        bytes: preview_html(&lrs, &ph, &files).into_bytes(),
    });
    let mut manifest = format!(
        "sowkit kit\nruleset: {} ({})\nlanguage: {}\nsource file: {}\npaper: {} ({} x {} mm portrait)\nprint at 100% (actual size); every page has a 100 mm calibration bar\nhost-key.pdf holds the answers to the practice page: print it separately\nfiles:\n",
        lrs.name, rs.id, lrs.lang, rs.path, paper.name, paper.width, paper.height
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

/// Writes every kit to `<out>/<id>/` all-or-nothing: first each kit is written in full to a
/// temporary sibling folder; only when all are written are they renamed into place, earlier
/// kits of the same ids being moved aside first. If any step fails, everything done so far is
/// undone (new folders removed, old kits moved back), so `out` looks as it did before.
/// Returns the kit folders in order. Errors: `out` is not a folder, or I/O.
pub fn write_all(kits: &[Kit], out: &Path) -> std::io::Result<Vec<PathBuf>> {
    use std::io::{Error, ErrorKind};
    if out.exists() && !out.is_dir() {
        return Err(Error::new(
            ErrorKind::AlreadyExists,
            format!(
                "{} is a file, not a folder: give -o a folder (it is created if missing)",
                out.display()
            ),
        ));
    }
    std::fs::create_dir_all(out)?;
    for k in kits {
        let fin = out.join(&k.id);
        if fin.exists() && !fin.is_dir() {
            return Err(Error::new(
                ErrorKind::AlreadyExists,
                format!(
                    "{} is a file, not a kit folder: move it away or choose another -o",
                    fin.display()
                ),
            ));
        }
    }
    let pid = std::process::id();
    let tmp_of = |k: &Kit| out.join(format!(".{}.tmp-{pid}", k.id));
    let old_of = |k: &Kit| out.join(format!(".{}.old-{pid}", k.id));
    // 1. Stage every kit in full.
    let mut staged: Vec<PathBuf> = Vec::new();
    let stage = |staged: &mut Vec<PathBuf>| -> std::io::Result<()> {
        for k in kits {
            let tmp = tmp_of(k);
            if tmp.exists() {
                std::fs::remove_dir_all(&tmp)?;
            }
            std::fs::create_dir(&tmp)?;
            staged.push(tmp.clone());
            for f in &k.files {
                std::fs::write(tmp.join(&f.name), &f.bytes)?;
            }
        }
        Ok(())
    };
    if let Err(e) = stage(&mut staged) {
        for t in &staged {
            let _ = std::fs::remove_dir_all(t);
        }
        return Err(e);
    }
    // 2. Swap them in; remember each step so it can be undone.
    let mut moved_aside: Vec<(PathBuf, PathBuf)> = Vec::new(); // (final, old)
    let mut placed: Vec<(PathBuf, PathBuf)> = Vec::new(); // (tmp, final)
    let mut result = Ok(());
    for k in kits {
        let fin = out.join(&k.id);
        let old = old_of(k);
        if fin.exists() {
            if let Err(e) = std::fs::rename(&fin, &old) {
                result = Err(e);
                break;
            }
            moved_aside.push((fin.clone(), old));
        }
        if let Err(e) = std::fs::rename(tmp_of(k), &fin) {
            result = Err(e);
            break;
        }
        placed.push((tmp_of(k), fin));
    }
    if let Err(e) = result {
        for (tmp, fin) in placed.iter().rev() {
            let _ = std::fs::rename(fin, tmp);
        }
        for (fin, old) in moved_aside.iter().rev() {
            let _ = std::fs::rename(old, fin);
        }
        for t in &staged {
            let _ = std::fs::remove_dir_all(t);
        }
        return Err(e);
    }
    // 3. The new kits are in place; removing the old ones is tidying, not part of success.
    for (_, old) in &moved_aside {
        if std::fs::remove_dir_all(old).is_err() {
            eprintln!(
                "warning: could not remove the previous kit kept at {}; delete it by hand",
                old.display()
            );
        }
    }
    Ok(placed.into_iter().map(|(_, f)| f).collect())
}

/// Escapes text for HTML.
fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `index.html`: a preview of every page (the SVGs) that says plainly to print the PDF, since a
/// browser adds its own margins and scaling when printing a web page. Every word comes from the
/// catalogue `ph`, in the kit's language.
fn preview_html(rs: &Ruleset, ph: &layout::phrases::Phrases, files: &[File]) -> String {
    let name = html_escape(&rs.name);
    let title = html_escape(&ph.fmt("kit.title", &[("name", &rs.name)]));
    let link = |f: &str| format!("<a href=\"{f}\">{f}</a>");
    // The catalogue text is escaped; the links are put in afterwards.
    let fill = |key: &str, f: &str| {
        html_escape(&ph.fmt(key, &[("pdf", "\u{1}")])).replace('\u{1}', &link(f))
    };
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n<style>body{{font-family:sans-serif;margin:2em;max-width:60em}}img{{width:100%;border:1px solid #999;margin:.5em 0 2em}}</style>\n</head>\n<body>\n<h1>{name}</h1>\n<p><strong>{print}</strong> {preview}</p>\n<p>{key}</p>\n",
        lang = html_escape(ph.lang()),
        print = fill("html.print", "kit.pdf"),
        preview = html_escape(&ph.get("html.preview")),
        key = fill("html.key", "host-key.pdf"),
    );
    let pages: Vec<&File> = files
        .iter()
        .filter(|f| f.name.ends_with(".svg") && !f.name.starts_with("key-"))
        .collect();
    for (i, f) in pages.iter().enumerate() {
        let file = html_escape(&f.name);
        let heading = html_escape(&ph.fmt(
            "html.page",
            &[
                ("n", &(i + 1).to_string()),
                ("total", &pages.len().to_string()),
            ],
        ));
        h.push_str(&format!(
            "<h2>{heading}</h2>\n<img src=\"{file}\" alt=\"{heading}\">\n"
        ));
    }
    h.push_str("</body>\n</html>\n");
    h
}

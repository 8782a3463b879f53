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

/// Parses, on a spare core ([`rayon::spawn`]), what every kit in language `lang` needs and each
/// process parses once: the message catalogue ([`layout::phrases::Phrases::load`], a
/// millisecond of a Kalah 6x4 build) and the two font faces. `build` calls it before it checks
/// the rulesets, which takes one core, so the kits' layout finds them ready. Nothing is
/// written and no error is kept: the kit's own load reports any (the same answer, computed
/// once whichever thread asks first).
pub fn warm_up(lang: &str) {
    let lang = lang.to_string();
    rayon::spawn(move || {
        let _ = layout::phrases::Phrases::load(&lang);
        let _ = crate::text::face(crate::doc::Weight::Regular);
        let _ = crate::text::face(crate::doc::Weight::Bold);
    });
}

/// Lays out and renders the kit of a ruleset whose examples have been checked, and its host key,
/// as `opts` say (paper, fit, counters).
/// Errors: the layout cannot place the board or text (message says what).
pub fn make(rs: &Ruleset, opts: &KitOptions) -> Result<Kit, String> {
    make_with(rs, opts, true)
}

/// [`make`], with the host key's solver lines (best play, proven by [`crate::solve`]) only
/// when `hints` is set. Only the fuzz harness ([`crate::fuzzing::kit`]) and the build bench
/// (`benches/build.rs`, which times the kit without the solver's share) leave them out: the
/// solver is most of a kit's time on a big board, and is fuzzed through the engine.
#[doc(hidden)]
pub fn make_with(rs: &Ruleset, opts: &KitOptions, hints: bool) -> Result<Kit, String> {
    let paper = opts.paper;
    // The PDF backend returns no bytes only if serialising failed; never write an empty PDF.
    let pdf = |d: &Document, what: &str| {
        let bytes = render::pdf::render(d);
        if bytes.is_empty() {
            Err(format!("the {what} PDF could not be written"))
        } else {
            Ok(bytes)
        }
    };
    // Each document laid out, then its PDF and SVGs made side by side: the kit and its host key
    // as two such lines on the machine's cores (rayon), so the kit's pages render while the
    // host key is still being laid out (its solver lines take longest). Each result depends
    // only on its input, so the bytes are the same whatever the threads do.
    let rendered = |d: Result<Document, String>, what: &str| {
        d.map(|d| {
            let (pdf, svgs) = rayon::join(|| pdf(&d, what), || render::svg::render_all(&d));
            (d, pdf, svgs)
        })
    };
    let (kit_side, key_side) = rayon::join(
        || rendered(layout::kit(rs, opts), "kit"),
        || rendered(layout::host_key_with(rs, opts, hints), "host key"),
    );
    // The kit's error first, as when the two were laid out one after the other.
    let (document, kit_pdf, kit_svgs) = kit_side?;
    let (host_key, key_pdf, key_svgs) = key_side?;
    // The ruleset's words and the catalogue in the kit's language, for index.html.
    let (lrs, ph) = opts.localise(rs)?;
    let mut files = Vec::new();
    files.push(File {
        name: "kit.pdf".to_string(),
        bytes: kit_pdf?,
    });
    // (svg file, width, height) of each kit page, for the preview.
    let mut sheets: Vec<(String, f64, f64)> = Vec::new();
    for ((name, svg), p) in kit_svgs.into_iter().zip(&document.pages) {
        sheets.push((name.clone(), p.width, p.height));
        files.push(File {
            name,
            bytes: svg.into_bytes(),
        });
    }
    files.push(File {
        name: "host-key.pdf".to_string(),
        bytes: key_pdf?,
    });
    for (name, svg) in key_svgs {
        files.push(File {
            name: format!("key-{name}"),
            bytes: svg.into_bytes(),
        });
    }
    files.push(File {
        name: "index.html".to_string(),
        bytes: preview_html(&lrs, &ph, &sheets, &sheet_titles(&document.pages, &ph)).into_bytes(),
    });
    // Each sheet's own orientation: a landscape board must not be called portrait.
    // Named by sheet (the board once, however many pieces it has).
    let mut landscape: Vec<String> = Vec::new();
    for p in document.pages.iter().filter(|p| p.width > p.height) {
        // In mid-sentence ("landscape sheets: board map and board"), so without the capital
        // the sheet's name takes as a title.
        let name = lower_first(&sheet_name(&p.name, &ph));
        if !landscape.contains(&name) {
            landscape.push(name);
        }
    }
    let sheets = if landscape.is_empty() {
        ph.get("manifest.portrait")
    } else {
        ph.fmt(
            "manifest.landscape",
            &[("names", &layout::phrases::join_and(&ph, &landscape))],
        )
    };
    // In the kit's language, from the catalogue's `manifest` table.
    let lines = [
        ph.get("manifest.head"),
        ph.fmt("manifest.ruleset", &[("name", &lrs.name), ("id", &rs.id)]),
        ph.fmt("manifest.language", &[("lang", &lrs.lang)]),
        ph.fmt(
            "manifest.style",
            &[
                ("style", &style_words(&opts.style_names(), &ph)),
                ("names", &opts.style_names()),
            ],
        ),
        ph.fmt(
            "manifest.source",
            &[("file", file_name(&rs.path)), ("sha", &rs.sha256)],
        ),
        ph.fmt(
            "manifest.paper",
            &[
                ("paper", &ph.paper(&paper.name)),
                ("w", &ph.mm(paper.width)),
                ("h", &ph.mm(paper.height)),
                ("sheets", &sheets),
            ],
        ),
        ph.fmt(
            "manifest.board",
            &[("how", &board_summary(&document, opts, &ph))],
        ),
        ph.get("manifest.print"),
        ph.get("manifest.start"),
        ph.get("manifest.key"),
        ph.get("manifest.files"),
    ];
    let mut manifest = lines.join("\n") + "\n";
    manifest.push_str(&manifest_files(&ph, &files));
    ph.check()?;
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

/// The sheet a page of the kit belongs to, from its page name: the name without the `-N` of
/// a sheet of several pages (`rules-2` → `rules`); the log's continuation `log-2` is a sheet
/// of its own.
fn sheet_kind(name: &str) -> String {
    match name.rsplit_once('-') {
        _ if name == "log-2" => name.to_string(),
        Some((k, n)) if n.parse::<usize>().is_ok() => k.to_string(),
        _ => name.to_string(),
    }
}

/// The reader's name of the sheet page `name` belongs to (catalogue table `sheet`).
fn sheet_name(name: &str, ph: &layout::phrases::Phrases) -> String {
    ph.get(&format!("sheet.{}", sheet_kind(name).replace('-', "_")))
}

/// What a reader calls each of `pages`, in the kit's language (catalogue table `sheet`): the
/// sheet's name, and when a sheet runs over several pages which of them it is ("Reglas, hoja 2
/// de 5"; a tiled board's pieces "Tablero, pieza 1 de 2"). Internal page names (`board-1`,
/// `log-2`) never reach the reader.
pub fn sheet_titles(pages: &[crate::doc::Page], ph: &layout::phrases::Phrases) -> Vec<String> {
    // A page name is its sheet's kind, then `-N` on a sheet of several pages.
    let kinds: Vec<String> = pages.iter().map(|p| sheet_kind(&p.name)).collect();
    kinds
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let total = kinds.iter().filter(|o| *o == k).count();
            let n = kinds[..=i].iter().filter(|o| *o == k).count();
            let sheet = sheet_name(k, ph);
            if total == 1 {
                sheet
            } else {
                let key = if k == "board" {
                    "sheet.piece_of"
                } else {
                    "sheet.of"
                };
                ph.fmt(
                    key,
                    &[
                        ("sheet", &sheet),
                        ("n", &n.to_string()),
                        ("total", &total.to_string()),
                    ],
                )
            }
        })
        .collect()
}

/// One line on how the board is printed: one sheet, shrunk (`--fit`), or tiles.
fn board_summary(doc: &Document, opts: &KitOptions, ph: &layout::phrases::Phrases) -> String {
    let tiles = doc
        .pages
        .iter()
        .filter(|p| {
            p.name
                .strip_prefix("board-")
                .is_some_and(|n| n.parse::<usize>().is_ok())
        })
        .count();
    if tiles > 0 {
        ph.fmt("manifest.board_tiles", &[("n", &tiles.to_string())])
    } else if opts.fit {
        ph.get("manifest.board_fit")
    } else {
        ph.get("manifest.board_one")
    }
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

/// CSS length in millimetres, rounded to 0.001 mm (the SVG backend's precision).
fn css_mm(v: f64) -> String {
    let r = (v * 1000.0).round() / 1000.0;
    format!("{r}mm")
}

/// `index.html`: every sheet of the kit at true size (CSS millimetres), made to print at 100%.
///
/// `sheets` is one `(svg file, width mm, height mm)` per kit page, in print order. Each distinct
/// sheet size gets a CSS named page (`@page s0 { size: W H; margin: 0 }`, …) so a browser
/// printing with "Actual size" puts each sheet on its own page of the kit's paper, landscape
/// sheets on landscape pages, with no scaling and no margins of its own. The heading, the notes
/// and each sheet's caption are screen-only (`@media print { .screen { display: none } }`), so
/// the printout holds the sheets and nothing else: as many pages as `kit.pdf`. Every word comes
/// from the catalogue `ph`, in the kit's language (`<html lang>` says which).
fn preview_html(
    rs: &Ruleset,
    ph: &layout::phrases::Phrases,
    sheets: &[(String, f64, f64)],
    titles: &[String],
) -> String {
    let name = html_escape(&rs.name);
    // Distinct sheet sizes, in order of first use: one named page each.
    let mut sizes: Vec<(String, String)> = Vec::new();
    for (_, w, h) in sheets {
        let s = (css_mm(*w), css_mm(*h));
        if !sizes.contains(&s) {
            sizes.push(s);
        }
    }
    let mut css = String::new();
    // The first sheet's size is also the default page, for browsers without named pages.
    if let Some((w, h)) = sizes.first() {
        css.push_str(&format!("@page {{ size: {w} {h}; margin: 0 }}\n"));
    }
    for (i, (w, h)) in sizes.iter().enumerate() {
        css.push_str(&format!(
            "@page s{i} {{ size: {w} {h}; margin: 0 }}\n.s{i} {{ page: s{i}; width: {w}; height: {h} }}\n"
        ));
    }
    css.push_str(concat!(
        "html, body { margin: 0; padding: 0 }\n",
        ".sheet { display: block; position: relative; overflow: hidden; background: #fff; ",
        "break-inside: avoid; page-break-inside: avoid }\n",
        ".sheet img { position: absolute; left: 0; top: 0; width: 100%; height: 100%; display: block }\n",
        ".sheet + .sheet, .cap + .sheet { break-before: page; page-break-before: always }\n",
        "@media screen {\n",
        "  body { background: #e6e6e6; font-family: sans-serif; padding: 1em }\n",
        "  .screen { max-width: 60em; margin: 0 auto }\n",
        "  .cap { margin: 1.5em 0 .4em; font-size: 1em }\n",
        "  .sheet { margin: 0 0 2em; box-shadow: 0 1px 4px rgba(0,0,0,.4) }\n",
        "}\n",
        "@media print {\n",
        "  .screen, .cap { display: none }\n",
        "  body { background: none }\n",
        "  .sheet { margin: 0; box-shadow: none }\n",
        "}\n",
    ));
    let title = html_escape(&ph.fmt("kit.title", &[("name", &rs.name)]));
    let link = |f: &str| format!("<a href=\"{f}\">{f}</a>");
    // The catalogue text is escaped; the links are put in afterwards.
    let fill = |key: &str, f: &str| {
        html_escape(&ph.fmt(key, &[("pdf", "\u{1}")])).replace('\u{1}', &link(f))
    };
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n<style>\n{css}</style>\n</head>\n<body>\n<div class=\"screen\">\n<h1>{name}</h1>\n<p>{intro} <strong>{print}</strong> {rest}</p>\n<p>{key}</p>\n</div>\n",
        lang = html_escape(ph.lang()),
        intro = html_escape(&ph.get("html.intro")),
        print = fill("html.print", "kit.pdf"),
        rest = html_escape(&ph.get("html.print_rest")),
        key = fill("html.key", "host-key.pdf"),
    );
    let total = sheets.len().to_string();
    for (n, (file, w, hgt)) in sheets.iter().enumerate() {
        let i = sizes
            .iter()
            .position(|s| *s == (css_mm(*w), css_mm(*hgt)))
            .unwrap_or(0);
        let file = html_escape(file);
        let title = html_escape(titles.get(n).map_or("", |t| t.as_str()));
        let heading = html_escape(&ph.fmt(
            "html.page",
            &[
                ("n", &(n + 1).to_string()),
                ("total", &total),
                ("sheet", titles.get(n).map_or("", |t| t.as_str())),
            ],
        ));
        h.push_str(&format!(
            "<h2 class=\"cap screen\">{heading}</h2>\n<div class=\"sheet s{i}\"><img src=\"{file}\" alt=\"{title}\"></div>\n"
        ));
    }
    h.push_str("</body>\n</html>\n");
    h
}

/// The print style `names` (as [`KitOptions::style_names`] gives them, comma-separated) in
/// the kit's words, from the catalogue's `manifest.style_name` table: "letra grande, alto
/// contraste" for `large,contrast` in Spanish.
fn style_words(names: &str, ph: &layout::phrases::Phrases) -> String {
    let words: Vec<String> = names
        .split(',')
        .map(|n| ph.get(&format!("manifest.style_name.{n}")))
        .collect();
    words.join(", ")
}

/// `s` with its first character in lower case (a sheet's title-case name used in mid-sentence).
fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The manifest's line for each of `files`, in order: its name and size in bytes, worded by
/// the catalogue's `manifest.file` in the kit's language, each ending in a line break.
pub(crate) fn manifest_files(ph: &layout::phrases::Phrases, files: &[File]) -> String {
    let mut out = String::new();
    for f in files {
        out.push_str(&ph.fmt(
            "manifest.file",
            &[("name", &f.name), ("bytes", &f.bytes.len().to_string())],
        ));
        out.push('\n');
    }
    out
}

//! Building many kits: in parallel over the machine's cores (rayon), each kit staged on disk as
//! soon as it is rendered, so memory holds one kit per core however many rulesets there are.
//! Output is byte-identical whatever the number of threads: each kit depends on its ruleset
//! alone, and kits are switched in in the order given.

use crate::kitdir::Output;
use crate::layout::{KitOptions, Paper};
use crate::ruleset::Ruleset;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Sets the C allocator (glibc malloc) up for building kits, once, at the start of the process;
/// does nothing on other C libraries. A kit build makes and drops many blocks of 128 KiB to
/// a few MiB (page content, deflated streams, font subsets, SVG text): by default glibc maps
/// each such block afresh from the system and unmaps it when it is dropped, and gives memory
/// at the top of its heap back as soon as 128 KiB are free, so the same memory is mapped,
/// faulted in page by page and zeroed again and again. Here blocks under 8 MiB come from the
/// heap (whose free memory is reused), the heap grows 16 MiB at a time and keeps up to
/// 128 MiB free; larger blocks (a big 3D board's meshes) are still mapped and given back.
/// Measured (2 cores, tmpfs, `perf stat` and medians of alternating runs): all five bundled
/// kits 114 -> 104 ms of CPU, Kalah 6x4 about 3 ms less; peak memory of the hostile bench's
/// largest case (a 16x27 `--3d` board) 193 -> 204 MB, of 10 and 200 rulesets unchanged
/// (28 and 38 MB). A 64 MiB threshold took that case to 237 MB, mimalloc to 247 MB (of the
/// bench's 256 MB bound), for no more speed.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets glibc's allocator parameters; it takes the allocator's lock.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 8 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 << 20);
        libc::mallopt(libc::M_TOP_PAD, 16 << 20);
    }
}

/// One kit written by [`build_all`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The kit folder, `<out>/<id>`.
    pub dir: PathBuf,
    /// Pages in `kit.pdf`.
    pub pages: usize,
    /// Pages in `host-key.pdf`.
    pub key_pages: usize,
    /// Files in the kit folder.
    pub files: usize,
}

/// Why [`build_all`] wrote nothing.
#[derive(Debug)]
pub enum BuildError {
    /// A kit cannot be laid out: the ruleset's path (as given) and the layout's message.
    Layout {
        /// The ruleset file as given.
        path: String,
        /// The paper's name.
        paper: String,
        /// What does not fit or is missing.
        message: String,
    },
    /// Writing failed (the message names the path); nothing was changed.
    Io(std::io::Error),
    /// Several kits cannot be made ([`BuildError::Layout`] or [`BuildError::Extra`] each), in
    /// ruleset order: every failing ruleset is reported, and nothing was written.
    Several(Vec<BuildError>),
    /// The extra files of a kit (e.g. the 3D board) cannot be made: the ruleset's path and why.
    Extra {
        /// The ruleset file as given.
        path: String,
        /// What went wrong.
        message: String,
    },
}

/// Lays out, renders and writes one kit per ruleset to `<out>/<id>/` (see [`crate::kitdir`] for
/// what is promised when interrupted). Rulesets must have passed their checks and have
/// distinct ids. All or nothing: on any error no kit is changed and nothing new is left.
/// Returns the kits in the order of `rulesets`.
/// `opts_for` gives each ruleset's layout options.
pub fn build_all(
    rulesets: &[Ruleset],
    opts_for: impl Fn(&Ruleset) -> KitOptions + Sync,
    out: &Path,
) -> Result<Vec<Built>, BuildError> {
    build_all_with(rulesets, opts_for, |_| Ok(Vec::new()), out)
}

/// As [`build_all`], adding to each kit the files `extra` makes for its ruleset (the 3D board
/// of `--3d`), which its how-to sheet names ([`KitOptions::three_d_files`]); an `extra` error
/// is [`BuildError::Extra`] and writes nothing. A ruleset file inside the kit folder of one of
/// `rulesets` ([`crate::kitdir::kit_folder_holding`]) is a [`BuildError::Io`] of kind
/// `InvalidInput`, before anything is written.
pub fn build_all_with(
    rulesets: &[Ruleset],
    opts_for: impl Fn(&Ruleset) -> KitOptions + Sync,
    extra: impl Fn(&Ruleset) -> Result<Vec<crate::kit::File>, String> + Sync,
    out: &Path,
) -> Result<Vec<Built>, BuildError> {
    // A ruleset kept in a kit folder this build replaces would go with the old kit.
    let kit_ids: Vec<&str> = rulesets.iter().map(|r| r.id.as_str()).collect();
    for rs in rulesets {
        let file = Path::new(&rs.path);
        if let Some(dir) = crate::kitdir::kit_folder_holding(file, out, &kit_ids) {
            return Err(BuildError::Io(crate::kitdir::ruleset_in_kit_folder(
                file, &dir,
            )));
        }
    }
    let o = Output::open(out).map_err(BuildError::Io)?;
    let results: Vec<Result<Built, BuildError>> = rulesets
        .par_iter()
        .map(|rs| {
            let mut opts = opts_for(rs);
            // The extra files first: the how-to sheet names them.
            let more = extra(rs).map_err(|message| BuildError::Extra {
                path: rs.path.clone(),
                message,
            })?;
            opts.three_d_files = more.iter().map(|f| f.name.clone()).collect();
            let mut kit = crate::kit::make(rs, &opts).map_err(|message| BuildError::Layout {
                path: rs.path.clone(),
                paper: opts.paper.name.to_string(),
                message,
            })?;
            add_extra_files(&mut kit, more, rs, &opts).map_err(|message| BuildError::Extra {
                path: rs.path.clone(),
                message,
            })?;
            o.stage(&kit.id, &kit.files).map_err(BuildError::Io)?;
            Ok(Built {
                dir: out.join(&kit.id),
                pages: kit.document.pages.len(),
                key_pages: kit.host_key.pages.len(),
                files: kit.files.len(),
            })
        })
        .collect();
    // Every ruleset's error in ruleset order, so messages do not depend on thread timing; a
    // write error first (it is about the output, not a ruleset).
    let mut built = Vec::new();
    let mut failed = Vec::new();
    for r in results {
        match r {
            Ok(b) => built.push(b),
            Err(e) => failed.push(e),
        }
    }
    if let Some(i) = failed.iter().position(|e| matches!(e, BuildError::Io(_))) {
        return Err(failed.swap_remove(i));
    }
    if failed.len() == 1 {
        return Err(failed.remove(0));
    }
    if !failed.is_empty() {
        return Err(BuildError::Several(failed));
    }
    let ids: Vec<String> = rulesets.iter().map(|r| r.id.clone()).collect();
    o.commit(&ids).map_err(BuildError::Io)?;
    Ok(built)
}

/// Adds the extra files `more` (the 3D board of `--3d`) to `kit`, and lists each with its size
/// in bytes under "extra files:" in its `manifest.txt` (in the kit's language, as the rest of
/// the manifest), which names every file of the kit. The one way both `build` and
/// `build --check` add them, so `--check` compares the manifest `build` writes. Errors: no
/// catalogue for the kit's language, or a message missing from it.
pub fn add_extra_files(
    kit: &mut crate::kit::Kit,
    more: Vec<crate::kit::File>,
    rs: &Ruleset,
    opts: &KitOptions,
) -> Result<(), String> {
    if more.is_empty() {
        return Ok(());
    }
    let (_, ph) = opts.localise(rs)?;
    let lines = ph.get("manifest.extra_files") + "\n" + &crate::kit::manifest_files(&ph, &more);
    ph.check()?;
    if let Some(m) = kit.files.iter_mut().find(|f| f.name == "manifest.txt") {
        m.bytes.extend_from_slice(lines.as_bytes());
    }
    kit.files.extend(more);
    Ok(())
}

/// The languages `check` lays the kit of `rs` out in: its own, and every other it has complete
/// text in (a missing translation is a warning of `check`, and an error of `build --lang`).
pub fn check_languages(rs: &Ruleset) -> Vec<String> {
    rs.languages()
        .into_iter()
        .filter(|l| *l == rs.lang || rs.in_lang(l).is_ok())
        .collect()
}

/// Lays out every ruleset's kit and host key on each of its papers (`papers_for`), in
/// parallel, writing nothing. Returns `(ruleset path, paper name, message)` for each failure,
/// in ruleset order.
pub fn check_layout(
    rulesets: &[Ruleset],
    papers_for: impl Fn(&Ruleset) -> Vec<Paper> + Sync,
) -> Vec<(String, String, String)> {
    rulesets
        .par_iter()
        .flat_map_iter(|rs| {
            let langs = check_languages(rs);
            papers_for(rs).into_iter().flat_map(move |paper| {
                let several = langs.len() > 1;
                langs.clone().into_iter().filter_map(move |lang| {
                    let opts = KitOptions {
                        lang: Some(lang.clone()),
                        ..KitOptions::new(paper)
                    };
                    crate::layout::kit(rs, &opts)
                        .and_then(|_| crate::layout::host_key(rs, &opts))
                        .err()
                        .map(|e| {
                            let e = if several {
                                format!("in `{lang}`: {e}")
                            } else {
                                e
                            };
                            (rs.path.clone(), paper.name.to_string(), e)
                        })
                })
            })
        })
        .collect()
}

//! The live loop shared by `sowkit watch` and `sowkit serve`: rebuild every kit in memory from
//! ruleset texts, write only the files whose bytes changed, and wait for a saved file.

use crate::kit::{self, Kit};
use crate::kitdiff::{self, Change};
use crate::layout::{KitOptions, Paper, A4};
use crate::ruleset::{self, Ruleset};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// One ruleset built: the validated ruleset, its text, and its kit.
#[derive(Clone, Debug)]
pub struct Built {
    /// The ruleset.
    pub ruleset: Ruleset,
    /// Its TOML text (for diagnostics of later steps, e.g. the play-test page's examples).
    pub source: String,
    /// Its kit, every file in memory.
    pub kit: Kit,
}

/// A ruleset whose rules can be played now ([`ruleset::Checked::playable`]): what the
/// play-test page plays, even while a worked example disagrees or the kit does not build.
#[derive(Clone, Debug)]
pub struct Playable {
    /// The ruleset as saved.
    pub ruleset: Ruleset,
    /// Its TOML text.
    pub source: String,
    /// Whether `check` refuses it (a worked example, word or size is wrong), so it has no
    /// kit of this save.
    pub refused: bool,
}

/// What one rebuild of `watch` or `serve` found.
#[derive(Debug)]
pub struct Rebuild {
    /// Every kit, or every problem of every ruleset that failed, rendered with file, line and
    /// field and separated by blank lines (or a layout failure, or two rulesets with one id).
    pub kits: Result<Vec<Built>, String>,
    /// Every warning of every ruleset, rendered as `check` prints it (`warning: …`).
    pub warnings: Vec<String>,
    /// Every ruleset whose rules can be played now, in the order given.
    pub rules: Vec<Playable>,
}

impl Rebuild {
    /// A rebuild that failed before any ruleset was checked (a file could not be read).
    pub fn failed(problem: String) -> Rebuild {
        Rebuild {
            kits: Err(problem),
            warnings: Vec::new(),
            rules: Vec::new(),
        }
    }
}

/// Loads, checks (worked examples and sanity playouts) and lays out every ruleset text
/// `(display name, text)`; `paper` overrides each ruleset's `layout.paper` (default A4), and
/// `lang` each ruleset's `lang` (as `build --lang`: the kit of a ruleset with no text in it is
/// refused). The kits are all or nothing (see [`Rebuild::kits`]); the warnings and the
/// playable rules are those of every ruleset, whether or not the kits built.
pub fn build_sources(
    sources: &[(String, String)],
    paper: Option<Paper>,
    lang: Option<&str>,
) -> Rebuild {
    let mut out: Vec<Built> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    let mut rules: Vec<Playable> = Vec::new();
    for (name, src) in sources {
        let checked = ruleset::check_source(name, src);
        warnings.extend(checked.warnings.into_iter().map(|d| d.rendered));
        if let Some(rs) = checked.playable {
            // Two files with one id (one of them refused, say) are said at once, as `check`
            // says it; the first one's rules are played.
            if let Some(other) = rules.iter().find(|r| r.ruleset.id == rs.id) {
                problems.push(same_id(&other.ruleset.path, name, &rs.id));
                continue;
            }
            rules.push(Playable {
                ruleset: rs,
                source: src.clone(),
                refused: !checked.errors.is_empty(),
            });
        }
        let Some(rs) = checked.ruleset else {
            problems.extend(checked.errors.into_iter().map(|d| d.rendered));
            problems.extend(checked.summary);
            continue;
        };
        if let Some(other) = out.iter().find(|b| b.ruleset.id == rs.id) {
            // The same file given twice (a folder and a file in it) is said so, as `build`
            // says it.
            problems.push(same_id(&other.ruleset.path, name, &rs.id));
            continue;
        }
        let opts = KitOptions {
            lang: lang.map(str::to_string),
            ..KitOptions::new(paper.or(rs.layout.paper).unwrap_or(A4))
        };
        match kit::make(&rs, &opts) {
            Ok(k) => out.push(Built {
                ruleset: rs,
                source: src.clone(),
                kit: k,
            }),
            Err(e) => problems.push(format!(
                "error: {name}: cannot lay out the kit on {} paper: {e}",
                opts.paper.name
            )),
        }
    }
    Rebuild {
        kits: if problems.is_empty() {
            Ok(out)
        } else {
            Err(problems.join("\n\n"))
        },
        warnings,
        rules,
    }
}

/// The problem of two rulesets with one `id`: the file `name` given twice (a folder and a file
/// in it), or two files (`other` first), as `build` says it.
fn same_id(other: &str, name: &str, id: &str) -> String {
    if other == name {
        format!("error: {name} is given twice: give each ruleset once")
    } else {
        format!(
            "error: {other} and {name} both have id {id:?}: kits would overwrite each other; give each ruleset its own id"
        )
    }
}

/// Reads every file; a file that cannot be read is an error naming it.
pub fn read_sources(files: &[PathBuf]) -> Result<Vec<(String, String)>, String> {
    files
        .iter()
        .map(|f| {
            ruleset::load::read_source(f)
                .map(|s| (f.display().to_string(), s))
                .map_err(|d| d.rendered)
        })
        .collect()
}

/// Writes into `out` only what differs from `kits`, holding the output folder's lock as
/// `build` does ([`crate::kitdir::Output::open`]: a build writing there meanwhile is waited
/// for and waits for this, and what a killed build or watch left is tidied first). A kit whose
/// folder is missing or empty is staged in full and switched in, as `build` writes it, so a
/// killed watch never leaves half a new kit. In a kit folder that exists, every changed or
/// missing file is first written to a temporary file beside it ([`temporary_beside`]); only
/// when all are written are they renamed over the old ones (a reader never sees half a file)
/// and the files the kit no longer produces removed. Files whose bytes are unchanged are not
/// touched (their modification time stays). `sources` are the ruleset files the kits come
/// from. Returns the files written or removed.
/// Errors: a kit's folder exists and is not a kit, or a file of `sources` is inside a kit's
/// folder ([`crate::kitdir::kit_folder_holding`]; nothing is written either way), or I/O.
/// An I/O error while writing (a full disk) leaves every kit as it was, temporary files
/// removed, and says so; only a rename refused part-way (or a kill) leaves some files of the
/// new save beside some of the last.
pub fn write_changed(
    kits: &[Kit],
    sources: &[PathBuf],
    out: &Path,
) -> std::io::Result<Vec<Change>> {
    let ids: Vec<&str> = kits.iter().map(|k| k.id.as_str()).collect();
    for f in sources {
        if let Some(dir) = crate::kitdir::kit_folder_holding(f, out, &ids) {
            return Err(crate::kitdir::ruleset_in_kit_folder(f, &dir));
        }
    }
    let o = crate::kitdir::Output::open(out)?;
    // As `build`: a folder of someone else's (or a file, or a link) where a kit goes is never
    // written into, and nothing is written when there is one.
    for k in kits {
        crate::kitdir::may_replace(&out.join(&k.id))?;
    }
    // A kit with no folder yet, or an empty one, is written whole, as `build` writes it.
    let mut done = Vec::new();
    let mut new_kits: Vec<String> = Vec::new();
    for k in kits {
        let dir = out.join(&k.id);
        if !crate::kitdir::is_kit_folder(&dir) {
            o.stage(&k.id, &k.files)?;
            new_kits.push(k.id.clone());
            done.push(Change::Missing(dir));
        }
    }
    let is_new = |p: &Path| new_kits.iter().any(|id| p.starts_with(out.join(id)));
    // First every changed or missing file is written beside its place, and only when all are
    // written (a full disk fails here) are they renamed in: an error leaves each kit as it was.
    let mut pending: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut stale: Vec<PathBuf> = Vec::new();
    let written = (|| -> std::io::Result<()> {
        for c in kitdiff::compare(kits, out)? {
            match &c {
                _ if is_new(c.path()) => continue,
                Change::Missing(p) | Change::Differs(p) => {
                    let Some(k) = kits.iter().find(|k| p.starts_with(out.join(&k.id))) else {
                        continue;
                    };
                    let dir = out.join(&k.id);
                    let Some(f) = k.files.iter().find(|f| dir.join(&f.name) == *p) else {
                        continue;
                    };
                    let tmp = temporary_beside(p);
                    // A write that fails part-way leaves no temporary file.
                    std::fs::write(&tmp, &f.bytes).inspect_err(|_| {
                        let _ = std::fs::remove_file(&tmp);
                    })?;
                    pending.push((tmp, p.clone()));
                }
                Change::Stale(p) => {
                    // Only files inside a kit being written; whole stale kit folders are left
                    // alone.
                    if p.is_file() && kits.iter().any(|k| p.parent() == Some(&out.join(&k.id))) {
                        stale.push(p.clone());
                    } else {
                        continue;
                    }
                }
            }
            done.push(c);
        }
        // Nothing staged: nothing to switch in (and an `-o` that did not exist stays so).
        if !new_kits.is_empty() {
            o.commit(&new_kits)?;
        }
        Ok(())
    })();
    if let Err(e) = written {
        for (tmp, _) in &pending {
            let _ = std::fs::remove_file(tmp);
        }
        return Err(std::io::Error::new(
            e.kind(),
            format!("{e} (every kit there is as it was)"),
        ));
    }
    // Renames and removals need no room on the disk: only a kill (or a rename refused by
    // the file system) can stop them part-way, leaving some files of the new save.
    for (i, (tmp, p)) in pending.iter().enumerate() {
        if let Err(e) = std::fs::rename(tmp, p) {
            // The temporaries not renamed in go too (the one refused and every one after it).
            for (rest, _) in &pending[i..] {
                let _ = std::fs::remove_file(rest);
            }
            return Err(e);
        }
    }
    for p in &stale {
        std::fs::remove_file(p)?;
    }
    done.sort_by(|a, b| a.path().cmp(b.path()));
    Ok(done)
}

/// The temporary sibling a changed file is written to before it is renamed over `path`:
/// hidden, and named for this process (`.kit.pdf.tmp-<pid>`), which the output folder's lock
/// keeps alone in writing there.
pub fn temporary_beside(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(
        ".{}.tmp-{}",
        name.unwrap_or_default(),
        std::process::id()
    ))
}

/// What [`watch`] follows: ruleset files, and folders whose `*.toml` files come and go.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Watched {
    /// Ruleset files; a symbolic link is followed to the file it names, whose saves count.
    pub files: Vec<PathBuf>,
    /// Folders given on the command line: a `*.toml` file created, removed or renamed in one
    /// counts as a change (the caller lists the folder again).
    pub folders: Vec<PathBuf>,
}

/// Watches what `what` names for saves and calls `on_change` once per burst of changes
/// (events closer than `quiet` apart are one save: editors write, rename and chmod in quick
/// succession). Watches each file's folder, so editors that save by renaming a new file over
/// the old one are seen; a file given through a symbolic link is watched at its target too
/// (an edit of the target is a save), and each folder of `folders` for `*.toml` files that
/// appear or go. `what` is asked again after every change, as the set of files may have
/// changed. `on_ready` is called once the watching has begun (the first build goes there, so
/// a save made during it is not missed). Returns only on a watcher error, or when
/// `on_change` returns `false`.
pub fn watch(
    what: impl Fn() -> Watched,
    quiet: Duration,
    on_ready: impl FnOnce(),
    mut on_change: impl FnMut() -> bool,
) -> Result<(), String> {
    use notify::{RecursiveMode, Watcher};
    // A path as events name it: its folder resolved (`..`, links to folders), then its name.
    let norm = |p: &Path| -> PathBuf {
        let p = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        match (p.parent(), p.file_name()) {
            (Some(d), Some(n)) => {
                std::fs::canonicalize(d).map_or_else(|_| p.clone(), |d| d.join(n))
            }
            _ => p,
        }
    };
    // Each file as given and, for a symbolic link, every link of its chain and the file it
    // ends at (whether or not that exists now: a target deleted and made again is seen).
    let targets_of = |w: &Watched| -> Vec<PathBuf> {
        let mut t = Vec::new();
        for f in &w.files {
            let mut p = f.clone();
            t.push(norm(&p));
            for _ in 0..40 {
                let Ok(next) = std::fs::read_link(&p) else {
                    break;
                };
                p = match p.parent() {
                    Some(d) if next.is_relative() => d.join(next),
                    _ => next,
                };
                t.push(norm(&p));
            }
        }
        t.sort();
        t.dedup();
        t
    };
    // A watched folder is known by its file system identity: one renamed away (its watch
    // follows it) or removed is dropped, so the path is watched afresh when it is back.
    #[cfg(unix)]
    let identity = |d: &Path| {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(d).ok().map(|m| (m.dev(), m.ino()))
    };
    #[cfg(not(unix))]
    let identity = |d: &Path| std::fs::metadata(d).ok().map(|_| (0u64, 0u64));
    let (tx, rx) = mpsc::channel();
    let mut w = notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
        let _ = tx.send(ev);
    })
    .map_err(|e| format!("cannot watch files: {e}"))?;
    let mut watching: Vec<(PathBuf, Option<(u64, u64)>)> = Vec::new();
    let mut follow = |w: &mut notify::RecommendedWatcher, now: &Watched, targets: &[PathBuf]| {
        // Folders renamed away or removed since they were watched.
        watching.retain(|(d, id)| {
            let same = identity(d) == *id;
            if !same {
                let _ = w.unwatch(d);
            }
            same
        });
        let parent = |t: &Path| {
            t.parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
        };
        // Each target's folder, each folder given and the folder it is in (so that the folder
        // made again is seen).
        let mut dirs: Vec<PathBuf> = targets
            .iter()
            .map(|t| parent(t))
            .chain(now.folders.iter().flat_map(|f| {
                let f = norm(f);
                [parent(&f), f]
            }))
            .filter(|d| d.is_dir())
            .collect();
        dirs.sort();
        dirs.dedup();
        for d in dirs {
            if watching.iter().any(|(x, _)| *x == d) {
                continue;
            }
            w.watch(&d, RecursiveMode::NonRecursive)
                .map_err(|e| format!("cannot watch {}: {e}", d.display()))?;
            let id = identity(&d);
            watching.push((d, id));
        }
        Ok::<(), String>(())
    };
    let mut now = what();
    let mut targets = targets_of(&now);
    follow(&mut w, &now, &targets)?;
    // Watching from here on: a save made while `on_ready` builds is seen.
    on_ready();
    loop {
        let folders: Vec<PathBuf> = now.folders.iter().map(|f| norm(f)).collect();
        let relevant = |ev: &notify::Event| {
            !matches!(ev.kind, notify::EventKind::Access(_))
                && ev.paths.iter().any(|p| {
                    let p = norm(p);
                    targets.contains(&p)
                        || folders.contains(&p)
                        || (p
                            .extension()
                            .is_some_and(|x| x.eq_ignore_ascii_case("toml"))
                            && p.parent().is_some_and(|d| folders.iter().any(|f| f == d)))
                })
        };
        match rx.recv() {
            Err(_) => return Err("the file watcher stopped".to_string()),
            Ok(Err(e)) => return Err(format!("file watcher: {e}")),
            Ok(Ok(ev)) if relevant(&ev) => {
                // Debounce: wait until the folder has been quiet for `quiet`.
                while rx.recv_timeout(quiet).is_ok() {}
                if !on_change() {
                    return Ok(());
                }
                // Files may have come or gone, and a link may lead elsewhere now. A folder
                // that cannot be watched now (a link into a folder since removed) is said,
                // and the rest go on being watched.
                now = what();
                targets = targets_of(&now);
                if let Err(e) = follow(&mut w, &now, &targets) {
                    eprintln!("warning: {e}; saves there are not seen");
                }
            }
            Ok(Ok(_)) => {}
        }
    }
}

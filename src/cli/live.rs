//! `sowkit watch` and `sowkit serve`: rebuild on save (logic in `sowkit::live` and
//! `sowkit::serve`).

use super::Input;
use sowkit::kitdiff::Change;
use sowkit::layout::Paper;
use sowkit::live::{self, Rebuild};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Quiet time that ends a burst of file events (one save).
const DEBOUNCE: Duration = Duration::from_millis(25);

/// Reads every input afresh (files change; bundled rulesets do not) and builds them, in `lang`
/// if given (`serve --lang`).
fn rebuild(inputs: &[Input], paper: Option<Paper>, lang: Option<&str>) -> Rebuild {
    let mut sources = Vec::new();
    let mut problems = Vec::new();
    for i in inputs {
        match i.read() {
            Ok(s) => sources.push((i.display(), s)),
            Err(d) => problems.push(d.rendered),
        }
    }
    if !problems.is_empty() {
        return Rebuild::failed(problems.join("\n\n"));
    }
    live::build_sources(&sources, paper, lang)
}

/// Prints a rebuild's warnings to stderr, as `check` does; the same warnings as the last
/// rebuild's (`last`) are only counted, so a save that changes nothing about them adds one
/// line. With `-q`, none (errors only, as `check -q`).
fn tell_warnings(warnings: &[String], last: &mut Vec<String>) {
    if warnings.is_empty() || super::diag::quiet() {
        // Nothing to say.
    } else if warnings == last.as_slice() {
        eprintln!(
            "{} warning(s), as at the last rebuild (sowkit check lists them)",
            warnings.len()
        );
    } else {
        for w in warnings {
            eprintln!("{w}\n");
        }
    }
    *last = warnings.to_vec();
}

fn files_of(inputs: &[Input]) -> Vec<PathBuf> {
    inputs
        .iter()
        .filter_map(|i| match i {
            Input::File(p) => Some(p.clone()),
            _ => None,
        })
        .collect()
}

fn describe(changes: &[Change]) -> String {
    let (mut w, mut r) = (0, 0);
    for c in changes {
        match c {
            Change::Stale(_) => r += 1,
            // A kit folder written whole counts its files (a new 21-file kit read "1 file").
            Change::Missing(p) if p.is_dir() => {
                w += std::fs::read_dir(p).map_or(1, |d| d.count().max(1));
            }
            _ => w += 1,
        }
    }
    format!("{w} file(s) written, {r} removed")
}

/// The rulesets `watch` and `serve` were given: the paths as typed (files and folders) and the
/// bundled ids. Folders are listed again at every save, so a ruleset added to one is built
/// and one removed from it is dropped.
pub struct Given {
    /// Files and folders as typed (none: `./rulesets`, unless bundled ids are given).
    pub paths: Vec<PathBuf>,
    /// Bundled ruleset ids (`serve --bundled`).
    pub bundled: Vec<String>,
    /// The command (`watch` or `serve`), for the hint when nothing is given.
    pub command: &'static str,
}

impl Given {
    /// The inputs now: every folder listed afresh. Errors: as `build` (a folder with no
    /// `.toml` file, a missing file).
    pub fn inputs(&self) -> Result<Vec<Input>, String> {
        let files = if self.paths.is_empty() && !self.bundled.is_empty() {
            Ok(Vec::new())
        } else {
            crate::expand(&self.paths, self.command)
        };
        files.and_then(|f| super::inputs(f, &self.bundled))
    }

    /// What to watch: the files of the inputs now (the files typed, when listing a folder
    /// fails), and the folders typed.
    fn watched(&self) -> live::Watched {
        let folders: Vec<PathBuf> = if self.paths.is_empty() && self.bundled.is_empty() {
            vec![PathBuf::from("rulesets")]
        } else {
            self.paths.iter().filter(|p| p.is_dir()).cloned().collect()
        };
        let files = match self.inputs() {
            Ok(i) => files_of(&i),
            Err(_) => self.paths.iter().filter(|p| !p.is_dir()).cloned().collect(),
        };
        live::Watched { files, folders }
    }
}

/// Says which rulesets joined or left the set since `before` (display names), for `watch`
/// (`serving` false) and `serve` (true): a ruleset that left a folder is no longer built, and
/// no longer served.
fn tell_changes(before: &[String], now: &[Input], serving: bool) -> Vec<String> {
    let now: Vec<String> = now.iter().map(Input::display).collect();
    let mut lines: Vec<String> = now
        .iter()
        .filter(|n| !before.contains(n))
        .map(|n| format!("added {n} (new in its folder)"))
        .collect();
    lines.extend(
        before
            .iter()
            .filter(|b| !now.contains(b))
            .map(|b| {
                if serving {
                    format!("no longer serving {b}: it left its folder")
                } else {
                    format!("no longer building {b}: it left its folder (a kit it had in the output folder stays there)")
                }
            }),
    );
    lines
}

/// One rebuild of `watch`: a failing check prints its diagnostics and leaves `out` untouched;
/// warnings are printed as [`tell_warnings`] says (`warned`: the last rebuild's).
fn watch_once(
    inputs: &[Input],
    paper: Option<Paper>,
    out: &Path,
    warned: &mut Vec<String>,
) -> bool {
    let t = Instant::now();
    let r = rebuild(inputs, paper, None);
    match r.kits {
        Err(e) => {
            // The errors first, then the warnings (as `check` prints them), then the verdict.
            eprintln!("{e}\n");
            tell_warnings(&r.warnings, warned);
            eprintln!(
                "error: the check failed, so no kit was rebuilt (the rulesets are built together); the kits in {} were left untouched",
                out.display()
            );
            false
        }
        Ok(built) => {
            tell_warnings(&r.warnings, warned);
            // The files as given (a name that is not UTF-8 included), not their display names.
            let sources = files_of(inputs);
            let kits: Vec<_> = built.into_iter().map(|b| b.kit).collect();
            match live::write_changed(&kits, &sources, out) {
                Ok(ch) => {
                    println!(
                        "rebuilt {} kit(s) in {} ms: {}",
                        kits.len(),
                        t.elapsed().as_millis(),
                        describe(&ch)
                    );
                    for c in &ch {
                        // What was done, not `build --check`'s "would change" / "missing".
                        match c {
                            Change::Differs(p) => println!("  rewrote {}", p.display()),
                            Change::Missing(p) => println!("  wrote {}", p.display()),
                            Change::Stale(p) => println!("  removed {}", p.display()),
                        }
                    }
                    let _ = std::io::stdout().flush();
                    true
                }
                Err(e) => {
                    eprintln!("error: cannot write to {}: {e}", out.display());
                    false
                }
            }
        }
    }
}

/// `sowkit watch FILES -o OUT`: builds now, then again on every save, writing only the files
/// whose bytes changed. A folder's rulesets are listed again at each save. Runs until
/// interrupted; exit 1 if watching cannot start. With `-q`, standard error has errors only
/// (no warnings, no "watching" line); standard output still lists what was written.
pub fn watch(given: Given, out: &Path, paper: Option<Paper>) -> ExitCode {
    let inputs = match given.inputs() {
        Ok(i) => i,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    if files_of(&inputs).is_empty() {
        eprintln!("error: watch needs ruleset files to watch");
        return ExitCode::from(1);
    }
    let mut names: Vec<String> = inputs.iter().map(Input::display).collect();
    // The last rebuild's warnings (`on_ready` runs before any `on_change`).
    let warned = std::cell::RefCell::new(Vec::new());
    match live::watch(
        || given.watched(),
        DEBOUNCE,
        || {
            watch_once(&inputs, paper, out, &mut warned.borrow_mut());
            super::diag::info(&format!(
                "watching {} file(s); kits go to {}; Ctrl-C to stop",
                files_of(&inputs).len(),
                out.display()
            ));
        },
        || {
            match given.inputs() {
                Ok(now) => {
                    for l in tell_changes(&names, &now, false) {
                        println!("{l}");
                    }
                    names = now.iter().map(Input::display).collect();
                    watch_once(&now, paper, out, &mut warned.borrow_mut());
                }
                Err(e) => eprintln!(
                    "{e}\n\nerror: the kits in {} were left untouched",
                    out.display()
                ),
            }
            true
        },
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// `sowkit serve FILES [--port N]`: serves the kits and the play-test page on 127.0.0.1,
/// rebuilding on every save. Runs until interrupted; exit 1 if the port cannot be bound.
/// With `-q`, standard error has errors only (no warnings, no "rebuilt" lines); the pages
/// still show the warnings. `lang` (`--lang`) is the language of every kit and page, as
/// `build --lang` (`None`: each ruleset's own).
pub fn serve(given: Given, port: u16, paper: Option<Paper>, lang: Option<String>) -> ExitCode {
    let inputs = match given.inputs() {
        Ok(i) => i,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let listener = match sowkit::serve::bind(port) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: cannot listen on 127.0.0.1:{port}: {e} (try another --port, or leave it out for a free one)");
            return ExitCode::from(1);
        }
    };
    let first = rebuild(&inputs, paper, lang.as_deref());
    let mut warned = Vec::new();
    // The errors first, then the warnings (as `check` prints them), then the verdict.
    if let Err(e) = &first.kits {
        eprintln!("{e}\n");
    }
    tell_warnings(&first.warnings, &mut warned);
    if first.kits.is_err() {
        eprintln!("error: the check failed; the page shows this until a save fixes it");
    }
    let shared = sowkit::serve::Shared::new(first, lang.clone());
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if !files_of(&inputs).is_empty() {
        let shared = shared.clone();
        let mut names: Vec<String> = inputs.iter().map(Input::display).collect();
        // The address is printed only once saves are followed, so a save made as soon as it
        // shows is never missed (a test that saved at once waited 120 s for a rebuild).
        let (ready_tx, ready_rx) = std::sync::mpsc::channel::<()>();
        std::thread::spawn(move || {
            let r = live::watch(
                || given.watched(),
                DEBOUNCE,
                move || {
                    let _ = ready_tx.send(());
                },
                || {
                    let t = Instant::now();
                    let result = match given.inputs() {
                        Ok(now) => {
                            for l in tell_changes(&names, &now, true) {
                                super::diag::info(&l);
                            }
                            names = now.iter().map(Input::display).collect();
                            rebuild(&now, paper, lang.as_deref())
                        }
                        Err(e) => Rebuild::failed(e),
                    };
                    match &result.kits {
                        Ok(k) => {
                            tell_warnings(&result.warnings, &mut warned);
                            super::diag::info(&format!(
                                "rebuilt {} kit(s) in {} ms",
                                k.len(),
                                t.elapsed().as_millis()
                            ))
                        }
                        Err(e) => {
                            eprintln!("{e}\n");
                            tell_warnings(&result.warnings, &mut warned);
                            eprintln!("error: the check failed; serving the last good kit")
                        }
                    }
                    shared.update(result);
                    true
                },
            );
            if let Err(e) = r {
                eprintln!("error: {e}; the page no longer follows saves");
            }
        });
        // Ready, or the watcher failed (its sender is gone: the error is printed) or is slow
        // to start: the page is served either way.
        let _ = ready_rx.recv_timeout(Duration::from_secs(10));
    }
    println!("serving http://{addr}/");
    let _ = std::io::stdout().flush();
    match sowkit::serve::run(listener, shared) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

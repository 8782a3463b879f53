//! `sowkit watch` and `sowkit serve`: rebuild on save (logic in `sowkit::live` and
//! `sowkit::serve`).

use super::Input;
use sowkit::kitdiff::Change;
use sowkit::layout::Paper;
use sowkit::live::{self, Built};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Quiet time that ends a burst of file events (one save).
const DEBOUNCE: Duration = Duration::from_millis(25);

/// Reads every input afresh (files change; bundled rulesets do not) and builds them.
fn rebuild(inputs: &[Input], paper: Option<Paper>) -> Result<Vec<Built>, String> {
    let mut sources = Vec::new();
    let mut problems = Vec::new();
    for i in inputs {
        match i.read() {
            Ok(s) => sources.push((i.display(), s)),
            Err(d) => problems.push(d.rendered),
        }
    }
    if !problems.is_empty() {
        return Err(problems.join("\n\n"));
    }
    live::build_sources(&sources, paper)
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
            _ => w += 1,
        }
    }
    format!("{w} file(s) written, {r} removed")
}

/// One rebuild of `watch`: a failing check prints its diagnostics and leaves `out` untouched.
fn watch_once(inputs: &[Input], paper: Option<Paper>, out: &Path) -> bool {
    let t = Instant::now();
    match rebuild(inputs, paper) {
        Err(e) => {
            eprintln!(
                "{e}\n\nerror: the check failed; the kits in {} were left untouched",
                out.display()
            );
            false
        }
        Ok(built) => {
            let kits: Vec<_> = built.into_iter().map(|b| b.kit).collect();
            match live::write_changed(&kits, out) {
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
/// whose bytes changed. Runs until interrupted; exit 1 if watching cannot start.
pub fn watch(inputs: Vec<Input>, out: &Path, paper: Option<Paper>) -> ExitCode {
    let files = files_of(&inputs);
    if files.is_empty() {
        eprintln!("error: watch needs ruleset files to watch");
        return ExitCode::from(1);
    }
    watch_once(&inputs, paper, out);
    eprintln!(
        "watching {} file(s); kits go to {}; Ctrl-C to stop",
        files.len(),
        out.display()
    );
    match live::watch(&files, DEBOUNCE, || {
        watch_once(&inputs, paper, out);
        true
    }) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// `sowkit serve FILES [--port N]`: serves the kits and the play-test page on 127.0.0.1,
/// rebuilding on every save. Runs until interrupted; exit 1 if the port cannot be bound.
pub fn serve(inputs: Vec<Input>, port: u16, paper: Option<Paper>) -> ExitCode {
    let listener = match sowkit::serve::bind(port) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: cannot listen on 127.0.0.1:{port}: {e} (try another --port, or leave it out for a free one)");
            return ExitCode::from(1);
        }
    };
    let (kits, error) = match rebuild(&inputs, paper) {
        Ok(k) => (k, None),
        Err(e) => {
            eprintln!("{e}\n\nerror: the check failed; the page shows this until a save fixes it");
            (Vec::new(), Some(e))
        }
    };
    let shared = sowkit::serve::Shared::new(kits, error);
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    println!("serving http://{addr}/");
    let _ = std::io::stdout().flush();
    let files = files_of(&inputs);
    if !files.is_empty() {
        let shared = shared.clone();
        std::thread::spawn(move || {
            let r = live::watch(&files, DEBOUNCE, || {
                let t = Instant::now();
                let result = rebuild(&inputs, paper);
                match &result {
                    Ok(k) => eprintln!(
                        "rebuilt {} kit(s) in {} ms",
                        k.len(),
                        t.elapsed().as_millis()
                    ),
                    Err(e) => {
                        eprintln!("{e}\n\nerror: the check failed; serving the last good kit")
                    }
                }
                shared.update(result);
                true
            });
            if let Err(e) = r {
                eprintln!("error: {e}; the page no longer follows saves");
            }
        });
    }
    match sowkit::serve::run(listener, shared) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

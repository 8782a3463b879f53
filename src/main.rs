//! `sowkit` command line: `build` and `check`.
use clap::{Parser, Subcommand, ValueEnum};
use sowkit::layout::{A4, LETTER};
use sowkit::ruleset::{self, Diagnostic, Ruleset};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Turns mancala rulesets (TOML) into print-and-play kits: PDF and SVG at 100% scale.
#[derive(Parser)]
#[command(name = "sowkit", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum PaperArg {
    /// ISO A4, 210 × 297 mm.
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
}

#[derive(Subcommand)]
enum Command {
    /// Check every worked example, then write one kit per ruleset to OUT/<id>/.
    /// Writes nothing at all if any ruleset or example is wrong.
    Build {
        /// Ruleset files or folders of them [default: ./rulesets]
        rulesets: Vec<PathBuf>,
        /// Output folder; each kit goes to OUT/<id>/
        #[arg(short, long, default_value = "out")]
        out: PathBuf,
        /// Paper size
        #[arg(long, value_enum, default_value = "a4")]
        paper: PaperArg,
    },
    /// Validate rulesets and replay their worked examples; write nothing.
    Check {
        /// Ruleset files or folders of them [default: ./rulesets]
        rulesets: Vec<PathBuf>,
    },
}

/// Expands folders into their `*.toml` files, sorted; keeps files as given.
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let paths = if paths.is_empty() {
        vec![PathBuf::from("rulesets")]
    } else {
        paths.to_vec()
    };
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(&p)
                .map_err(|e| format!("error: cannot read folder {}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "toml") && f.is_file())
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(format!(
                    "error: folder {} holds no .toml rulesets",
                    p.display()
                ));
            }
            out.extend(found);
        } else if p.exists() {
            out.push(p);
        } else {
            return Err(format!(
                "error: {} does not exist (give ruleset files or a folder of them)",
                p.display()
            ));
        }
    }
    Ok(out)
}

/// Loads and checks every ruleset; prints every problem; returns the rulesets if all passed.
fn load_and_check(files: &[PathBuf]) -> Option<Vec<Ruleset>> {
    let mut ok = Vec::new();
    let mut failed = 0usize;
    let mut ids: Vec<(String, PathBuf)> = Vec::new();
    for f in files {
        let diags: Vec<Diagnostic> = match read(f) {
            Err(d) => vec![d],
            Ok(src) => match ruleset::load_str(&f.display().to_string(), &src) {
                Err(d) => d,
                Ok(rs) => {
                    let d = sowkit::examples::check(&rs, &src);
                    if d.is_empty() {
                        if let Some((_, other)) = ids.iter().find(|(id, _)| *id == rs.id) {
                            eprintln!(
                                "error: {} and {} both have id {:?}: kits would overwrite each other; give each ruleset its own id",
                                other.display(),
                                f.display(),
                                rs.id
                            );
                            failed += 1;
                            continue;
                        }
                        ids.push((rs.id.clone(), f.clone()));
                        eprintln!(
                            "ok: {} ({} worked examples agree with the engine)",
                            f.display(),
                            rs.examples.len()
                        );
                        ok.push(rs);
                    }
                    d
                }
            },
        };
        if !diags.is_empty() {
            failed += 1;
            for d in &diags {
                eprintln!("{}\n", d.rendered);
            }
            eprintln!("{}: {} problem(s)", f.display(), diags.len());
        }
    }
    if failed > 0 {
        eprintln!(
            "{failed} of {} ruleset(s) failed; nothing was written",
            files.len()
        );
        None
    } else {
        Some(ok)
    }
}

fn read(f: &Path) -> Result<String, Diagnostic> {
    let shown = f.display().to_string();
    let meta = std::fs::metadata(f)
        .map_err(|e| Diagnostic::whole_file(&shown, &format!("cannot read the file: {e}")))?;
    if meta.len() > ruleset::load::MAX_FILE_BYTES {
        return Err(Diagnostic::whole_file(
            &shown,
            "the file is larger than 1 MiB; a ruleset is a small text file",
        ));
    }
    let bytes = std::fs::read(f)
        .map_err(|e| Diagnostic::whole_file(&shown, &format!("cannot read the file: {e}")))?;
    String::from_utf8(bytes)
        .map_err(|_| Diagnostic::whole_file(&shown, "the file is not UTF-8 text; save it as UTF-8"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { rulesets } => {
            let files = match expand(&rulesets) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            };
            match load_and_check(&files) {
                Some(_) => ExitCode::SUCCESS,
                None => ExitCode::from(1),
            }
        }
        Command::Build {
            rulesets,
            out,
            paper,
        } => {
            let paper = match paper {
                PaperArg::A4 => A4,
                PaperArg::Letter => LETTER,
            };
            let files = match expand(&rulesets) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            };
            let Some(all) = load_and_check(&files) else {
                return ExitCode::from(1);
            };
            // Lay out and render everything in memory first: write nothing unless all succeed.
            let mut kits = Vec::new();
            for rs in &all {
                match sowkit::kit::make(rs, paper) {
                    Ok(k) => kits.push(k),
                    Err(e) => {
                        eprintln!(
                            "error: {}: cannot lay out the kit: {e}; nothing was written",
                            rs.path
                        );
                        return ExitCode::from(1);
                    }
                }
            }
            for k in &kits {
                match sowkit::kit::write(k, &out) {
                    Ok(dir) => println!(
                        "wrote {} ({} pages, {} files)",
                        dir.display(),
                        k.document.pages.len(),
                        k.files.len()
                    ),
                    Err(e) => {
                        eprintln!("error: cannot write {}: {e}", out.join(&k.id).display());
                        return ExitCode::from(1);
                    }
                }
            }
            ExitCode::SUCCESS
        }
    }
}

//! `sowkit` command line: `build` and `check`.
use clap::{Parser, Subcommand};
use sowkit::layout::{KitOptions, Paper, A4, LETTER};
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
        /// Paper: a4, letter, a3, tabloid, legal, or WxHmm / WxHin (e.g. 420x594mm, 11x17in)
        /// [default: the ruleset's layout.paper, else a4]
        #[arg(long, value_parser = Paper::parse)]
        paper: Option<Paper>,
        /// Shrink the board onto one sheet instead of tiling it at true size (the sheet says so)
        #[arg(long)]
        fit: bool,
        /// Child-safe counters: at least 32 mm across (cannot be swallowed), pits grown to hold them
        #[arg(long)]
        child_safe: bool,
        /// Also write a 3D-printable board (STL parts, joiners, seeds, previews) into each kit
        #[arg(long = "3d")]
        three_d: bool,
        /// Printer bed for --3d, WIDTHxDEPTH in millimetres
        #[arg(long, default_value = "200x200", requires = "three_d")]
        bed: String,
    },
    /// Validate rulesets and replay their worked examples; write nothing.
    Check {
        /// Ruleset files or folders of them [default: ./rulesets]
        rulesets: Vec<PathBuf>,
        /// Also lay out on this paper (see `build --paper`); without it, on the ruleset's
        /// layout.paper, A4 and Letter
        #[arg(long, value_parser = Paper::parse)]
        paper: Option<Paper>,
    },
}

/// Expands folders into their `*.toml` files, sorted; keeps files as given.
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    if paths.is_empty() && !Path::new("rulesets").is_dir() {
        return Err("error: no rulesets given, and there is no ./rulesets folder (the default): give ruleset files, e.g. `sowkit build my-game.toml`".to_string());
    }
    let paths = if paths.is_empty() {
        vec![PathBuf::from("rulesets")]
    } else {
        paths.to_vec()
    };
    let mut out = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(&p).map_err(|e| {
            format!(
                "error: {} (give ruleset files or a folder of them)",
                sowkit::kitdir::explain_missing(&p, &e)
            )
        })?;
        if meta.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(&p)
                .map_err(|e| format!("error: cannot read folder {}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| {
                    f.extension()
                        .is_some_and(|x| x.eq_ignore_ascii_case("toml"))
                        && f.is_file()
                })
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(format!(
                    "error: folder {} holds no .toml rulesets (sub-folders are not searched)",
                    p.display()
                ));
            }
            out.extend(found);
        } else {
            out.push(p);
        }
    }
    Ok(out)
}

/// Loads and checks every ruleset; prints every problem; returns the rulesets if all passed.
/// `writes` says whether the command would have written output (for the closing message).
fn load_and_check(files: &[PathBuf], writes: bool) -> Option<Vec<Ruleset>> {
    let mut ok = Vec::new();
    let mut failed = 0usize;
    let mut ids: Vec<(String, PathBuf)> = Vec::new();
    for f in files {
        let diags: Vec<Diagnostic> = match ruleset::load::read_source(f) {
            Err(d) => vec![d],
            Ok(src) => match ruleset::load_str(&f.display().to_string(), &src) {
                Err(d) => d,
                Ok(rs) => {
                    let mut d = sowkit::examples::check(&rs, &src);
                    d.extend(sowkit::examples::sanity(&rs, &src));
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
                        let n = rs.examples.len();
                        if n == 0 {
                            eprintln!("warning: {}: no worked examples, so nothing checks these rules against the engine; add [[example]] tables (README, \"Worked examples\")", f.display());
                        }
                        eprintln!(
                            "ok: {} ({n} worked example{} agree{} with the engine)",
                            f.display(),
                            if n == 1 { "" } else { "s" },
                            if n == 1 { "s" } else { "" },
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
            "{failed} of {} ruleset(s) failed{}",
            files.len(),
            if writes { "; nothing was written" } else { "" }
        );
        None
    } else {
        Some(ok)
    }
}

/// A layout failure in the user's terms: which fields to change.
fn layout_problem(e: &str, paper: &str) -> String {
    // Only a size problem is helped by changing sizes.
    let hint = if e.contains("fit") && !e.contains("pit label") {
        " (try a smaller layout.pit_diameter, layout.pit_gap or layout.store_length, or fewer board.pits_per_side)"
    } else {
        ""
    };
    format!("cannot lay out the kit on {paper} paper: {e}{hint}")
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { rulesets, paper } => {
            let files = match expand(&rulesets) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            };
            let Some(all) = load_and_check(&files, false) else {
                return ExitCode::from(1);
            };
            // Layout is part of what `build` needs: check it on both papers too.
            let papers_for = |rs: &Ruleset| -> Vec<Paper> {
                match paper {
                    Some(p) => vec![p],
                    None => {
                        let mut v: Vec<Paper> = rs.layout.paper.into_iter().collect();
                        for p in [A4, LETTER] {
                            if !v.contains(&p) {
                                v.push(p);
                            }
                        }
                        v
                    }
                }
            };
            let problems = sowkit::build::check_layout(&all, papers_for);
            for (path, paper, e) in &problems {
                eprintln!("error: {path}: {}", layout_problem(e, paper));
            }
            if !problems.is_empty() {
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Command::Build {
            rulesets,
            out,
            paper,
            fit,
            child_safe,
            three_d,
            bed,
        } => {
            let bed = match sowkit::mesh::Bed::parse(&bed) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            };
            let files = match expand(&rulesets) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            };
            let Some(all) = load_and_check(&files, true) else {
                return ExitCode::from(1);
            };
            // Each kit is staged as soon as it is rendered; none is switched in unless all are.
            let opts_for = |rs: &Ruleset| KitOptions {
                paper: paper.or(rs.layout.paper).unwrap_or(A4),
                fit,
                child_safe,
            };
            let extra = |rs: &Ruleset| {
                if three_d {
                    sowkit::mesh::kit_files(rs, child_safe, bed)
                } else {
                    Ok(Vec::new())
                }
            };
            match sowkit::build::build_all_with(&all, opts_for, extra, &out) {
                Ok(built) => {
                    for b in &built {
                        println!(
                            "wrote {} ({} pages, host key {} pages, {} files)",
                            b.dir.display(),
                            b.pages,
                            b.key_pages,
                            b.files
                        );
                    }
                    ExitCode::SUCCESS
                }
                Err(sowkit::build::BuildError::Layout {
                    path,
                    paper,
                    message,
                }) => {
                    eprintln!(
                        "error: {path}: {}; nothing was written",
                        layout_problem(&message, &paper)
                    );
                    ExitCode::from(1)
                }
                Err(sowkit::build::BuildError::Extra { path, message }) => {
                    eprintln!(
                        "error: {path}: cannot make the 3D board: {message}; nothing was written"
                    );
                    ExitCode::from(1)
                }
                Err(sowkit::build::BuildError::Io(e)) => {
                    eprintln!(
                        "error: cannot write the kits to {}: {e}; nothing was changed there",
                        out.display()
                    );
                    ExitCode::from(1)
                }
            }
        }
    }
}

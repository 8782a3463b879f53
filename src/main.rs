//! `sowkit` command line: `build` and `check`.
use clap::{Parser, Subcommand, ValueEnum};
use sowkit::layout::{KitOptions, A4, LETTER};
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
        #[arg(long, value_enum, default_value = "a4", ignore_case = true)]
        paper: PaperArg,
        /// Language of every printed word (a catalogue in templates/: en, es)
        /// [default: each ruleset's own `lang`]
        #[arg(long)]
        lang: Option<String>,
    },
    /// Validate rulesets and replay their worked examples; write nothing.
    Check {
        /// Ruleset files or folders of them [default: ./rulesets]
        rulesets: Vec<PathBuf>,
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
        if p.is_dir() {
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
        Command::Check { rulesets } => {
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
            // Layout is part of what `build` needs: check it on both papers, in every
            // language the ruleset has text in.
            let mut bad = 0;
            for rs in &all {
                for lang in rs.languages() {
                    for paper in [A4, LETTER] {
                        let opts = KitOptions {
                            lang: Some(lang.clone()),
                            ..KitOptions::new(paper)
                        };
                        if let Err(e) = sowkit::layout::kit(rs, &opts)
                            .and_then(|_| sowkit::layout::host_key(rs, &opts))
                        {
                            eprintln!(
                                "error: {}: [{lang}] {}",
                                rs.path,
                                layout_problem(&e, paper.name)
                            );
                            bad += 1;
                        }
                    }
                }
            }
            if bad > 0 {
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Command::Build {
            rulesets,
            out,
            paper,
            lang,
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
            let Some(all) = load_and_check(&files, true) else {
                return ExitCode::from(1);
            };
            // Lay out and render everything in memory first: write nothing unless all succeed.
            let mut kits = Vec::new();
            for rs in &all {
                let opts = KitOptions {
                    lang: lang.clone(),
                    ..KitOptions::new(paper)
                };
                match sowkit::kit::make(rs, &opts) {
                    Ok(k) => kits.push(k),
                    Err(e) => {
                        eprintln!(
                            "error: {}: {}; nothing was written",
                            rs.path,
                            layout_problem(&e, paper.name)
                        );
                        return ExitCode::from(1);
                    }
                }
            }
            match sowkit::kit::write_all(&kits, &out) {
                Ok(dirs) => {
                    for (dir, k) in dirs.iter().zip(&kits) {
                        println!(
                            "wrote {} ({} pages, host key {} pages, {} files)",
                            dir.display(),
                            k.document.pages.len(),
                            k.host_key.pages.len(),
                            k.files.len()
                        );
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
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

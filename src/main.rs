//! `sowkit` command line: `build` and `check`, and the designer's loop (`src/cli/`).
mod cli;

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
        /// Language of every printed word: en or es (a catalogue in templates/)
        /// [default: each ruleset's own `lang`]
        #[arg(long)]
        lang: Option<String>,
        /// Print style: default (black on white), contrast (heavier black lines) or low-ink
        /// (greyscale, no large fills)
        #[arg(long, default_value = "default", value_parser = sowkit::layout::style::Style::parse)]
        style: sowkit::layout::style::Style,
        /// Write nothing: compare what would be written with OUT, list every file that would
        /// change and every stale file, exit 1 if anything differs (for CI)
        #[arg(long)]
        check: bool,
        /// Also build a bundled ruleset by id (`sowkit list`); works in any folder
        #[arg(long, value_name = "ID")]
        bundled: Vec<String>,
    },
    /// Replay moves from the start (or a position): a text board per ply, JSON, or a ready
    /// [[example]] table.
    Replay {
        /// Ruleset file (`-` reads standard input)
        #[arg(required_unless_present = "bundled")]
        ruleset: Option<PathBuf>,
        /// A bundled ruleset by id instead of a file
        #[arg(long, value_name = "ID", conflicts_with = "ruleset")]
        bundled: Option<String>,
        /// The moves, separated by spaces or commas, e.g. "A3 B2" ("A3> B2<" when the mover
        /// chooses the direction)
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        moves: String,
        /// Start position in notation form, e.g. "A 1 0 2 (4) / B 3 3 2 (3); A" [default: the
        /// ruleset's start]
        #[arg(long)]
        from: Option<String>,
        /// Output: text boards or the versioned JSON shape (README, "Replay")
        #[arg(long, value_enum, default_value = "text")]
        format: cli::ReplayFormat,
        /// Print a ready [[example]] table with every expectation filled in
        #[arg(long)]
        emit_example: bool,
        /// Title of the emitted example
        #[arg(long, requires = "emit_example")]
        title: Option<String>,
    },
    /// Write a new commented ruleset, started from a bundled one, that passes `check`.
    New {
        /// Name of the game ("My Kalah" writes my-kalah.toml) or a file name ending in .toml
        name: String,
        /// Bundled ruleset to start from (`sowkit list`)
        #[arg(long, value_name = "ID", default_value = "kalah-6x4")]
        from: String,
    },
    /// List the bundled rulesets, one line each.
    List,
    /// Rebuild kits on every save, rewriting only the files whose bytes changed; a failing
    /// check prints the diagnostic and leaves the last kit untouched.
    Watch {
        /// Ruleset files or folders of them [default: ./rulesets]
        rulesets: Vec<PathBuf>,
        /// Output folder; each kit goes to OUT/<id>/
        #[arg(short, long, default_value = "out")]
        out: PathBuf,
        /// Paper (as for build) [default: the ruleset's layout.paper, else a4]
        #[arg(long, value_parser = Paper::parse)]
        paper: Option<Paper>,
    },
    /// Serve the kits and a play-test page on 127.0.0.1, refreshed on every save.
    Serve {
        /// Ruleset files or folders of them [default: ./rulesets, unless --bundled is given]
        rulesets: Vec<PathBuf>,
        /// Also serve a bundled ruleset by id
        #[arg(long, value_name = "ID")]
        bundled: Vec<String>,
        /// Port on 127.0.0.1 [default: a free one]
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Paper (as for build) [default: the ruleset's layout.paper, else a4]
        #[arg(long, value_parser = Paper::parse)]
        paper: Option<Paper>,
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
fn load_and_check(files: &[cli::Input], writes: bool) -> Option<Vec<Ruleset>> {
    let mut ok = Vec::new();
    let mut failed = 0usize;
    let mut ids: Vec<(String, String)> = Vec::new();
    for input in files {
        let f = input.display();
        let diags: Vec<Diagnostic> = match input.read() {
            Err(d) => vec![d],
            Ok(src) => match ruleset::load_str(&f, &src) {
                Err(d) => d,
                Ok(rs) => {
                    let mut d = sowkit::examples::check(&rs, &src);
                    d.extend(sowkit::examples::sanity(&rs, &src));
                    if d.is_empty() {
                        if let Some((_, other)) = ids.iter().find(|(id, _)| *id == rs.id) {
                            eprintln!(
                                "error: {} and {} both have id {:?}: kits would overwrite each other; give each ruleset its own id",
                                other,
                                f,
                                rs.id
                            );
                            failed += 1;
                            continue;
                        }
                        ids.push((rs.id.clone(), f.clone()));
                        let n = rs.examples.len();
                        if n == 0 {
                            eprintln!("warning: {}: no worked examples, so nothing checks these rules against the engine; add [[example]] tables (README, \"Worked examples\")", f);
                        }
                        eprintln!(
                            "ok: {} ({n} worked example{} agree{} with the engine)",
                            f,
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
            eprintln!("{}: {} problem(s)", f, diags.len());
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
        Command::Replay {
            ruleset,
            bundled,
            moves,
            from,
            format,
            emit_example,
            title,
        } => {
            let files: Vec<PathBuf> = ruleset.into_iter().collect();
            let ids: Vec<String> = bundled.into_iter().collect();
            let input = match cli::inputs(files, &ids) {
                Ok(mut v) if v.len() == 1 => v.remove(0),
                Ok(_) => {
                    eprintln!("error: give one ruleset file, or --bundled ID");
                    return ExitCode::from(1);
                }
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            };
            cli::replay(
                input,
                &moves,
                from.as_deref(),
                format,
                emit_example,
                title.as_deref(),
            )
        }
        Command::New { name, from } => cli::new(&name, &from),
        Command::List => cli::list(),
        Command::Watch {
            rulesets,
            out,
            paper,
        } => match expand(&rulesets).and_then(|f| cli::inputs(f, &[])) {
            Ok(inputs) => cli::live::watch(inputs, &out, paper),
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(1)
            }
        },
        Command::Serve {
            rulesets,
            bundled,
            port,
            paper,
        } => {
            let files = if rulesets.is_empty() && !bundled.is_empty() {
                Ok(Vec::new())
            } else {
                expand(&rulesets)
            };
            match files.and_then(|f| cli::inputs(f, &bundled)) {
                Ok(inputs) => cli::live::serve(inputs, port, paper),
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Check { rulesets, paper } => {
            let files = match expand(&rulesets) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            };
            let files = match cli::inputs(files, &[]) {
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
            lang,
            style,
            check,
            bundled,
        } => {
            // Only bundled rulesets asked for: no default ./rulesets folder.
            let files = if rulesets.is_empty() && !bundled.is_empty() {
                Ok(Vec::new())
            } else {
                expand(&rulesets)
            };
            let files = match files.and_then(|f| cli::inputs(f, &bundled)) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            };
            if let Some(l) = &lang {
                let have = sowkit::layout::phrases::languages();
                if !have.contains(&l.as_str()) {
                    eprintln!(
                        "error: --lang {l}: there is no message catalogue for {l:?}: use one of {} (or add templates/{l}.toml, README \"Languages\")",
                        have.join(", ")
                    );
                    return ExitCode::from(2);
                }
            }
            let Some(all) = load_and_check(&files, !check) else {
                return ExitCode::from(1);
            };
            let opts_for = |rs: &Ruleset| KitOptions {
                paper: paper.or(rs.layout.paper).unwrap_or(A4),
                fit,
                child_safe,
                lang: lang.clone(),
                style,
            };
            if check {
                // Regenerate in memory and compare with OUT; write nothing.
                let mut kits = Vec::new();
                for rs in &all {
                    let opts = opts_for(rs);
                    match sowkit::kit::make(rs, &opts) {
                        Ok(k) => kits.push(k),
                        Err(e) => {
                            eprintln!(
                                "error: {}: {}; nothing was written",
                                rs.path,
                                layout_problem(&e, &opts.paper.name)
                            );
                            return ExitCode::from(1);
                        }
                    }
                }
                return cli::check_out(&kits, &out);
            }
            // Each kit is staged as soon as it is rendered; none is switched in unless all are.
            match sowkit::build::build_all(&all, opts_for, &out) {
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

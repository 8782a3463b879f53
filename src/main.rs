//! `sowkit` command line: `build` and `check`, and the designer's loop (`src/cli/`).
mod cli;

use clap::{Parser, Subcommand, ValueEnum};
use sowkit::layout::{KitOptions, Paper, A4, LETTER};
use sowkit::ruleset::{self, Diagnostic, Ruleset};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Turns mancala rulesets (TOML) into print-and-play kits: PDF and SVG at 100% scale.
#[derive(Parser)]
#[command(name = "sowkit", version, about, after_help = HELP_AFTER)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour diagnostics: auto (a terminal, and NO_COLOR not set), always, never
    #[arg(long, value_enum, global = true, default_value = "auto")]
    color: cli::diag::ColorChoice,
    /// Errors only: no `ok:` lines or warnings
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Also list each worked example as it is checked
    #[arg(short, long, global = true)]
    verbose: bool,
}

/// Shown after `sowkit --help`: a first session and the exit codes.
const HELP_AFTER: &str = "\
Examples:
  sowkit list                                  the bundled rulesets
  sowkit new \"My Kalah\" --from kalah-6x4       start a ruleset (my-kalah.toml)
  sowkit serve my-kalah.toml                   see the kit and play-test it while you edit
  sowkit build my-kalah.toml -o kits           write the kit
  sowkit build --check -o kits my-kalah.toml   in CI: is the committed kit up to date?

Exit codes:
  0  success
  1  a ruleset, worked example or move is wrong, a file cannot be read or written, or
     (build --check) the kits differ from what build would write
  2  the command line itself is wrong";

#[derive(Subcommand)]
enum Command {
    /// Check every worked example, then write one kit per ruleset to OUT/<id>/.
    /// Writes nothing at all if any ruleset or example is wrong.
    #[command(
        after_help = "Examples:\n  sowkit build                              every ruleset in ./rulesets -> ./out/<id>/\n  sowkit build my.toml -o kits --paper letter\n  sowkit build --bundled oware-abapa -o kits\n  sowkit build --check -o kits rulesets      exit 1 and list the files if kits/ is stale\n\nExit codes: 0 written (or up to date with --check); 1 a ruleset is wrong, a file cannot be\nwritten, or (--check) something differs; 2 bad command line."
    )]
    Build {
        /// Ruleset files or folders of them [default: ./rulesets]
        rulesets: Vec<PathBuf>,
        /// Output folder; each kit goes to OUT/<id>/
        #[arg(short, long, default_value = "out")]
        out: PathBuf,
        /// Paper: a4, letter, a3, tabloid, legal, or WxHmm / WxHin / WxH" (e.g. 420x594mm, 11x17in)
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
        #[arg(long, value_parser = lang_tag)]
        lang: Option<String>,
        /// Print style: default (black on white), contrast (heavier black lines) or low-ink
        /// (greyscale, no large fills); add colour (or color) to give the two sides
        /// colour-blind-safe colours (Okabe–Ito vermillion and blue) on top of their single and
        /// double rings; add large for large print (body text at least 14 pt, labels at least
        /// 18 pt, every sheet re-laid out); join several with commas, e.g. --style large,contrast
        /// (names in any case)
        #[arg(long, default_value = "default", value_parser = sowkit::layout::style::Look::parse)]
        style: sowkit::layout::style::Look,
        /// Write nothing: compare what would be written with OUT, list every file that would
        /// change and every stale file, exit 1 if anything differs (for CI)
        #[arg(long)]
        check: bool,
        /// Also build a bundled ruleset by id (`sowkit list`); works in any folder
        #[arg(long, value_name = "ID", value_parser = bundled_id)]
        bundled: Vec<String>,
        /// Diagnostics: human (with a snippet), short (path:line:column: field: message), json
        /// (one object a line)
        #[arg(long, value_enum, default_value = "human")]
        format: cli::diag::DiagFormat,
        /// Also write a 3D-printable board (STL parts, joiners, seeds, previews) into each kit
        #[arg(long = "3d")]
        three_d: bool,
        /// Printer bed for --3d, WIDTHxDEPTH in millimetres or inches, plain digits (e.g. 250x210, 220.5x220mm, 9x9in)
        #[arg(long, default_value = "200x200", requires = "three_d")]
        bed: String,
    },
    /// Replay moves from the start (or a position): a text board per ply, JSON, or a ready
    /// [[example]] table.
    #[command(
        after_help = "Examples:\n  sowkit replay rulesets/six-pit-sowing.toml --moves \"A1 A2 B1\"\n  sowkit replay --bundled giuthi --moves \"A1< B1>\" --format json\n  sowkit replay my.toml --from \"A 1 0 2 (4) / B 3 3 2 (3); A\" --moves A1 --emit-example >> my.toml\n\nWrong worked examples, words or sizes are printed, and the ruleset is replayed anyway (so\n--emit-example can mend an example): exit 0.\nExit codes: 0 replayed; 1 the file cannot be read, a rule or the board's players, pit labels\nor stores are wrong, or a move cannot be read or played; 2 bad command line."
    )]
    Replay {
        /// Ruleset file (`-` reads standard input)
        #[arg(required_unless_present = "bundled")]
        ruleset: Option<PathBuf>,
        /// A bundled ruleset by id instead of a file
        #[arg(long, value_name = "ID", value_parser = bundled_id, conflicts_with = "ruleset")]
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
    #[command(
        after_help = "Examples:\n  sowkit new \"Garden Kalah\"                 writes garden-kalah.toml from kalah-6x4\n  sowkit new my-oware.toml --from oware-abapa\n\nExit codes: 0 written; 1 unknown --from id, or the file exists (never overwritten); 2 bad\ncommand line."
    )]
    New {
        /// Name of the game ("My Kalah" writes my-kalah.toml) or a file name ending in .toml
        name: String,
        /// Bundled ruleset to start from (`sowkit list`)
        #[arg(long, value_name = "ID", default_value = "kalah-6x4", value_parser = bundled_id)]
        from: String,
    },
    /// List the bundled rulesets, one line each.
    List,
    /// Rebuild kits on every save, rewriting only the files whose bytes changed; a failing
    /// check prints the diagnostic and leaves the last kit untouched.
    #[command(
        after_help = "Example:\n  sowkit watch my.toml -o kits\n\nRuns until interrupted. Exit codes: 1 the files cannot be watched; 2 bad command line."
    )]
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
    #[command(
        after_help = "Examples:\n  sowkit serve my.toml                     prints: serving http://127.0.0.1:PORT/\n  sowkit serve --bundled giuthi --port 8080\n\nListens on 127.0.0.1 only and answers only requests whose Host is 127.0.0.1:PORT or\nlocalhost:PORT; serves the kits from memory; never writes a file. Runs until interrupted.\nExit codes: 1 the port cannot be bound; 2 bad command line."
    )]
    Serve {
        /// Ruleset files or folders of them [default: ./rulesets, unless --bundled is given]
        rulesets: Vec<PathBuf>,
        /// Also serve a bundled ruleset by id
        #[arg(long, value_name = "ID", value_parser = bundled_id)]
        bundled: Vec<String>,
        /// Port on 127.0.0.1; 0 takes a free one
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Paper (as for build) [default: the ruleset's layout.paper, else a4]
        #[arg(long, value_parser = Paper::parse)]
        paper: Option<Paper>,
        /// Language of every printed word: en or es (a catalogue in templates/)
        /// [default: each ruleset's own `lang`]; the play-test page and the pages around the
        /// kit speak it too
        #[arg(long, value_parser = lang_tag)]
        lang: Option<String>,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(
        after_help = "Example:\n  sowkit completions bash > ~/.local/share/bash-completion/completions/sowkit"
    )]
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), generated from these definitions.
    #[command(after_help = "Example:\n  sowkit man > ~/.local/share/man/man1/sowkit.1")]
    Man,
    /// Print the JSON Schema of the ruleset format (for editors: Taplo, Even Better TOML).
    #[command(
        after_help = "Example:\n  sowkit schema > sowkit.schema.json\n  then put `#:schema ./sowkit.schema.json` on the first line of a ruleset"
    )]
    Schema,
    /// Validate rulesets and replay their worked examples; write nothing.
    #[command(
        after_help = "Examples:\n  sowkit check                               every ruleset in ./rulesets\n  sowkit check my.toml --paper letter\n  sowkit check - < my.toml                   the ruleset from standard input\n\nExit codes: 0 every ruleset passes; 1 a ruleset, example or layout is wrong; 2 bad command line."
    )]
    Check {
        /// Ruleset files or folders of them [default: ./rulesets]
        rulesets: Vec<PathBuf>,
        /// Lay out on this paper only (see `build --paper`); without it, on the ruleset's
        /// layout.paper, A4 and Letter
        #[arg(long, value_parser = Paper::parse)]
        paper: Option<Paper>,
        /// Also check a bundled ruleset by id (`sowkit list`); works in any folder
        #[arg(long, value_name = "ID", value_parser = bundled_id)]
        bundled: Vec<String>,
        /// Diagnostics: human (with a snippet), short (path:line:column: field: message), json
        /// (one object a line)
        #[arg(long, value_enum, default_value = "human")]
        format: cli::diag::DiagFormat,
    },
    /// Exact game value under perfect play and every best move (or, with --balance, whether
    /// going first is an advantage). See README "Solving".
    Solve {
        /// Ruleset file (`-` reads standard input)
        #[arg(required_unless_present = "bundled")]
        file: Option<PathBuf>,
        /// A bundled ruleset by id instead of a file (`sowkit list`); works in any folder
        #[arg(long, value_name = "ID", value_parser = bundled_id, conflicts_with = "file")]
        bundled: Option<String>,
        /// Position to solve, e.g. "South 4 4 0 5 5 5 (1) / North 4 4 4 4 4 4 (0); South"
        /// [default: the start]
        #[arg(long)]
        from: Option<String>,
        /// Output format
        #[arg(long, value_enum, default_value = "text", ignore_case = true)]
        format: FormatArg,
        /// Stop after this many seconds and print the proven bounds
        #[arg(long, value_parser = positive_seconds)]
        budget: Option<f64>,
        /// Stop after visiting this many positions (deterministic); at least 1
        // A negative or too large number is also told the range, not "invalid digit".
        #[arg(long, value_name = "N", value_parser = |s: &str| whole_in(s, 1, i64::MAX).map(|n| n as u64))]
        nodes: Option<u64>,
        /// Largest transposition table, in MiB: 1 to 1048576 (1 TiB)
        #[arg(
            long,
            value_name = "MIB",
            default_value_t = 4096,
            value_parser = |s: &str| whole_in(s, 1, MAX_MEMORY_MIB).map(|m| m as usize)
        )]
        memory: usize,
        /// Balance report of the start: exact value if provable within the budget (default
        /// 5 000 000 positions), and random and greedy playout rates with 95% intervals
        #[arg(long)]
        balance: bool,
    },
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum FormatArg {
    /// Plain text.
    Text,
    /// One JSON object (README "Solving").
    Json,
}

/// Largest `solve --memory`, MiB (1 TiB): a cap no machine sowkit runs on reaches, so only a
/// mistyped number is refused.
const MAX_MEMORY_MIB: i64 = 1 << 20;

/// A whole number from `lo` to `hi` written in digits (an optional sign): the range named when
/// it is outside, however far (a number past 64 bits included, which clap's own parser called
/// "too large to fit in target type").
fn whole_in(s: &str, lo: i64, hi: i64) -> Result<i64, String> {
    let t = s.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{s:?} is not a whole number: give one from {lo} to {hi}"
        ));
    }
    match t.parse::<i64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(format!("{t} is not in {lo}..={hi}")),
    }
}

/// `solve --budget`: a number of seconds above 0 (0, a negative number, `nan` and `inf` are
/// command-line errors, exit 2, as any other bad argument).
fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        Ok(_) => Err(format!("{s} is not a number of seconds above 0")),
        Err(_) => Err(format!(
            "{s:?} is not a number: give seconds above 0, such as 2.5"
        )),
    }
}

/// `--bundled ID` of `build`, `check`, `replay`, `solve` and `serve`: the id of a bundled
/// ruleset. An unknown id is a command-line error (exit 2, as a bad `--paper`), its message
/// listing the ids there are.
fn bundled_id(id: &str) -> Result<String, String> {
    if let Some(b) = sowkit::bundled::get(id) {
        return Ok(b.id.to_string());
    }
    // The ids that start with what was given, or that it starts with ("kalah", "oware",
    // "six-pit"): named first, as what was probably meant.
    let near: Vec<&str> = sowkit::bundled::ALL
        .iter()
        .map(|b| b.id)
        .filter(|b| {
            let (b, id) = (b.to_ascii_lowercase(), id.trim().to_ascii_lowercase());
            !id.is_empty() && (b.starts_with(&id) || id.starts_with(&b))
        })
        .collect();
    let meant = match near.as_slice() {
        [] => String::new(),
        [one] => format!("did you mean {one}? "),
        [rest @ .., last] => format!("did you mean {} or {last}? ", rest.join(", ")),
    };
    Err(format!(
        "no bundled ruleset has id {id:?}; {meant}the bundled rulesets are {} (`sowkit list`)",
        sowkit::bundled::ids()
    ))
}

/// `--lang` of `build` and `serve`, as written, in lower case: language tags are the same in
/// any case (`ES` is `es`); a regional tag is read as its language (`es-MX` and `es_MX` are
/// `es`) when only the language has a catalogue. Whether a catalogue has it is
/// [`check_lang`]'s question.
fn lang_tag(l: &str) -> Result<String, String> {
    // A regional tag (`es-MX`, `en_GB`) is its language where there is no catalogue for the
    // region itself: the catalogues are by language. Anything else is kept as given, for
    // [`check_lang`] to name.
    Ok(sowkit::layout::phrases::catalogue_language(l)
        .map(str::to_string)
        .unwrap_or_else(|| l.to_ascii_lowercase().replace('_', "-")))
}

/// `--lang` of `build` and `serve`: a language with a message catalogue (an error naming the
/// languages there are, for exit 2, otherwise).
fn check_lang(lang: Option<&str>) -> Result<(), String> {
    let Some(l) = lang else { return Ok(()) };
    let have = sowkit::layout::phrases::languages();
    if l.trim().is_empty() {
        return Err(format!(
            "error: --lang is empty: give one of {}",
            have.join(", ")
        ));
    }
    if !have.contains(&l) {
        return Err(format!(
            "error: --lang {l}: there is no message catalogue for {l:?}: {}",
            sowkit::layout::phrases::no_catalogue_advice()
        ));
    }
    Ok(())
}

/// Expands folders into their `*.toml` files, sorted; keeps files as given. `command` (`build`,
/// `check`, `watch`, `serve`) shapes the hint when nothing is given and there is no
/// `./rulesets`: ruleset files, `--bundled ID` where the command takes it, or `sowkit new`.
fn expand(paths: &[PathBuf], command: &str) -> Result<Vec<PathBuf>, String> {
    // What to give instead, when nothing was and the default folder has nothing.
    let hint = || {
        let bundled = if matches!(command, "build" | "check" | "serve") {
            format!(", or a bundled ruleset by id (`sowkit {command} --bundled kalah-6x4`; `sowkit list` names them all)")
        } else {
            String::new()
        };
        format!("give ruleset files (`sowkit {command} my-game.toml`){bundled}; `sowkit new \"My game\"` starts a ruleset of your own from a bundled one")
    };
    if paths.is_empty() && !Path::new("rulesets").is_dir() {
        return Err(format!(
            "error: no rulesets given, and there is no ./rulesets folder (the default): {}",
            hint()
        ));
    }
    let defaulted = paths.is_empty();
    let paths = if paths.is_empty() {
        vec![PathBuf::from("rulesets")]
    } else {
        paths.to_vec()
    };
    let mut out = Vec::new();
    for p in paths {
        // `-`: the ruleset comes from standard input (cli::Input::Stdin), which can be read
        // once (a second `-` read nothing and was called an empty file).
        if p.as_os_str() == "-" {
            if out.iter().any(|q: &PathBuf| q.as_os_str() == "-") {
                return Err(
                    "error: - (standard input) is given twice: it can be read once; give it once"
                        .to_string(),
                );
            }
            out.push(p);
            continue;
        }
        let meta = std::fs::metadata(&p).map_err(|e| {
            let why = sowkit::kitdir::explain_missing(&p, &e);
            match cli::bundled_hint(&p, command) {
                Some(hint) => format!("error: {why}; {hint}"),
                None => format!("error: {why} (give ruleset files or a folder of them)"),
            }
        })?;
        if meta.is_dir() {
            let toml: Vec<PathBuf> = std::fs::read_dir(&p)
                .map_err(|e| format!("error: cannot read folder {}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| {
                    f.extension()
                        .is_some_and(|x| x.eq_ignore_ascii_case("toml"))
                })
                .collect();
            let mut found = Vec::new();
            for f in toml {
                // A regular file, or a link to one, is a ruleset; a link to nothing is kept, so
                // reading it says so (it was skipped without a word). A sub-folder named
                // `*.toml` is not searched; anything else (a FIFO would block the read) is an
                // error naming it.
                let linked = f
                    .symlink_metadata()
                    .is_ok_and(|m| m.file_type().is_symlink());
                match std::fs::metadata(&f) {
                    Ok(m) if m.is_file() => found.push(f),
                    Ok(m) if m.is_dir() => {}
                    Ok(_) => {
                        return Err(format!(
                            "error: {} is not a regular file (a FIFO, socket or device): a ruleset must be a file; move it out of the folder",
                            f.display()
                        ))
                    }
                    Err(_) if linked => found.push(f),
                    Err(e) => {
                        return Err(format!("error: cannot read {}: {e}", f.display()))
                    }
                }
            }
            found.sort();
            if found.is_empty() && defaulted {
                return Err(format!(
                    "error: no rulesets given, and the ./rulesets folder (the default) holds no .toml rulesets: {}",
                    hint()
                ));
            }
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

/// Loads and checks every ruleset and prints every problem; returns the rulesets that passed
/// and how many failed. Each passing file's `ok: FILE (N worked examples agree …)` line is
/// printed at once, or, given `oks`, kept there (one for each ruleset returned, in order) for
/// a caller with more to check first (`check` and `build` lay the kits out).
/// The refusal of a ruleset file of `files` (as given, so a name that is not UTF-8 is found
/// too) that lies in the kit folder, under `out`, of one of the rulesets `all`: writing that
/// kit would delete it ([`sowkit::kitdir::kit_folder_holding`]).
fn ruleset_in_a_kit(files: &[cli::Input], all: &[Ruleset], out: &Path) -> Option<std::io::Error> {
    let ids: Vec<&str> = all.iter().map(|r| r.id.as_str()).collect();
    files.iter().find_map(|f| match f {
        cli::Input::File(p) => sowkit::kitdir::kit_folder_holding(p, out, &ids)
            .map(|dir| sowkit::kitdir::ruleset_in_kit_folder(p, &dir)),
        _ => None,
    })
}

fn load_each(files: &[cli::Input], mut oks: Option<&mut Vec<String>>) -> (Vec<Ruleset>, usize) {
    let mut ok = Vec::new();
    let mut failed = 0usize;
    let mut ids: Vec<(String, String)> = Vec::new();
    // The files are read and checked side by side on the machine's cores (each check stands
    // alone: about 0.7 ms for a bundled ruleset, which one core did one after another before
    // any kit was started), then reported below one after another, in file order.
    // One file is checked here, on the calling thread, while the pool's threads are free for
    // `kit::warm_up`.
    use rayon::prelude::*;
    let check_one = |input: &cli::Input| {
        let src = input.read()?;
        Ok(ruleset::check_source(&input.display(), &src))
    };
    let read_and_checked: Vec<Result<_, Diagnostic>> = if files.len() > 1 {
        files.par_iter().map(check_one).collect()
    } else {
        files.iter().map(check_one).collect()
    };
    for (input, read) in files.iter().zip(read_and_checked) {
        let f = input.display();
        let mut summary = None;
        // A file's warnings, each kind in file order, the same for check and build: before
        // its `ok:` line, or after its errors (an error is what to mend first, and a warning
        // such as "worked examples not checked" follows from it), before its problem count.
        let mut warnings = Vec::new();
        let diags: Vec<Diagnostic> = match read {
            Err(d) => vec![d],
            Ok(checked) => {
                if checked.errors.is_empty() {
                    for w in &checked.warnings {
                        cli::diag::warning(w);
                    }
                } else {
                    warnings = checked.warnings;
                }
                let d = checked.errors;
                summary = checked.summary;
                if let Some(rs) = checked.ruleset {
                    if let Some((_, other)) = ids.iter().find(|(id, _)| *id == rs.id) {
                        if *other == f {
                            eprintln!("error: {f} is given twice: give each ruleset once");
                        } else {
                            eprintln!(
                                "error: {} and {} both have id {:?}: kits would overwrite each other; give each ruleset its own id",
                                other,
                                f,
                                rs.id
                            );
                        }
                        failed += 1;
                        continue;
                    }
                    ids.push((rs.id.clone(), f.clone()));
                    let n = rs.examples.len();
                    if n == 0 {
                        cli::diag::info(&format!("warning: {}: no worked examples, so nothing checks these rules against the engine; add [[example]] tables (README, \"Worked examples\")", f));
                    }
                    if !sowkit::layout::practice::has_exercises(&rs) {
                        cli::diag::info(&format!("warning: {}: no practice exercises: none of the games sowkit played with these rules reached a position to practise on (as when every game ends within its first three moves); the practice page and host key say so. Mark a worked example `exercise = true` to give one", f));
                    }
                    for ex in rs.examples.iter() {
                        cli::diag::verbose(&format!("  agrees: {:?}", ex.title));
                    }
                    let line = format!(
                        "ok: {} ({n} worked example{} agree{} with the engine)",
                        f,
                        if n == 1 { "" } else { "s" },
                        if n == 1 { "s" } else { "" },
                    );
                    match oks.as_deref_mut() {
                        Some(oks) => oks.push(line),
                        None => cli::diag::info(&line),
                    }
                    ok.push(rs);
                }
                d
            }
        };
        if !diags.is_empty() {
            failed += 1;
            for d in &diags {
                cli::diag::error(d);
            }
            // After the worked examples' errors: how many disagree, why, and how to rewrite one.
            if let Some(s) = &summary {
                cli::diag::info(s);
            }
            for w in &warnings {
                cli::diag::warning(w);
            }
            cli::diag::info(&format!(
                "{}: {} problem(s)",
                f,
                ruleset::load::count_problems(&diags)
            ));
        }
    }
    (ok, failed)
}

/// The layout's own general hints, never tried: the tried advice replaces them (a hint that
/// `--fit` or a larger paper helps was printed where neither lays the kit out).
/// The pit-label failure's own hints of a larger pit and of normal print go too: the advice
/// tries pit sizes and normal print, and a pit large enough for the label could still fail to
/// tile (a 16-pit board of 80 mm pits on Letter).
const UNTRIED_HINTS: [&str; 6] = [
    ": leave out --fit to print it in tiles at true size, or use a larger paper",
    ": leave out --fit to print it in tiles at true size",
    ": use a larger paper or --fit",
    ", or use a larger paper",
    ", or set layout.pit_diameter larger (at most 80 mm)",
    ", or print without large print (its labels are at least 18 pt)",
];

/// A layout failure in the user's terms: what does not fit, then each change of the ruleset
/// file, paper or options that was tried and lays the kit out in each language of `langs`
/// (empty: `opts`' own), naming the file, line and field (see [`sowkit::advice`]). The
/// layout's untried hints are left out.
fn layout_problem(
    e: &str,
    rs: Option<&Ruleset>,
    opts: &KitOptions,
    langs: &[String],
    also: &[Paper],
) -> String {
    // A ruleset without its words in the kit's language (a missing [text.es] or
    // [example.text.es] table) is not a layout problem: no paper or size would help, so the
    // message is said alone, with no advice tried.
    if let Some(Err(words)) = rs.map(|rs| opts.localise(rs)) {
        return words;
    }
    let advice = rs.map_or_else(Vec::new, |rs| {
        sowkit::advice::layout_advice_on(rs, opts, langs, also)
    });
    let mut e = e.to_string();
    if !advice.is_empty() {
        for hint in UNTRIED_HINTS {
            e = e.replace(hint, "");
        }
    }
    let lang = opts
        .lang
        .clone()
        .or_else(|| rs.map(|r| r.lang.clone()))
        .unwrap_or_else(|| "en".into());
    let e = bottom_band_clash(&e, &lang).unwrap_or(e);
    let e = e.as_str();
    let mut s = format!(
        "cannot lay out the kit on {} paper: {}{e}",
        opts.paper.name,
        rs.map_or_else(String::new, |rs| overlap_field(e, rs, &lang))
    );
    for line in advice {
        s.push_str("\n  ");
        s.push_str(&line);
    }
    s
}

/// For a message of two texts that overlap (`the texts "A1" and "A2" overlap`) where one is a
/// pit label, store name or player name of `rs` (in the kit's language, `lang`):
/// `path:line: <table>.<field>: ` naming the field to shorten (the line of its key in the
/// ruleset file); else empty. When the other text is the page's own (the calibration bar's
/// label or the footer), no field is named: the sheet's content ran into the bottom band,
/// which the words do not cause (see [`bottom_band_clash`]).
fn overlap_field(e: &str, rs: &Ruleset, lang: &str) -> String {
    let Some(rest) = e.split(" the texts ").nth(1) else {
        return String::new();
    };
    if !rest.contains(" overlap") {
        return String::new();
    }
    let quoted: Vec<String> = rest
        .split('"')
        .skip(1)
        .step_by(2)
        .take(2)
        .map(str::to_string)
        .collect();
    if quoted.iter().any(|q| is_page_text(q, lang)) {
        return String::new();
    }
    let local = rs.in_lang(lang).unwrap_or_else(|_| rs.clone());
    let rs_path = &rs.path;
    let b = &local.board;
    // A label as printed, or cut short with "…" where only its first line fits (a store's
    // name in a small diagram).
    let is = |q: &String, l: &String| {
        l == q
            || q.strip_suffix('…')
                .is_some_and(|p| !p.trim().is_empty() && l.starts_with(p.trim_end()))
    };
    let field = if quoted
        .iter()
        .any(|q| b.pit_labels.iter().flatten().any(|l| is(q, l)))
    {
        "pit_labels"
    } else if quoted.iter().any(|q| b.stores.iter().any(|l| is(q, l))) {
        "stores"
    } else if quoted.iter().any(|q| b.players.iter().any(|l| is(q, l))) {
        "players"
    } else {
        return String::new();
    };
    let src = sowkit::advice::source_of(rs);
    // A kit in another language prints the words of its `[text.<lang>]` table when it sets
    // them; else `[board]`'s (the same lookup as the 3D refusals: the line in its table).
    let text_table = format!("text.{lang}");
    // Pit labels the file does not set are made from the players' names ("Abcdefghij1"): the
    // field to change is `players` (or `pit_labels`, to set shorter labels).
    let field = match src.as_deref() {
        Some(s)
            if field == "pit_labels"
                && key_line(s, "board", "pit_labels").is_none()
                && key_line(s, &text_table, "pit_labels").is_none() =>
        {
            "players"
        }
        _ => field,
    };
    let in_text = (lang != rs.lang)
        .then(|| src.as_deref().and_then(|s| key_line(s, &text_table, field)))
        .flatten();
    let (table, line) = match in_text {
        Some(n) => (text_table, Some(n)),
        None => (
            "board".to_string(),
            src.as_deref()
                .and_then(|s| field_line(s, &format!("board.{field}")))
                .map(|(n, _)| n),
        ),
    };
    match line {
        Some(n) => format!("{rs_path}:{n}: {table}.{field}: "),
        None => format!("{rs_path}: {table}.{field}: "),
    }
}

/// The 1-based line of `key = …` in table `[table]` of `src`, if it is there.
fn key_line(src: &str, table: &str, key: &str) -> Option<usize> {
    let mut current = "";
    for (n, line) in src.lines().enumerate() {
        let t = line.trim();
        if let Some(h) = t.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            current = h.trim();
            continue;
        }
        if current == table {
            if let Some(rest) = t.strip_prefix(key) {
                if rest.trim_start().starts_with('=') {
                    return Some(n + 1);
                }
            }
        }
    }
    None
}

/// Whether `text` is one every page carries in `lang` (the calibration bar's label, a footer
/// line or the page number), not a word of the ruleset.
fn is_page_text(text: &str, lang: &str) -> bool {
    let Ok(ph) = sowkit::layout::phrases::Phrases::load(lang) else {
        return false;
    };
    // The message quotes texts as Rust does: a no-break space as `\u{a0}`.
    let t = text.replace("\\u{a0}", "\u{a0}");
    let t = t.trim();
    let hashed = |s: &str| -> String {
        s.chars()
            .map(|c| if c.is_ascii_digit() { '#' } else { c })
            .collect()
    };
    let args = [("n", "0"), ("total", "0"), ("paper", "")];
    let numbered = |key: &str| {
        let form = hashed(&ph.fmt(key, &args));
        hashed(t).starts_with(form.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '#'))
    };
    let checks = [ph.get("page.print_check"), ph.get("page.print_check_short")];
    t == ph.get("page.bar_label")
        || checks.iter().any(|check| {
            // A piece of the print check: words, not a lone count ("0" is in "100%" but is
            // a store's seed count, the ruleset's own).
            (t.chars().filter(|c| c.is_alphabetic()).count() >= 2 && check.contains(t))
                // The footer's first line: the kit's name, " · ", the print check's first words.
                || (t.contains(" · ")
                    && check
                        .split(' ')
                        .filter(|w| w.chars().count() > 3)
                        .any(|w| t.ends_with(w)))
        })
        || numbered("page.page_of")
        || numbered("page.page_short")
}

/// When `e` is two texts overlapping where one is the page's own (the calibration bar's
/// label, the footer): what that means, since no word of the ruleset is to blame.
fn bottom_band_clash(e: &str, lang: &str) -> Option<String> {
    let rest = e.split(" the texts ").nth(1)?;
    let quoted: Vec<&str> = rest.split('"').skip(1).step_by(2).take(2).collect();
    let (page, other): (Vec<&str>, Vec<&str>) = quoted.iter().partition(|q| is_page_text(q, lang));
    let (page, other) = (page.first()?, other.first()?);
    let sheet = e
        .split("on the ")
        .nth(1)
        .and_then(|r| r.split(" sheet").next())
        .unwrap_or("a");
    Some(format!(
        "on the {sheet} sheet the text \"{}\" runs into the page's own \"{}\" (the calibration bar's label or footer): what is drawn above is taller than the room the page leaves above its bottom band, which the ruleset's words do not cause",
        other.replace("\\u{a0}", " "),
        page.replace("\\u{a0}", " ")
    ))
}

/// The line and field a layout message names for ruleset `path` (`path:12: board.stores: …`),
/// or line 0 and no field.
fn layout_place(path: &str, text: &str) -> (usize, String) {
    let key = format!("{path}:");
    let mut rest = text;
    while let Some(i) = rest.find(&key) {
        let after = &rest[i + key.len()..];
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        if let (Ok(line), Some(tail)) = (
            digits.parse::<usize>(),
            after[digits.len()..].strip_prefix(": "),
        ) {
            let field: String = tail
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']'))
                .collect();
            let field = if tail[field.len()..].starts_with(": ") {
                field
            } else {
                String::new()
            };
            return (line, field);
        }
        rest = after;
    }
    (0, String::new())
}

/// Prints the layout error `text` of ruleset `path` in the form `--format` asks for: the human
/// form as `error: path: text` (with `closing`, e.g. "nothing was written", on its own line);
/// `short` and `json` as `check` prints diagnostics, one a line, the place and field read from
/// the message when it names them.
fn report_layout(path: &str, text: &str, closing: &str) {
    let s = cli::diag::settings();
    if s.format == cli::diag::DiagFormat::Human {
        // A text that starts with its own `path:line: field:` names the path once.
        let text = text.strip_prefix(&format!("{path}: ")).unwrap_or(text);
        let path = if text.starts_with(&format!("{path}:")) {
            ""
        } else {
            path
        };
        let (path, sep) = if path.is_empty() {
            ("", "")
        } else {
            (path, ": ")
        };
        if closing.is_empty() {
            eprintln!("error: {path}{sep}{text}");
        } else {
            eprintln!("error: {path}{sep}{text}\n  {closing}");
        }
        return;
    }
    let (line, field) = layout_place(path, text);
    let message = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    let d = Diagnostic {
        path: path.to_string(),
        line,
        column: 0,
        field,
        message,
        rendered: String::new(),
        warning: false,
    };
    eprintln!("{}", cli::diag::format(&d, &s));
}

/// The line (1-based) of the first ruleset field that `message` names (`layout.pit_diameter`,
/// `board.seeds_per_pit`...) in the ruleset text `src`, and the field: the line setting it, or
/// its table's header if the field is left at its default. `None` if no field is named or its
/// table is absent.
fn field_line(src: &str, message: &str) -> Option<(usize, String)> {
    let field = message
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .find(|w| {
            w.split_once('.').is_some_and(|(t, k)| {
                matches!(t, "layout" | "board" | "sowing" | "capture" | "end") && !k.is_empty()
            })
        })?;
    let (table, key) = field.split_once('.')?;
    let mut current = "";
    let mut header = None;
    for (n, line) in src.lines().enumerate() {
        let t = line.trim();
        if let Some(h) = t.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            current = h.trim();
            if current == table {
                header = Some(n + 1);
            }
            continue;
        }
        if current == table {
            if let Some(rest) = t.strip_prefix(key) {
                if rest.trim_start().starts_with('=') {
                    return Some((n + 1, field.to_string()));
                }
            }
        }
    }
    header.map(|n| (n, field.to_string()))
}

fn main() -> ExitCode {
    // Before anything is allocated in earnest (see there).
    sowkit::build::tune_allocator();
    let cli = Cli::parse();
    let format = match &cli.command {
        Command::Check { format, .. } | Command::Build { format, .. } => *format,
        _ => cli::diag::DiagFormat::Human,
    };
    cli::diag::init(format, cli.color, cli.quiet, cli.verbose);
    // Output piped into a reader that stops (`| head`) ends the command quietly, as `cat`
    // does, instead of a "failed printing to stdout" panic (Rust ignores SIGPIPE, so the
    // next print failed). Not for the long-running `serve` and `watch`, whose sockets and
    // files report a closed reader as an error they handle.
    #[cfg(unix)]
    if !matches!(cli.command, Command::Serve { .. } | Command::Watch { .. }) {
        // SAFETY: setting a signal's disposition to the default before any thread is started.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
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
            let input = match cli::one_input(ruleset, bundled) {
                Ok(i) => i,
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
        Command::Completions { shell } => {
            use clap::CommandFactory;
            clap_complete::generate(shell, &mut Cli::command(), "sowkit", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        Command::Schema => match serde_json::to_string_pretty(&ruleset::load::json_schema()) {
            Ok(s) => {
                // A closed pipe (`sowkit schema | head`) is not an error worth a panic.
                use std::io::Write;
                let _ = writeln!(std::io::stdout(), "{s}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: cannot write the schema: {e}");
                ExitCode::from(1)
            }
        },
        Command::Man => {
            use clap::CommandFactory;
            let mut out = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut out) {
                Ok(()) => {
                    use std::io::Write;
                    let _ = std::io::stdout().write_all(&out);
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: cannot write the man page: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Watch {
            rulesets,
            out,
            paper,
        } => cli::live::watch(
            cli::live::Given {
                paths: rulesets,
                bundled: Vec::new(),
                command: "watch",
            },
            &out,
            paper,
        ),
        Command::Serve {
            rulesets,
            bundled,
            port,
            paper,
            lang,
        } => {
            if let Err(e) = check_lang(lang.as_deref()) {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
            cli::live::serve(
                cli::live::Given {
                    paths: rulesets,
                    bundled,
                    command: "serve",
                },
                port,
                paper,
                lang,
            )
        }
        Command::Solve {
            file,
            bundled,
            from,
            format,
            budget,
            nodes,
            memory,
            balance,
        } => {
            // A file, `-` (standard input) or `--bundled ID`, read as for check, build and
            // replay.
            let input = match cli::one_input(file, bundled) {
                Ok(i) => i,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            };
            let (file, source) = match input.read() {
                Ok(src) => (PathBuf::from(input.display()), Some(src)),
                Err(d) => {
                    eprintln!("error: {}", d.short());
                    return ExitCode::from(1);
                }
            };
            sowkit::solve::report::run(&sowkit::solve::report::Args {
                file,
                from,
                json: format == FormatArg::Json,
                seconds: budget,
                nodes,
                memory_mb: memory,
                balance,
                source,
            })
        }
        .map_or_else(
            |e| {
                eprintln!("{e}");
                ExitCode::from(1)
            },
            |out| {
                print!("{out}");
                ExitCode::SUCCESS
            },
        ),
        Command::Check {
            rulesets,
            paper,
            bundled,
            format: _,
        } => {
            // Only bundled rulesets asked for: no default ./rulesets folder.
            let files = if rulesets.is_empty() && !bundled.is_empty() {
                Ok(Vec::new())
            } else {
                expand(&rulesets, "check")
            };
            let files = match files.and_then(|f| cli::inputs(f, &bundled)) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            };
            // A file is `ok:` only once its kit is laid out too: the lines wait for that.
            let mut oks = Vec::new();
            let (all, failed) = load_each(&files, Some(&mut oks));
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
            // The same failure in several languages is said once, naming them ("in `en` and
            // `es`: …"): each language repeated the message and its advice.
            let mut merged: Vec<(String, String, String)> = Vec::new();
            let mut langs_of: Vec<Vec<String>> = Vec::new();
            for (path, paper_name, e) in &problems {
                let (lang, rest) = match e.strip_prefix("in `").and_then(|r| r.split_once("`: ")) {
                    Some((l, rest)) => (Some(l.to_string()), rest.to_string()),
                    None => (None, e.clone()),
                };
                match merged
                    .iter()
                    .position(|(p, n, m)| p == path && n == paper_name && *m == rest)
                {
                    Some(i) => langs_of[i].extend(lang),
                    None => {
                        merged.push((path.clone(), paper_name.clone(), rest));
                        langs_of.push(lang.into_iter().collect());
                    }
                }
            }
            let problems: Vec<(String, String, String)> = merged
                .into_iter()
                .zip(langs_of)
                .map(|((path, paper, rest), langs)| {
                    let e = if langs.is_empty() {
                        rest
                    } else {
                        let named: Vec<String> = langs.iter().map(|l| format!("`{l}`")).collect();
                        format!("in {}: {rest}", named.join(" and "))
                    };
                    (path, paper, e)
                })
                .collect();
            for (rs, line) in all.iter().zip(&oks) {
                if !problems.iter().any(|(path, _, _)| *path == rs.path) {
                    cli::diag::info(line);
                }
            }
            for (path, paper_name, e) in &problems {
                let rs = all.iter().find(|r| &r.path == path);
                let paper = rs.and_then(|r| {
                    papers_for(r)
                        .into_iter()
                        .find(|p| p.name == paper_name.as_str())
                });
                let Some((rs, paper)) = rs.zip(paper) else {
                    report_layout(
                        path,
                        &format!("cannot lay out the kit on {paper_name} paper: {e}"),
                        "",
                    );
                    continue;
                };
                // "in `es`: …" when the ruleset has text in several languages.
                let lang = e
                    .strip_prefix("in `")
                    .and_then(|r| r.split_once('`'))
                    .map(|(l, _)| l.to_string());
                let opts = KitOptions {
                    lang,
                    ..KitOptions::new(paper)
                };
                // The advice is tried in every language `check` lays out.
                let langs = sowkit::build::check_languages(rs);
                // A size change is offered only if it mends every paper `check` lays out.
                report_layout(
                    path,
                    &layout_problem(e, Some(rs), &opts, &langs, &papers_for(rs)),
                    "",
                );
            }
            if failed > 0 {
                // The files that did not load, and those whose kit does not lay out.
                let laid_out_badly = all
                    .iter()
                    .filter(|rs| problems.iter().any(|(path, _, _)| *path == rs.path))
                    .count();
                cli::diag::summary(&format!(
                    "{} of {} ruleset(s) failed",
                    failed + laid_out_badly,
                    files.len()
                ));
                return ExitCode::from(1);
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
            format: _,
            three_d,
            bed,
        } => {
            let bed = match sowkit::mesh::Bed::parse(&bed) {
                Ok(b) => b,
                Err(e) => {
                    // A bad --bed is a wrong command line: exit 2, as clap's own errors.
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            // Only bundled rulesets asked for: no default ./rulesets folder.
            let files = if rulesets.is_empty() && !bundled.is_empty() {
                Ok(Vec::new())
            } else {
                expand(&rulesets, "build")
            };
            let files = match files.and_then(|f| cli::inputs(f, &bundled)) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            };
            if let Err(e) = check_lang(lang.as_deref()) {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
            // A file is `ok:` only once its kit is laid out (and, for `build`, written): the
            // lines wait for that.
            let mut oks = Vec::new();
            sowkit::kit::warm_up(lang.as_deref().unwrap_or("en"));
            let (all, load_failed) = load_each(&files, Some(&mut oks));
            let say_ok = |made: &dyn Fn(&Ruleset) -> bool| {
                for (rs, line) in all.iter().zip(&oks) {
                    if made(rs) {
                        cli::diag::info(line);
                    }
                }
            };
            let opts_for = |rs: &Ruleset| KitOptions {
                paper: paper.or(rs.layout.paper).unwrap_or(A4),
                fit,
                child_safe,
                lang: lang.clone(),
                style: style.ink,
                colour: style.colour,
                large: style.large,
                // Filled in with the names of the files `extra` makes, once it has made them.
                three_d_files: Vec::new(),
            };
            let extra = |rs: &Ruleset| {
                if three_d {
                    sowkit::mesh::kit_files_in(rs, child_safe, bed, lang.as_deref())
                } else {
                    Ok(Vec::new())
                }
            };
            if check || load_failed > 0 {
                // Regenerate in memory and compare with OUT; write nothing. Every ruleset that
                // cannot be laid out is reported. Beside a file that does not load, the others
                // are laid out the same way (nothing is written), so each is `ok:` or not.
                let closing = if load_failed > 0 {
                    "" // The summary below says so once.
                } else {
                    "nothing was written"
                };
                let mut kits = Vec::new();
                let mut laid_out = Vec::new();
                let mut problems = Vec::new();
                for rs in &all {
                    let mut opts = opts_for(rs);
                    // The 3D files first: the how-to sheet names them.
                    let made = extra(rs).and_then(|more| {
                        opts.three_d_files = more.iter().map(|f| f.name.clone()).collect();
                        let mut k = sowkit::kit::make(rs, &opts)?;
                        sowkit::build::add_extra_files(&mut k, more, rs, &opts)?;
                        Ok(k)
                    });
                    match made {
                        Ok(k) => {
                            kits.push(k);
                            laid_out.push(rs.path.clone());
                        }
                        Err(e) => {
                            let text = layout_problem(&e, Some(rs), &opts, &[], &[]);
                            problems.push((rs.path.clone(), text));
                        }
                    }
                }
                // `build` says `ok:` only for a kit it wrote: beside a file that does not load,
                // none is written. `build --check` says it for each kit laid out.
                if check {
                    say_ok(&|rs| laid_out.contains(&rs.path));
                }
                for (path, text) in &problems {
                    report_layout(path, text, closing);
                }
                if load_failed > 0 {
                    cli::diag::summary(&format!(
                        "{} of {} ruleset(s) failed{}",
                        load_failed + problems.len(),
                        files.len(),
                        if check { "" } else { "; nothing was written" }
                    ));
                    return ExitCode::from(1);
                }
                if !problems.is_empty() {
                    return ExitCode::from(1);
                }
                // As `build` refuses it: a ruleset kept in a kit folder it would replace.
                if let Some(e) = ruleset_in_a_kit(&files, &all, &out) {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
                return cli::check_out(&kits, &out);
            }
            // A ruleset kept in a kit folder this build replaces (checked with the files as
            // given: `build_all_with` has only their display names).
            if let Some(e) = ruleset_in_a_kit(&files, &all, &out) {
                eprintln!(
                    "error: cannot write the kits to {}: {e}; nothing was changed there",
                    out.display()
                );
                return ExitCode::from(1);
            }
            // Each kit is staged as soon as it is rendered; none is switched in unless all are.
            match sowkit::build::build_all_with(&all, opts_for, extra, &out) {
                Ok(built) => {
                    say_ok(&|_| true);
                    let plural = |n: usize| if n == 1 { "" } else { "s" };
                    for b in built.iter().filter(|_| !cli::diag::quiet()) {
                        println!(
                            "wrote {} ({} page{}, host key {} page{}, {} files)",
                            b.dir.display(),
                            b.pages,
                            plural(b.pages),
                            b.key_pages,
                            plural(b.key_pages),
                            b.files
                        );
                    }
                    ExitCode::SUCCESS
                }
                Err(
                    e @ (sowkit::build::BuildError::Layout { .. }
                    | sowkit::build::BuildError::Extra { .. }
                    | sowkit::build::BuildError::Several(_)),
                ) => {
                    let failed = match e {
                        sowkit::build::BuildError::Several(v) => v,
                        one => vec![one],
                    };
                    // No file is `ok:`: none was written, those whose kits were made included.
                    let n = failed.len();
                    for (i, f) in failed.into_iter().enumerate() {
                        // "nothing was written" once, after the last.
                        let closing = if i + 1 == n {
                            "nothing was written"
                        } else {
                            ""
                        };
                        match f {
                            sowkit::build::BuildError::Layout { path, message, .. } => {
                                let rs = all.iter().find(|r| r.path == path);
                                let opts = rs.map_or_else(|| KitOptions::new(A4), opts_for);
                                report_layout(
                                    &path,
                                    &layout_problem(&message, rs, &opts, &[], &[]),
                                    closing,
                                );
                            }
                            sowkit::build::BuildError::Extra { path, message } => {
                                let at = std::fs::read_to_string(&path)
                                    .ok()
                                    .and_then(|src| field_line(&src, &message))
                                    .map_or(String::new(), |(line, field)| {
                                        format!("{path}:{line}: {field}: ")
                                    });
                                report_layout(
                                    &path,
                                    &format!("{at}cannot make the 3D board: {message}"),
                                    closing,
                                )
                            }
                            // Not made by build_all_with: a write error comes alone, and
                            // the failures it gathers are single.
                            sowkit::build::BuildError::Io(e) => eprintln!("error: {e}"),
                            sowkit::build::BuildError::Several(_) => {}
                        }
                    }
                    if all.len() > 1 {
                        cli::diag::summary(&format!(
                            "{n} of {} ruleset(s) failed; nothing was written",
                            all.len()
                        ));
                    }
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

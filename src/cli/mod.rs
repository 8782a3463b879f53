//! The designer's-loop commands of the `sowkit` binary: `build --check`, `replay`, `new`,
//! `list`, and where a ruleset's text comes from (a file, a bundled ruleset, standard input).

pub mod diag;
pub mod live;

use sowkit::bundled::{self, Bundled};
use sowkit::engine::Rules;
use sowkit::kit::Kit;
use sowkit::ruleset::{self, Diagnostic};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where one ruleset's text comes from.
#[derive(Clone, Debug)]
pub enum Input {
    /// A file on disk.
    File(PathBuf),
    /// A ruleset compiled into the binary.
    Bundled(&'static Bundled),
    /// Standard input (`-`).
    Stdin,
}

impl Input {
    /// The name used in diagnostics.
    pub fn display(&self) -> String {
        match self {
            Input::File(p) => p.display().to_string(),
            Input::Bundled(b) => bundled::display_path(b),
            Input::Stdin => "<stdin>".to_string(),
        }
    }

    /// The ruleset's text. Errors: unreadable file or standard input (a whole-file diagnostic).
    pub fn read(&self) -> Result<String, Diagnostic> {
        match self {
            Input::File(p) => ruleset::load::read_source(p).map_err(|mut d| {
                if let Some(hint) = bundled_hint(p, "") {
                    d.message = format!("{}; {hint}", d.message);
                    d.rendered = format!("{}; {hint}", d.rendered);
                }
                d
            }),
            Input::Bundled(b) => Ok(b.source.to_string()),
            Input::Stdin => {
                // The same bound as a ruleset file: 1 MiB is far more than any ruleset needs.
                const LIMIT: u64 = 1 << 20;
                let mut s = String::new();
                match std::io::stdin().take(LIMIT + 1).read_to_string(&mut s) {
                    Ok(n) if n as u64 > LIMIT => Err(Diagnostic::whole_file(
                        "<stdin>",
                        "standard input holds more than 1 MiB; a ruleset is a few kilobytes",
                    )),
                    Ok(_) => Ok(s),
                    Err(e) => Err(Diagnostic::whole_file(
                        "<stdin>",
                        &format!("cannot read standard input as UTF-8 text: {e}"),
                    )),
                }
            }
        }
    }
}

/// For a ruleset path that does not exist but whose name is a bundled ruleset's id
/// (`sowkit build kalah-6x4`, or `kalah-6x4.toml` outside the repository): "did you mean
/// `--bundled kalah-6x4`?" for a `command` that takes `--bundled`; for `watch` (a bundled
/// ruleset never changes), the `sowkit new` command that writes a copy to edit and watch, under
/// a name free in the current folder (and, if `my-ID.toml` is already there, `sowkit watch` of
/// it). `None` for any other path.
pub fn bundled_hint(path: &Path, command: &str) -> Option<String> {
    if path.as_os_str() == "-" || path.symlink_metadata().is_ok() {
        return None;
    }
    let stem = path.file_stem()?.to_str()?;
    let with_ext = path
        .extension()
        .is_none_or(|e| e.eq_ignore_ascii_case("toml"));
    let b = bundled::get(stem).filter(|_| with_ext)?;
    Some(if command == "watch" {
        // `new` writes in the current folder and never overwrites: a copy written there
        // earlier is named, to watch, and the fresh copy gets a free name.
        let here = Path::new(".");
        let earlier = format!("my-{}.toml", b.id);
        let free = bundled::free_copy_name(b, here);
        if here.join(&earlier).is_file() {
            format!(
                "{} is a bundled ruleset (compiled into sowkit, never saved): {earlier} is already in this folder (a copy written earlier?): `sowkit watch {earlier}` watches it, or `sowkit new {free} --from {}` writes a fresh copy you can edit and watch",
                b.id, b.id
            )
        } else {
            format!(
                "{} is a bundled ruleset (compiled into sowkit, never saved): `sowkit new {free} --from {}` writes a copy you can edit and watch",
                b.id, b.id
            )
        }
    } else {
        format!(
            "did you mean `--bundled {}`? (a bundled ruleset, compiled into sowkit: `sowkit list`)",
            b.id
        )
    })
}

/// The one ruleset `replay` and `solve` take: a file, `-` (standard input) or `--bundled ID`
/// (clap makes sure exactly one is given). Errors: an unknown bundled id (the message lists
/// the ids; clap refuses one first, exit 2), or, never through clap, none or both.
pub fn one_input(file: Option<PathBuf>, bundled: Option<String>) -> Result<Input, String> {
    let ids: Vec<String> = bundled.into_iter().collect();
    let mut v = inputs(file.into_iter().collect(), &ids)?;
    if v.len() == 1 {
        Ok(v.remove(0))
    } else {
        Err("error: give one ruleset file, or --bundled ID".to_string())
    }
}

/// The inputs named by ruleset paths (`-` is standard input) and `--bundled` ids.
/// Errors: an unknown bundled id (the message lists the ids; on the command line clap refuses
/// one first, exit 2).
pub fn inputs(files: Vec<PathBuf>, bundled_ids: &[String]) -> Result<Vec<Input>, String> {
    let mut v: Vec<Input> = files
        .into_iter()
        .map(|f| {
            if f.as_os_str() == "-" {
                Input::Stdin
            } else {
                Input::File(f)
            }
        })
        .collect();
    for id in bundled_ids {
        match bundled::get(id) {
            Some(b) => v.push(Input::Bundled(b)),
            None => {
                return Err(format!(
                    "error: no bundled ruleset has id {id:?}; the bundled rulesets are {} (`sowkit list`)",
                    bundled::ids()
                ))
            }
        }
    }
    Ok(v)
}

/// The command line as typed, without `--check`: the build that brings the folder up to date
/// (same rulesets, paper and options). Arguments with spaces or quotes are single-quoted.
fn rebuild_command() -> String {
    let mut words = vec!["sowkit".to_string()];
    // `args_os`: an argument that is not UTF-8 (a file name) is shown lossily, not a panic.
    for a in std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .filter(|a| a != "--check")
    {
        if !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@".contains(c))
        {
            words.push(a);
        } else {
            words.push(format!("'{}'", a.replace('\'', "'\\''")));
        }
    }
    words.join(" ")
}

/// `build --check`: compares the kits built in memory with `out`, prints every difference
/// (`would change:`, `missing:`, `stale:`) and writes nothing. Exit 0 if `out` is up to date,
/// 1 if anything differs or `out` cannot be read.
pub fn check_out(kits: &[Kit], out: &Path) -> ExitCode {
    match sowkit::kitdiff::compare(kits, out) {
        // A kit's place that `build` would refuse: its message names the path and what to do.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", out.display());
            ExitCode::from(1)
        }
        Ok(changes) if changes.is_empty() => {
            if !diag::quiet() {
                eprintln!(
                    "ok: {} kit(s) in {} are up to date",
                    kits.len(),
                    out.display()
                );
            }
            ExitCode::SUCCESS
        }
        Ok(changes) => {
            for c in &changes {
                println!("{c}");
            }
            // Whole kit folders that no ruleset given builds: `build` never deletes a kit
            // folder (it may be another ruleset's), so rebuilding does not clear them.
            let is_kit = |c: &&sowkit::kitdiff::Change| {
                matches!(c, sowkit::kitdiff::Change::Stale(p)
                    if p.parent() == Some(out) && p.is_dir())
            };
            let folders = changes.iter().filter(is_kit).count();
            // Whole kits `build` would write (a missing kit folder is one line, not a file).
            let missing_kits = changes
                .iter()
                .filter(
                    |c| matches!(c, sowkit::kitdiff::Change::Missing(p) if p.parent() == Some(out)),
                )
                .count();
            let files = changes.len() - folders - missing_kits;
            let kits_said = match (missing_kits, out.exists()) {
                (0, _) => None,
                (k, true) => Some(format!("{k} kit(s) missing from {}", out.display())),
                (k, false) => Some(format!(
                    "{k} kit(s) missing ({} does not exist yet)",
                    out.display()
                )),
            };
            let files_said = (files > 0).then(|| {
                if missing_kits > 0 {
                    format!("{files} file(s) in it differ from what `sowkit build` would write")
                } else {
                    format!(
                        "{files} file(s) in {} differ from what `sowkit build` would write",
                        out.display()
                    )
                }
            });
            let said: Vec<String> = kits_said.into_iter().chain(files_said).collect();
            if !said.is_empty() {
                eprintln!(
                    "{}; run `{}` and commit the result (nothing was written)",
                    said.join(" and "),
                    rebuild_command()
                );
            }
            if folders > 0 {
                eprintln!(
                    "{folders} kit folder(s) in {} belong to no ruleset given (listed as stale): `sowkit build` never deletes a kit folder, so delete them by hand if their rulesets are gone, or give their rulesets too",
                    out.display()
                );
            }
            ExitCode::from(1)
        }
    }
}

/// Loads one input for `replay`: its rules, when they can be played, even if a worked example
/// disagrees with the engine or a word or size is wrong (every such problem is printed, then
/// a warning that `check` and `build` still refuse the file), since `replay --emit-example`
/// is how a wrong example gets mended. `None` (every diagnostic printed) when a rule or a
/// label is wrong, or the file cannot be read.
fn load_playable(input: &Input) -> Option<sowkit::ruleset::Ruleset> {
    let name = input.display();
    let res = input.read().map_err(|d| (vec![d], vec![])).and_then(|src| {
        let checked = ruleset::check_source(&name, &src);
        // Warnings do not stop a replay: one short line each (`check` shows them with their
        // source lines), none with `-q`; after the errors, as `check` prints them.
        let warn = || {
            if !diag::quiet() {
                for w in &checked.warnings {
                    eprintln!("{}", w.short());
                }
            }
        };
        if checked.errors.is_empty() {
            warn();
        }
        match checked.playable {
            Some(rs) => {
                if !checked.errors.is_empty() {
                    for d in &checked.errors {
                        eprintln!("{}\n", d.rendered);
                    }
                    if let Some(s) = &checked.summary {
                        eprintln!("{s}\n");
                    }
                    warn();
                    // Said so that it stands on its own (the errors are printed even with
                    // `-q`, but a reader of the last line should not need them).
                    eprintln!(
                        "warning: {name} has {} problem(s) (listed above; `sowkit check` lists them too), so `check` and `build` refuse the file; replaying with its rules anyway",
                        ruleset::load::count_problems(&checked.errors)
                    );
                }
                Ok(rs)
            }
            None => Err((checked.errors, checked.warnings)),
        }
    });
    match res {
        Ok(x) => Some(x),
        Err((diags, warnings)) => {
            for d in &diags {
                eprintln!("{}\n", d.rendered);
            }
            if !diag::quiet() {
                for w in &warnings {
                    eprintln!("{}", w.short());
                }
            }
            eprintln!(
                "{name}: {} problem(s)",
                ruleset::load::count_problems(&diags)
            );
            None
        }
    }
}

/// Output format of `replay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReplayFormat {
    /// A text board per ply with what happened.
    Text,
    /// The versioned JSON shape (README, "Replay").
    Json,
}

/// `sowkit replay`: plays `moves` from `from` and prints the text boards, the JSON, or a ready
/// `[[example]]`. Exit 1 if its rules or labels are wrong (a wrong worked example, word or size
/// only warns, see [`load_playable`]) or a move cannot be played.
pub fn replay(
    input: Input,
    moves: &str,
    from: Option<&str>,
    format: ReplayFormat,
    emit_example: bool,
    title: Option<&str>,
) -> ExitCode {
    let Some(rs) = load_playable(&input) else {
        return ExitCode::from(1);
    };
    // A start with the seeds of another starting count the ruleset offers plays under it;
    // worked examples start from the ruleset's own count, so none is written from it.
    let option = sowkit::replay::for_start(&rs, from);
    if let (Some(o), true) = (&option, emit_example) {
        eprintln!(
            "error: --from holds {} seeds a pit, one of board.seeds_per_pit_options: a worked example starts with the ruleset's own {} a pit, so none can be written from it (replay without --emit-example to see the moves)",
            o.board.seeds_per_pit, rs.board.seeds_per_pit
        );
        return ExitCode::from(1);
    }
    let rs = option.unwrap_or(rs);
    let rules = match Rules::try_new(&rs) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {}: {e}", input.display());
            return ExitCode::from(1);
        }
    };
    let moves = sowkit::replay::split_moves(moves);
    // A start with closed pits (x) is replayed on the board its next round shortens.
    let short = match sowkit::replay::board_for(&rules, from) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {}: {e}", input.display());
            return ExitCode::from(1);
        }
    };
    let rules = short.as_ref().unwrap_or(&rules);
    let rep = match sowkit::replay::run(rules, from, &moves) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {}: {e}", input.display());
            return ExitCode::from(1);
        }
    };
    if emit_example {
        use sowkit::ruleset::load::{MAX_EXAMPLES, MAX_TITLE_CHARS, MAX_TOTAL_MOVES};
        let title_given = title;
        // Titles name the moves as the example writes them ("S3", typed "s3"), so `check` can
        // tell a placeholder title from the example's moves.
        let played: Vec<String> = rep.plies.iter().map(|p| p.0.clone()).collect();
        let title = match title {
            Some(t) if t.trim().is_empty() => {
                eprintln!("error: --title is empty: give the example a short title");
                return ExitCode::from(2);
            }
            Some(t) if t.chars().count() > MAX_TITLE_CHARS => {
                eprintln!(
                    "error: --title has {} characters: an example title may have at most {MAX_TITLE_CHARS}; shorten it",
                    t.chars().count()
                );
                return ExitCode::from(2);
            }
            Some(t) => match sowkit::ruleset::load::unprintable(t, &[]) {
                Some((_, msg)) => {
                    eprintln!("error: --title: {msg} (check refuses it in example.title)");
                    return ExitCode::from(2);
                }
                // A character the bundled font lacks: `check` refuses the appended example
                // (the same rule `sowkit new` applies to a name).
                None => match sowkit::ruleset::load::font_missing(t).into_iter().next() {
                    Some((_, msg)) => {
                        eprintln!("error: --title: {msg} (check refuses it in example.title)");
                        return ExitCode::from(2);
                    }
                    None => t.to_string(),
                },
            },
            None => sowkit::replay::example_title(&rs.lang, &played),
        };
        match rep.example_toml_noted(&title) {
            Ok((t, notes)) => {
                for n in notes {
                    eprintln!("note: {n}");
                }
                let have = rs.examples.len();
                let have_moves: usize = rs.examples.iter().map(|e| e.moves.len()).sum();
                let adds = rep
                    .plies
                    .len()
                    .min(sowkit::ruleset::load::MAX_EXAMPLE_MOVES);
                if have >= MAX_EXAMPLES {
                    eprintln!("warning: {} already has {have} worked examples, the most a ruleset may have ({MAX_EXAMPLES}): check refuses this one appended; replace an example with it", input.display());
                } else if have_moves + adds > MAX_TOTAL_MOVES {
                    eprintln!("warning: {} already has {have_moves} moves in its worked examples and this one adds {adds}: check refuses more than {MAX_TOTAL_MOVES} in all; shorten or replace an example", input.display());
                }
                print!(
                    "{t}{}",
                    sowkit::replay::example_translations(&rs, &played, title_given)
                );
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
        return ExitCode::SUCCESS;
    }
    match format {
        ReplayFormat::Text => print!("{}", rep.text()),
        ReplayFormat::Json => match serde_json::to_string_pretty(&rep.json()) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: cannot write JSON: {e}");
                return ExitCode::from(1);
            }
        },
    }
    ExitCode::SUCCESS
}

/// `sowkit list`: one line per bundled ruleset: id, name (in the ruleset's own language),
/// board, worked examples, and for a ruleset not in English its language and how to build it
/// in English.
pub fn list() -> ExitCode {
    for b in bundled::ALL {
        match ruleset::load_str(&bundled::display_path(b), b.source) {
            Ok(rs) => println!(
                "{:<16} {} ({} pits a side, {} seeds a pit, {} worked examples{})",
                b.id,
                rs.name,
                rs.board.pits_per_side,
                rs.board.seeds_per_pit,
                rs.examples.len(),
                if rs.lang == "en" {
                    String::new()
                } else if sowkit::build::check_languages(&rs)
                    .iter()
                    .any(|l| l == "en")
                {
                    format!("; in {:?}: --lang en builds it in English", rs.lang)
                } else {
                    format!("; in {:?}", rs.lang)
                }
            ),
            Err(_) => println!("{:<16} (does not load: a bug, please report)", b.id),
        }
    }
    ExitCode::SUCCESS
}

/// A ruleset id from a name: lower-case ASCII letters and digits, other runs become `-`.
/// Letters are brought to ASCII first: accents dropped after Unicode compatibility
/// decomposition (NFKD: "Ñandú" is `nandu`, "ﬁ" is `fi`), and the Latin letters that do not
/// decompose spelt out (ß `ss`, æ `ae`, œ `oe`, ø `o`, ł `l`, đ `d`, þ `th`, ð `d`, ı `i`).
pub fn slug(name: &str) -> String {
    use unicode_normalization::{char::is_combining_mark, UnicodeNormalization};
    let spelt = name
        .nfkd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(|c| {
            let s: &str = match c {
                'ß' | 'ẞ' => "ss",
                'æ' | 'Æ' => "ae",
                'œ' | 'Œ' => "oe",
                'ø' | 'Ø' => "o",
                'ł' | 'Ł' => "l",
                'đ' | 'Đ' | 'ð' | 'Ð' => "d",
                'þ' | 'Þ' => "th",
                'ı' => "i",
                _ => "",
            };
            if s.is_empty() {
                vec![c]
            } else {
                s.chars().collect()
            }
        });
    let mut s = String::new();
    for c in spelt {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    while s.ends_with('-') {
        s.pop();
    }
    s
}

pub use sowkit::replay::shell_word;

/// The text of a new ruleset named `name` (id `id`, written to the file `file`) copied from
/// bundled `from`: a header comment saying what to do next (its commands name `file`), then
/// the bundled ruleset with its `id` and `name` replaced, and each `[text.<lang>]` table's
/// `name` set to `name` too (the bundled game's translated name would name another game). Its
/// worked examples stay, so `check` passes, with no warning, until the rules are changed.
pub fn new_text(id: &str, name: &str, file: &str, from: &Bundled) -> String {
    let f = shell_word(file);
    let mut out = format!(
        "# {name}: a new sowkit ruleset, started from the bundled ruleset \"{}\".\n\
         # Change the rules below, then run `sowkit check {f}` (or `sowkit serve {f}`\n\
         # to see the kit and play-test it while you edit). Every key is described in the README,\n\
         # \"Ruleset format\". The worked examples at the end were worked out for \"{}\": when you\n\
         # change a rule, `check` tells you which of them no longer hold; fix or remove those,\n\
         # and add your own (`sowkit replay {f} --moves \"...\" --emit-example`).\n\n",
        from.id, from.id
    );
    let mut id_done = false;
    let mut name_done = false;
    // Inside a `[text.<lang>]` table whose name is not yet replaced: the bundled game's name in
    // that language does not name this game (`check` warns about a copied one), so the new
    // game's own name stands there until it is translated.
    let mut text_name_due = false;
    let cites = Citations::of(from);
    // The table the line is in: "" before the first header, else the header's dotted name.
    let mut table = String::new();
    let mut commented: Option<String> = None;
    for line in from.source.lines() {
        let t = line.trim_start();
        if t.starts_with('[') {
            text_name_due = t.starts_with("[text.");
            table = t
                .trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
        }
        if let Some(cites) = &cites {
            if let Some(rewritten) = cites.rewrite(&table, line) {
                // One note for each table's citations (`[text.es.sources]` has eight).
                if commented.as_deref() != Some(table.as_str()) {
                    out.push_str(&format!(
                        "# UPDATE: citation(s) rewritten for a variant of \"{}\": say where your rules come\n\
                         # from, and change the citation of any rule you change.\n",
                        from.id
                    ));
                }
                commented = Some(table.clone());
                out.push_str(&rewritten);
                out.push('\n');
                continue;
            }
        }
        if text_name_due && t.starts_with("name ") | t.starts_with("name=") {
            out.push_str(&format!("name = {}\n", sowkit::replay::toml_string(name)));
            text_name_due = false;
        } else if !id_done && t.starts_with("id ") | t.starts_with("id=") {
            out.push_str(&format!("id = {}\n", sowkit::replay::toml_string(id)));
            id_done = true;
        } else if !name_done && t.starts_with("name ") | t.starts_with("name=") {
            out.push_str(&format!("name = {}\n", sowkit::replay::toml_string(name)));
            name_done = true;
        } else {
            if t.starts_with("[layout]") {
                out.push_str(&format!(
                    "# UPDATE when you change the board: these sizes were chosen for \"{}\". `check` warns\n\
                     # when a pit or store is smaller than the play size for your seeds; remove a key to\n\
                     # get play sizes (README \"Sizes\").\n",
                    from.id
                ));
            } else if t.starts_with("[text.") {
                out.push_str(&format!(
                    "# UPDATE: this translation was copied from \"{}\": its name is your game's name as\n\
                     # given to `sowkit new`; translate it, and fix any word that no longer fits your rules.\n",
                    from.id
                ));
            }
            if t.starts_with('#') && line.contains("rulesets/NOTES.md") {
                // The notes are in sowkit's source, not beside the copy.
                out.push_str(
                    &line.replace("rulesets/NOTES.md", "rulesets/NOTES.md in sowkit's source"),
                );
            } else {
                out.push_str(line);
            }
            out.push('\n');
        }
    }
    out
}

/// The citations of a bundled ruleset as `sowkit new` rewrites them for a variant: its
/// `source` (and each `[text.<lang>]` table's) says the rules are house rules changed from the
/// bundled game, which follows its source (`rules.variant_source` in that language's catalogue),
/// and each per-rule citation says it is the bundled game's (`rules.variant_cite`), so a
/// variant's rule sheet never says that the copied game's source describes the variant's rules.
struct Citations {
    rs: ruleset::Ruleset,
    phrases: std::collections::BTreeMap<String, sowkit::layout::phrases::Phrases>,
}

impl Citations {
    /// `None` when the bundled ruleset does not load (never, `tests/diagnose.rs` loads every one)
    /// or a language it uses has no catalogue: its citations are then copied as they are.
    fn of(from: &Bundled) -> Option<Citations> {
        let rs = ruleset::load::load_str(from.file, from.source).ok()?;
        let mut phrases = std::collections::BTreeMap::new();
        for lang in std::iter::once(&rs.lang).chain(rs.texts.keys()) {
            phrases.insert(
                lang.clone(),
                sowkit::layout::phrases::Phrases::load(lang).ok()?,
            );
        }
        Some(Citations { rs, phrases })
    }

    /// `line`, inside the table `table` ("" for the top level, `sowing`, `text.es`,
    /// `text.es.sources`, …), rewritten when it is a citation; `None` when it is not one (or is
    /// not a one-line `key = "value"`, which the bundled rulesets never write otherwise).
    fn rewrite(&self, table: &str, line: &str) -> Option<String> {
        let parsed: toml::Table = toml::from_str(line).ok()?;
        let (key, value) = parsed.iter().next()?;
        let indent = &line[..line.len() - line.trim_start().len()];
        let q = sowkit::replay::toml_string;
        let (lang, text_part) = match table.strip_prefix("text.") {
            Some(rest) => {
                let (lang, tail) = rest.split_once('.').unwrap_or((rest, ""));
                (lang.to_string(), Some(tail.to_string()))
            }
            None => (self.rs.lang.clone(), None),
        };
        let ph = self.phrases.get(&lang)?;
        let (game, source, rule_sources) = match &text_part {
            None => (&self.rs.name, &self.rs.source, &self.rs.rule_sources),
            Some(_) => {
                let t = self.rs.texts.get(&lang)?;
                (&t.name, &t.source, &t.rule_sources)
            }
        };
        let cite = |c: &str| ph.fmt("rules.variant_cite", &[("game", game), ("cite", c)]);
        match (text_part.as_deref(), key.as_str()) {
            // The game's own citation: at the top level or in `[text.<lang>]`.
            (None | Some(""), "source") if table.is_empty() || text_part.is_some() => {
                value.as_str()?;
                let s = ph.fmt(
                    "rules.variant_source",
                    &[("game", game), ("source", source)],
                );
                Some(format!("{indent}source = {}", q(&s)))
            }
            // A rule table's own `source` (`[sowing] source = "…"`).
            (None, "source") => {
                value.as_str()?;
                let c = rule_sources.get(table)?;
                Some(format!("{indent}source = {}", q(&cite(c))))
            }
            // `[text.<lang>] sources = { end = "…" }`.
            (Some(""), "sources") => {
                let tbl = value.as_table()?;
                let items: Option<Vec<String>> = tbl
                    .keys()
                    .map(|k| Some(format!("{k} = {}", q(&cite(rule_sources.get(k)?)))))
                    .collect();
                Some(format!("{indent}sources = {{ {} }}", items?.join(", ")))
            }
            // `[text.<lang>.sources]` with one `topic = "…"` line each.
            (Some("sources"), k) => {
                value.as_str()?;
                Some(format!("{indent}{k} = {}", q(&cite(rule_sources.get(k)?))))
            }
            _ => None,
        }
    }
}

/// `sowkit new NAME [--from ID]`: writes `<id>.toml` (or NAME itself if it ends in `.toml`)
/// in the current folder, never overwriting a file. Exit 1 on an unknown id or an existing file.
pub fn new(name: &str, from: &str) -> ExitCode {
    let Some(b) = bundled::get(from) else {
        eprintln!(
            "error: no bundled ruleset has id {from:?}; the bundled rulesets are {} (`sowkit list`)",
            bundled::ids()
        );
        return ExitCode::from(1);
    };
    let (path, display_name) = if let Some(stem) = name.strip_suffix(".toml") {
        let file_stem = Path::new(stem)
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        (PathBuf::from(name), file_stem)
    } else {
        (
            PathBuf::from(format!("{}.toml", slug(name))),
            name.to_string(),
        )
    };
    // Ids are at most 64 characters (`check`'s rule); a longer slug is cut at a word.
    let mut id = slug(&display_name);
    if id.len() > 64 {
        // The slug is ASCII, so byte 64 is a character boundary; cut before the word that
        // crosses it (or at 64 if the first word is longer).
        let cut = match id[..=64].rfind('-') {
            Some(i) if i > 0 => i,
            _ => 64,
        };
        id.truncate(cut);
    }
    if id.is_empty() {
        eprintln!("error: {name:?} has no ASCII letters or digits (a-z, 0-9) to make an id from, and the id names the kit's folder; give a name with some, such as \"My Kalah\"");
        return ExitCode::from(1);
    }
    if sowkit::ruleset::load::windows_reserved(&id) {
        eprintln!("error: {name:?} would give the id {id:?}, a device name on Windows (con, prn, aux, nul, com1-com9, lpt1-lpt9), which no file or folder can have there; give another name, such as \"{display_name} game\"");
        return ExitCode::from(1);
    }
    // The file is named after the id (as cut above) unless a file name was given.
    let path = if name.ends_with(".toml") {
        path
    } else {
        PathBuf::from(format!("{id}.toml"))
    };
    if display_name.chars().count() > 80 {
        eprintln!("error: the name {display_name:?} has {} characters; a game's name is at most 80 (`check`'s rule): give a shorter one", display_name.chars().count());
        return ExitCode::from(1);
    }
    if path.exists() {
        eprintln!(
            "error: {} already exists; nothing was written (choose another name or move it away)",
            path.display()
        );
        return ExitCode::from(1);
    }
    // A name is one line of text: a line break (or a tab) in it broke the comment line it
    // is written into, and the file did not load.
    if let Some(c) = display_name.chars().find(|c| c.is_control()) {
        eprintln!(
            "error: the name {display_name:?} holds the control character U+{:04X}; a game's name is one line of printable text: give another",
            c as u32
        );
        return ExitCode::from(1);
    }
    let text = new_text(&id, &display_name, &path.display().to_string(), b);
    // Never a ruleset `check` refuses (an invisible or direction-changing character in the
    // name, say): the loader's own message, and nothing written.
    if let Err(d) = sowkit::ruleset::load_str(&path.display().to_string(), &text) {
        let why = d.first().map_or(String::new(), |d| d.message.clone());
        eprintln!("error: the name {display_name:?} cannot be used: {why}; nothing was written");
        return ExitCode::from(1);
    }
    // create_new: never replace a file that appeared since the check above.
    let mut file = match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot create {}: {e}", path.display());
            return ExitCode::from(1);
        }
    };
    if let Err(e) = std::io::Write::write_all(&mut file, text.as_bytes()) {
        eprintln!(
            "error: cannot write {}: {e}; the partial file was removed",
            path.display()
        );
        drop(file);
        let _ = std::fs::remove_file(&path);
        return ExitCode::from(1);
    }
    println!(
        "wrote {} (id {id:?}, from bundled {:?}); next: sowkit check {}",
        path.display(),
        b.id,
        shell_word(&path.display().to_string())
    );
    ExitCode::SUCCESS
}

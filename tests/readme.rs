//! The README's page counts against the kits the library builds: every claim of the form
//! "KIT in STYLE on PAPER: N pages and a host key of M" (optionally followed by "against N and
//! M in normal print"), and "the five kits in normal print on A4, N pages with their host
//! keys", is read out of README.md and compared with the page counts of the kit and host key
//! built for that bundled ruleset, paper and print style (in the ruleset's own language, as
//! `sowkit build` makes them).
//!
//! And the command examples: every `sowkit …` line of a README ```` ```sh ```` block, and every
//! example of `sowkit --help` and of each subcommand's `--help`, is run as a user would type it
//! (see [`sh_examples_run`] and [`help_examples_run`]).
use crate::common;

use sowkit::layout::{self, KitOptions, Paper, A4, LETTER};
use sowkit::ruleset::Ruleset;

/// The names the README calls the bundled kits by, with their ids.
const KITS: [(&str, &str); 5] = [
    ("Giuthi", "giuthi"),
    ("Kalah 6×4", "kalah-6x4"),
    ("Kalah 6×3", "kalah-6x3"),
    ("Oware", "oware-abapa"),
    ("Six-pit sowing", "six-pit-sowing"),
];

/// README.md with every run of whitespace (line breaks too) made one space.
fn readme() -> String {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    src.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The whole number `s` starts with, and the rest of `s`.
fn number(s: &str) -> Option<(usize, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// `N pages and a host key of M` at the start of `s`: (N, M) and the rest.
fn pages_and_key(s: &str) -> Option<((usize, usize), &str)> {
    let (n, rest) = number(s)?;
    let rest = rest.strip_prefix(" pages and a host key of ")?;
    let (m, rest) = number(rest)?;
    Some(((n, m), rest))
}

/// Kit and host-key page counts of bundled `id` on `paper`, large print or not.
fn built(rs: &Ruleset, paper: Paper, large: bool) -> (usize, usize) {
    let opts = KitOptions {
        large,
        ..KitOptions::new(paper)
    };
    let kit = layout::kit(rs, &opts).unwrap_or_else(|e| panic!("{}: {e}", rs.id));
    let key = layout::host_key(rs, &opts).unwrap_or_else(|e| panic!("{}: {e}", rs.id));
    (kit.pages.len(), key.pages.len())
}

/// One claim: what it is about, what the README says, what the build gives.
type Claim = (String, (usize, usize), (usize, usize));

#[test]
fn readme_page_counts_are_the_built_kits() {
    let text = readme();
    let bundled = common::bundled();
    let rs = |id: &str| bundled.iter().find(|r| r.id == id).unwrap();
    let mut claims: Vec<Claim> = Vec::new();
    for (name, id) in KITS {
        for (style, large) in [("large print", true), ("normal print", false)] {
            for (pname, paper) in [("A4", A4), ("Letter", LETTER)] {
                let head = format!("{name} in {style} on {pname}: ");
                for (at, _) in text.match_indices(&head) {
                    let after = &text[at + head.len()..];
                    let (said, rest) = pages_and_key(after).unwrap_or_else(|| {
                        panic!(
                            "{head:?} is not followed by \"N pages and a host key of M\": {:?}",
                            &after[..80.min(after.len())]
                        )
                    });
                    claims.push((head.clone(), said, built(rs(id), paper, large)));
                    // ", against N and M in normal print": the same kit and paper.
                    if let Some(r) = rest.strip_prefix(", against ") {
                        let (n, r) = number(r).expect("against N");
                        let r = r.strip_prefix(" and ").expect("against N and M");
                        let (m, r) = number(r).expect("against N and M");
                        assert!(r.starts_with(" in normal print"), "{r:?}");
                        claims.push((
                            format!("{head} against … in normal print"),
                            (n, m),
                            built(rs(id), paper, false),
                        ));
                    }
                }
            }
        }
    }
    // "the five kits in normal print on A4, N pages with their host keys".
    let head = "the five kits in normal print on A4, ";
    for (at, _) in text.match_indices(head) {
        let (n, rest) = number(&text[at + head.len()..]).expect("N pages");
        assert!(rest.starts_with(" pages with their host keys"), "{rest:?}");
        let all: usize = bundled
            .iter()
            .map(|r| {
                let (k, h) = built(r, A4, false);
                k + h
            })
            .sum();
        claims.push((head.to_string(), (n, 0), (all, 0)));
    }
    // The README states at least these four (a reworded claim must be found again).
    assert!(claims.len() >= 4, "{claims:?}");
    let wrong: Vec<&Claim> = claims.iter().filter(|c| c.1 != c.2).collect();
    assert!(
        wrong.is_empty(),
        "README page counts (said, built) that differ: {wrong:?}"
    );
}

/// README lines of ```` ```sh ```` blocks that are not run, with why. A line here that the
/// README no longer has fails the test (a reworded line must be sorted again).
const NOT_RUN: [(&str, &str); 8] = [
    (
        "sowkit serve club-oware.toml",
        "serve runs until interrupted",
    ),
    (
        "sowkit watch rulesets/my-game.toml -o kits",
        "watch runs until interrupted",
    ),
    (
        "sowkit serve rulesets/my-game.toml",
        "serve runs until interrupted",
    ),
    (
        "sowkit serve --bundled giuthi --port 8080",
        "serve runs until interrupted",
    ),
    (
        "sowkit serve --bundled kalah-6x3 --lang en",
        "serve runs until interrupted",
    ),
    (
        "sowkit solve rulesets/kalah-6x3.toml",
        "a whole board solved: minutes in a debug build",
    ),
    (
        "sowkit solve rulesets/kalah-6x4.toml --budget 60 --memory 8192",
        "runs 60 s by design",
    ),
    (
        "sowkit solve rulesets/kalah-6x3.toml --format json",
        "a whole board solved: minutes in a debug build",
    ),
];

/// README lines run only by [`sh_examples_run_in_full`] (about 20 s of a debug build
/// together): each lays out every bundled kit, or makes a 3D board.
const SLOW: [&str; 19] = [
    "sowkit build --bundled giuthi --3d",
    "sowkit build",
    "sowkit build --paper a3",
    "sowkit build --fit",
    "sowkit build --child-safe",
    "sowkit check rulesets/*.toml",
    "sowkit check --format short rulesets",
    "sowkit check --format json rulesets 2> d.jsonl",
    "sowkit -q build",
    "sowkit build --check -o kits rulesets",
    "sowkit build --3d rulesets/giuthi.toml",
    "sowkit build --3d --bed 250x210 rulesets/kalah-6x4.toml",
    "sowkit build --lang es",
    "sowkit build --style contrast",
    "sowkit build --style low-ink",
    "sowkit build --style colour",
    "sowkit build --style contrast,colour",
    "sowkit build --style large",
    "sowkit build --style large,low-ink",
];

/// What a README line takes for granted, run (as `sowkit` arguments) just before it: `build
/// --check` compares with kits that `build` wrote, as in the CI it is shown for.
const BEFORE: [(&str, &[&str]); 1] = [(
    "sowkit build --check -o kits rulesets",
    &["build", "-o", "kits", "rulesets"],
)];

/// `line` without its shell comment (a `#` starting a word outside quotes), whitespace made
/// single spaces: the command as the tables above name it.
fn command_of(line: &str) -> String {
    let mut quote = None;
    let mut prev = ' ';
    let mut end = line.len();
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '#') if prev.is_whitespace() => {
                end = i;
                break;
            }
            _ => {}
        }
        prev = c;
    }
    line[..end].split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every line starting `sowkit ` in a ```` ```sh ```` block of README.md, in order, as written.
fn sh_examples() -> Vec<String> {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut in_sh = false;
    let mut out = Vec::new();
    for line in src.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = !in_sh && t == "```sh";
        } else if in_sh && t.starts_with("sowkit ") {
            out.push(t.to_string());
        }
    }
    out
}

/// A scratch folder the examples run in, as a user's: a copy of `rulesets/` and a `my.toml`
/// (the examples' own ruleset: a copy of six-pit-sowing, the three-pit board `replay my.toml
/// --from "A 1 0 2 (4) / …"` plays), HOME there too (the completion and man page lines write
/// under it), and `sowkit` on the PATH as this build. Removed when dropped.
#[cfg(unix)]
struct Scratch {
    dir: std::path::PathBuf,
    home: std::path::PathBuf,
    path: String,
}

#[cfg(unix)]
impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("sowkit-test-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let home = dir.join("home");
        for d in [
            ".local/share/bash-completion/completions",
            ".local/share/man/man1",
        ] {
            std::fs::create_dir_all(home.join(d)).unwrap();
        }
        std::fs::create_dir_all(dir.join("rulesets")).unwrap();
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        for id in common::BUNDLED {
            let to = dir.join("rulesets").join(format!("{id}.toml"));
            std::fs::copy(common::bundled_path(id), to).unwrap();
        }
        std::fs::copy(common::bundled_path("six-pit-sowing"), dir.join("my.toml")).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_sowkit"), dir.join("bin/sowkit")).unwrap();
        let path = format!(
            "{}:{}",
            dir.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Scratch { dir, home, path }
    }

    /// Runs `line` through `sh` here (quotes, redirections and globs are the shell's), after
    /// `sowkit <before>` when given (what the line takes for granted). Err: the line, its exit
    /// code and the head of its standard error.
    fn run(&self, line: &str, before: Option<&[&str]>) -> Result<(), String> {
        if let Some(args) = before {
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_sowkit"))
                .args(args)
                .current_dir(&self.dir)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "before {line:?}: sowkit {args:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        let o = std::process::Command::new("sh")
            .arg("-c")
            .arg(line)
            .current_dir(&self.dir)
            .env("PATH", &self.path)
            .env("HOME", &self.home)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        if o.status.success() {
            return Ok(());
        }
        let err = String::from_utf8_lossy(&o.stderr);
        let head: Vec<&str> = err.lines().take(6).collect();
        Err(format!(
            "{line}\n  exit {:?}:\n  {}",
            o.status.code(),
            head.join("\n  ")
        ))
    }
}

#[cfg(unix)]
impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs the README's `sowkit` example lines in README order in one [`Scratch`] folder; each
/// must exit 0. `slow`: also the [`SLOW`] lines. Returns how many lines were run.
#[cfg(unix)]
fn run_sh_examples(slow: bool) -> usize {
    let lines = sh_examples();
    let commands: Vec<String> = lines.iter().map(|l| command_of(l)).collect();
    // Every exception is a README line still (a reworded one is found again or sorted again).
    let listed = NOT_RUN
        .iter()
        .map(|(c, _)| *c)
        .chain(SLOW)
        .chain(BEFORE.iter().map(|(c, _)| *c));
    for c in listed {
        assert!(
            commands.iter().any(|k| k == c),
            "{c:?} is listed in tests/readme.rs but is no longer a README example line"
        );
    }
    // A replay example is always run (a README move that cannot be played went unnoticed).
    for c in commands.iter().filter(|c| c.starts_with("sowkit replay")) {
        assert!(
            !SLOW.contains(&c.as_str()) && !NOT_RUN.iter().any(|(n, _)| n == c),
            "{c:?}: every replay example is run by the fast test"
        );
    }

    let place = Scratch::new(&format!("readme-sh-{slow}"));
    let mut failed = Vec::new();
    let mut ran = 0;
    for (line, command) in lines.iter().zip(&commands) {
        if NOT_RUN.iter().any(|(c, _)| c == command) || (!slow && SLOW.contains(&command.as_str()))
        {
            continue;
        }
        let before = BEFORE.iter().find(|(c, _)| c == command).map(|(_, a)| *a);
        ran += 1;
        if let Err(e) = place.run(line, before) {
            failed.push(e);
        }
    }
    assert!(
        failed.is_empty(),
        "README examples that fail:\n{}",
        failed.join("\n")
    );
    ran
}

/// The README's `sowkit …` example lines run and exit 0: every one but those that never end
/// or take minutes ([`NOT_RUN`]) and the slow ones ([`SLOW`], run in full in a release build).
/// Every `sowkit replay` example is among them: `--moves "A1< B3>"` went unnoticed though
/// B3 holds 1 seed after A1< and Giuthi needs 2 for a move.
#[cfg(unix)]
#[test]
fn sh_examples_run() {
    let ran = run_sh_examples(false);
    // list, new, check, replay, completions, man, schema, solve, single-kit builds.
    assert!(ran >= 20, "only {ran} README examples run");
}

/// [`sh_examples_run`] with the [`SLOW`] lines too (run by .ci/run in a release build).
#[cfg(unix)]
#[test]
#[ignore = "about 20 s in a debug build: run in release (cargo test --release -- --ignored readme::)"]
fn sh_examples_run_in_full() {
    let ran = run_sh_examples(true);
    assert!(ran >= 40, "only {ran} README examples run");
}

/// `--help` example lines that are not run: `serve` and `watch` run until interrupted.
const HELP_NOT_RUN: [&str; 2] = ["sowkit serve ", "sowkit watch "];

/// `--help` example lines run only by [`help_examples_run_in_full`]: each checks or lays out
/// every bundled kit (seconds each in a debug build).
const HELP_SLOW: [&str; 3] = [
    "sowkit build",
    "sowkit build --check -o kits rulesets",
    "sowkit check",
];

/// The example lines of `sowkit --help` and of every subcommand's `--help`, one list per help
/// page in that order: the lines of an "Example:" or "Examples:" block that start with
/// `sowkit `, without the words that follow the command after two spaces ("  every ruleset in
/// ./rulesets").
fn help_examples() -> Vec<Vec<String>> {
    let help = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_sowkit"))
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "sowkit {args:?}");
        String::from_utf8(o.stdout).unwrap()
    };
    let top = help(&["--help"]);
    // The subcommands `sowkit --help` lists, `help` aside.
    let subs: Vec<String> = top
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|s| s != "help")
        .collect();
    assert!(subs.len() >= 10, "{subs:?}");
    let mut pages = Vec::new();
    for text in std::iter::once(top.clone()).chain(subs.iter().map(|s| help(&[s, "--help"]))) {
        let mut out = Vec::new();
        let mut in_examples = false;
        for line in text.lines() {
            if line == "Example:" || line == "Examples:" {
                in_examples = true;
            } else if line.trim().is_empty() {
                in_examples = false;
            } else if in_examples && line.trim_start().starts_with("sowkit ") {
                let t = line.trim();
                out.push(t.split("  ").next().unwrap_or(t).to_string());
            }
        }
        pages.push(out);
    }
    pages
}

/// Runs the `--help` example lines, each help page's in order in a [`Scratch`] folder of its
/// own (the top-level session writes `my-kalah.toml` and builds it; `build --check -o kits
/// rulesets` compares with what `build -o kits rulesets` wrote), each to exit 0: all but
/// [`HELP_NOT_RUN`], and [`HELP_SLOW`] only when `slow`. Returns how many ran.
#[cfg(unix)]
fn run_help_examples(slow: bool) -> usize {
    let pages = help_examples();
    for c in HELP_SLOW {
        assert!(
            pages.iter().flatten().any(|l| l == c),
            "{c:?} is listed in tests/readme.rs but no --help shows it any more"
        );
    }
    let mut failed = Vec::new();
    let mut ran = 0;
    for (i, lines) in pages.iter().enumerate() {
        let place = Scratch::new(&format!("help-examples-{slow}-{i}"));
        for line in lines {
            let never_ends = HELP_NOT_RUN.iter().any(|p| line.starts_with(p));
            if never_ends || (!slow && HELP_SLOW.contains(&line.as_str())) {
                continue;
            }
            // `build --check` compares with the kits a `build` wrote.
            let before: Option<&[&str]> = (line == "sowkit build --check -o kits rulesets")
                .then_some(&["build", "-o", "kits", "rulesets"]);
            ran += 1;
            if let Err(e) = place.run(line, before) {
                failed.push(e);
            }
        }
    }
    assert!(
        failed.is_empty(),
        "--help examples that fail:\n{}",
        failed.join("\n")
    );
    ran
}

/// Every `--help` example a user can copy runs and exits 0 (the `replay` one played a move
/// Giuthi does not allow, as the README's did), but those that never end and the slow ones.
#[cfg(unix)]
#[test]
fn help_examples_run() {
    let ran = run_help_examples(false);
    // list, new ×3, build ×3, replay ×3, completions, man, schema, check ×2.
    assert!(ran >= 15, "only {ran} --help examples run");
}

/// [`help_examples_run`] with the [`HELP_SLOW`] lines too (run by .ci/run in a release build).
#[cfg(unix)]
#[test]
#[ignore = "lays out every bundled kit: run in release (cargo test --release -- --ignored readme::)"]
fn help_examples_run_in_full() {
    let ran = run_help_examples(true);
    assert!(ran >= 18, "only {ran} --help examples run");
}

//! Issue 8: text that prints as it reads, clear messages for misleading cases, portable ids,
//! never-playable rulesets, manifests that name the ruleset by file name and content hash, and
//! parallel builds that write the same bytes as one thread.
use sowkit::ruleset::load::{self, Diagnostic};
use std::path::{Path, PathBuf};
use std::process::Command;

const GOOD: &str = include_str!("../rulesets/six-pit-sowing.toml");
const LABELS: &str = "pit_labels = [[\"A1\", \"A2\", \"A3\"], [\"B1\", \"B2\", \"B3\"]]";

fn errors(src: &str) -> Vec<Diagnostic> {
    load::load_str("x.toml", src).expect_err("must be refused")
}

fn one_error(src: &str) -> Diagnostic {
    let e = errors(src);
    assert_eq!(
        e.len(),
        1,
        "{:?}",
        e.iter().map(|d| d.short()).collect::<Vec<_>>()
    );
    e.into_iter().next().unwrap()
}

fn line_of(src: &str, prefix: &str) -> usize {
    src.lines().position(|l| l.starts_with(prefix)).unwrap() + 1
}

#[test]
fn invisible_and_bidi_characters_in_labels_are_refused_at_their_character() {
    for (labels, code, k) in [
        // "B1" + U+200B beside a real "B1" would print two pits "B1".
        (
            "[\"A1\", \"A2\", \"A3\"], [\"B1\", \"B2\\u200B\", \"B3\"]",
            "U+200B",
            3,
        ),
        // A label made only of U+200B prints blank.
        (
            "[\"A1\", \"\\u200B\", \"A3\"], [\"B1\", \"B2\", \"B3\"]",
            "U+200B",
            1,
        ),
        // Right-to-left override before a label.
        (
            "[\"\\u202EA1\", \"A2\", \"A3\"], [\"B1\", \"B2\", \"B3\"]",
            "U+202E",
            1,
        ),
        // Written literally, not as an escape.
        (
            "[\"A1\", \"A2\", \"A3\u{2066}\"], [\"B1\", \"B2\", \"B3\"]",
            "U+2066",
            3,
        ),
    ] {
        let src = GOOD.replace(LABELS, &format!("pit_labels = [{labels}]"));
        let d = one_error(&src);
        assert_eq!(d.field, "board.pit_labels");
        assert_eq!(d.line, line_of(&src, "pit_labels"));
        assert!(d.message.contains(code), "{}", d.message);
        assert!(
            d.message.contains(&format!("character {k} of")),
            "{}",
            d.message
        );
        // The caret points at the escape or the character itself, not at the list.
        let col_of_char = src.lines().nth(d.line - 1).unwrap()[..]
            .char_indices()
            .position(|(i, _)| {
                let rest = &src.lines().nth(d.line - 1).unwrap()[i..];
                rest.starts_with("\\u2")
                    || rest.starts_with('\u{2066}')
                    || rest.starts_with('\u{202E}')
            })
            .unwrap()
            + 1;
        assert_eq!(d.column, col_of_char, "{}", d.rendered);
    }
}

#[test]
fn invisible_names_and_control_characters_in_texts_are_located_at_their_field() {
    let src = GOOD.replace("name = \"Six-pit sowing\"", "name = \"\\u200B\"");
    let d = one_error(&src);
    assert_eq!(
        (d.field.as_str(), d.line),
        ("name", line_of(&src, "name ="))
    );
    assert!(d.message.contains("U+200B"), "{}", d.message);

    // A bell character in the second example's note, as an escape: field, line and character.
    // The second example's own note: the first `note = "` after the second `[[example]]`
    // (each example also carries a Spanish note in its `[example.text.es]` table).
    let ex1 = GOOD.find("[[example]]").unwrap();
    let ex2 = ex1 + 1 + GOOD[ex1 + 1..].find("[[example]]").unwrap();
    let second = ex2 + GOOD[ex2..].find("note = \"").unwrap();
    let src = format!(
        "{}note = \"ab\\u0007{}",
        &GOOD[..second],
        &GOOD[second + 8..]
    );
    let d = one_error(&src);
    assert_eq!(d.field, "example[2].note");
    let line = src[..second].lines().count() + 1;
    assert_eq!(d.line, line);
    assert_eq!(d.column, "note = \"ab".len() + 1);
    assert!(
        d.message.contains("character 3 of") && d.message.contains("control character"),
        "{}",
        d.message
    );
}

#[test]
fn labels_equal_after_normalisation_and_case_folding_are_refused() {
    // "É1" precomposed and "e" + combining acute + "1": the same label to a reader.
    let src = GOOD.replace(
        LABELS,
        "pit_labels = [[\"\u{C9}1\", \"A2\", \"A3\"], [\"B1\", \"e\u{301}1\", \"B3\"]]",
    );
    let d = one_error(&src);
    assert_eq!(d.field, "board.pit_labels");
    assert!(d.message.contains("used twice"), "{}", d.message);
    assert_eq!(load::fold("\u{C9}1"), load::fold("e\u{301}1"));
    assert_ne!(load::fold("E1"), load::fold("E2"));
    // Full case folding, not lower-casing alone (break-it pass): the sharp s and "SS", the
    // long s and "s", the ligature "ﬁ" and "fi" (Unicode CaseFolding.txt, status F and C).
    for (a, b) in [
        ("stra\u{DF}e", "STRASSE"),
        ("\u{17F}1", "S1"),
        ("\u{FB01}1", "FI1"),
    ] {
        assert_eq!(load::fold(a), load::fold(b), "{a} {b}");
        let src = GOOD.replace(
            LABELS,
            &format!("pit_labels = [[\"{a}\", \"A2\", \"A3\"], [\"B1\", \"{b}\", \"B3\"]]"),
        );
        let d = one_error(&src);
        assert_eq!(d.field, "board.pit_labels", "{a} {b}");
        assert!(d.message.contains("used twice"), "{}", d.message);
    }
}

#[test]
fn windows_device_names_are_not_ids() {
    for id in ["con", "nul", "aux", "prn", "com1", "lpt9"] {
        let src = GOOD.replace("id = \"six-pit-sowing\"", &format!("id = \"{id}\""));
        let d = one_error(&src);
        assert_eq!((d.field.as_str(), d.line), ("id", 3));
        assert!(d.message.contains("Windows"), "{}", d.message);
    }
    for id in ["console", "com", "com10", "lpt-1", "nul1x"] {
        assert!(!load::windows_reserved(id), "{id}");
    }
}

#[test]
fn a_ruleset_where_no_move_is_ever_possible_is_an_error() {
    let src = GOOD
        .replace("seeds_per_pit = 3", "seeds_per_pit = 1")
        .replace("min_seeds = 1", "min_seeds = 2");
    let e = errors(&src);
    let d = e.iter().find(|d| d.field == "sowing.min_seeds").unwrap();
    assert_eq!(d.line, line_of(&src, "min_seeds"));
    assert!(
        d.message.contains("no move is ever possible"),
        "{}",
        d.message
    );
}

/// Kalah's rules on one pit a side with one seed.
const ONE_PIT: &str = r#"id = "one-pit"
name = "One pit"
lang = "en"
source = "test"
[board]
pits_per_side = 1
seeds_per_pit = 1
players = ["A", "B"]
pit_labels = [["A1"], ["B1"]]
stores = ["store A", "store B"]
[sowing]
direction = "counterclockwise"
own_store = "sow"
opponent_store = "skip"
origin_on_lap = "sow"
min_seeds = 1
relay = "none"
[extra_turn]
on = ["last-in-own-store"]
[capture]
kind = "opposite"
side = "own"
last_pit_was_empty = true
opposite_must_have_seeds = true
take_capturing_seed = true
chain = "none"
[end]
when = ["either-side-empty"]
remaining_seeds = "owner"
no_legal_move = "end"
"#;

/// One pit a side and one seed, Kalah's rules (worked by hand): South's only move sows its
/// seed into its own store (an extra turn), South's row is then empty and the game ends. Every
/// game is that one move, so no position is left to practise on: `check` warns, and the
/// practice page and host key say so instead of printing empty.
#[test]
fn a_ruleset_whose_games_end_at_once_says_it_has_no_exercises() {
    use sowkit::layout::practice;
    let one = crate::common::kalah(1, 1);
    assert!(practice::exercises(&one).unwrap().is_empty());
    assert!(!practice::has_exercises(&one));
    // Ordinary rules have exercises.
    assert!(practice::has_exercises(&crate::common::kalah(6, 4)));
    assert!(practice::has_exercises(
        &load::load_str("g.toml", GOOD).unwrap()
    ));
    for lang in ["en", "es"] {
        let opts = sowkit::layout::KitOptions {
            lang: Some(lang.to_string()),
            ..sowkit::layout::KitOptions::new(sowkit::paper::A4)
        };
        let want = if lang == "en" {
            ("No practice exercises", "There are no practice exercises")
        } else {
            (
                "No hay ejercicios de práctica",
                "Estas reglas no tienen ejercicios",
            )
        };
        let mut one = one.clone();
        if lang == "es" {
            one.lang = "es".to_string();
        }
        let kit = sowkit::layout::kit(&one, &opts).unwrap();
        let page = kit
            .pages
            .iter()
            .find(|p| p.name.starts_with("practice"))
            .unwrap();
        let text: String = page
            .texts()
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(text.contains(want.0), "{lang}: {text}");
        let howto = kit
            .pages
            .iter()
            .find(|p| p.name.starts_with("howto"))
            .unwrap();
        let text: String = howto
            .texts()
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let none = if lang == "en" {
            "no need to print it"
        } else {
            "no hace falta imprimirla"
        };
        assert!(text.contains(none), "{lang}: {text}");
        let key = sowkit::layout::host_key(&one, &opts).unwrap();
        let text: String = key.pages[0]
            .texts()
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(text.contains(want.1), "{lang}: {text}");
    }
    // `check` warns, naming the file; the bundled six-pit ruleset gets no such warning.
    let dir = scratch("no-exercises");
    let toml = ONE_PIT;
    let f = dir.join("one.toml");
    std::fs::write(&f, toml).unwrap();
    let out = bin().arg("check").arg(&f).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("one.toml: no practice exercises"),
        "{toml}\n{err}"
    );
    let out = bin()
        .arg("check")
        .arg(repo("rulesets/six-pit-sowing.toml"))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("practice exercises"));
}

#[test]
fn misleading_toml_messages_say_what_is_right() {
    // A number past 64 bits: the range of the field.
    let src = GOOD.replace("seeds_per_pit = 3", "seeds_per_pit = 18446744073709551615");
    let d = one_error(&src);
    assert_eq!(d.field, "board.seeds_per_pit");
    assert!(d.message.contains("from 1 to 50"), "{}", d.message);
    // Past 64 bits (the parser reads it as a 128-bit number): the same, with no Rust types.
    for (from, key, range) in [
        ("seeds_per_pit = 3", "seeds_per_pit", "from 1 to 50"),
        (
            "min_seeds = 1",
            "min_seeds",
            "from 1 to the number of seeds in play",
        ),
    ] {
        let field = if key == "min_seeds" {
            "sowing.min_seeds"
        } else {
            "board.seeds_per_pit"
        };
        let src = GOOD.replace(from, &format!("{key} = 99999999999999999999"));
        let d = one_error(&src);
        assert_eq!(d.field, field);
        assert!(
            d.message.contains(range) && !d.message.contains("i128"),
            "{}",
            d.message
        );
        assert!(
            d.message
                .starts_with("99999999999999999999 is far too large; use a whole number"),
            "{}",
            d.message
        );
    }
    // A size in millimetres gets its range in millimetres.
    let src = GOOD.replace("pit_diameter = 40", "pit_diameter = 99999999999999999999");
    assert_ne!(src, GOOD);
    let d = one_error(&src);
    assert_eq!(d.field, "layout.pit_diameter");
    assert!(
        d.message
            .ends_with("use a size in millimetres from 12 to 80"),
        "{}",
        d.message
    );
    // A float where a count goes: no Rust type names.
    let src = GOOD.replacen("captured = 0", "captured = 1e20", 1);
    let d = one_error(&src);
    assert!(d.field.ends_with("expect.captured"), "{}", d.field);
    for rust in ["i128", "i64", "f64", "u64"] {
        assert!(!d.message.contains(rust), "{}", d.message);
    }
    assert!(d.message.contains("whole number"), "{}", d.message);
    // An unquoted date is a date, not "a table".
    let src = GOOD.replace("name = \"Six-pit sowing\"", "name = 1979-05-27T07:32:00Z");
    let d = one_error(&src);
    assert_eq!(d.field, "name");
    assert!(
        d.message.contains("a date or time") && !d.message.contains("table"),
        "{}",
        d.message
    );
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sowkit"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sowkit-robust-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// A folder's `.toml` entries: a link to nothing is reported, naming the link (it was skipped
/// without a word and `check` said all was well); a FIFO is refused by name, never read (a read
/// would block); a sub-folder named `x.toml` is not searched.
/// 16 pits a side, no `pit_labels`, 10-letter player names: the pit labels are made from the
/// names ("Abcdefghij1") and overlap on the practice sheet. The message names `board.players`
/// at its line (it named `board.pit_labels`, a key the file does not have, at `[board]`). The
/// same ruleset (in Spanish only) built in English is told to add `[text.en]`, without the
/// example tables it has none of.
#[test]
fn derived_pit_labels_are_blamed_on_the_players_names() {
    let dir = scratch("players");
    let src = include_str!("fixtures/long-player-names.toml");
    let f = dir.join("long.toml");
    std::fs::write(&f, src).unwrap();
    let o = bin()
        .args(["build", "-q", "-o"])
        .arg(dir.join("out"))
        .arg(&f)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let line = line_of(src, "players = ");
    assert!(
        err.contains(&format!("long.toml:{line}: board.players: ")),
        "{err}"
    );
    assert!(!err.contains("board.pit_labels"), "{err}");
    let o = bin()
        .args(["build", "-q", "--lang", "en", "-o"])
        .arg(dir.join("out"))
        .arg(&f)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("add a [text.en] table"), "{err}");
    assert!(
        !err.contains("[example.text.en]") && !err.contains("cannot lay out"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn a_folder_reports_its_dangling_links_and_refuses_fifos() {
    let dir = scratch("folder-odd");
    std::fs::write(dir.join("a.toml"), GOOD).unwrap();
    std::os::unix::fs::symlink("nowhere.toml", dir.join("dangling.toml")).unwrap();
    std::fs::create_dir(dir.join("sub.toml")).unwrap();
    let o = bin().arg("check").arg(&dir).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "dangling.toml: the file is a symbolic link to nowhere.toml, which does not exist"
        ),
        "{err}"
    );
    assert!(err.contains("1 of 2 ruleset(s) failed"), "{err}");
    std::fs::remove_file(dir.join("dangling.toml")).unwrap();
    let fifo = dir.join("f.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let o = bin().arg("check").arg(&dir).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("f.toml is not a regular file"), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn symlink_loops_dangling_outputs_and_io_errors_name_their_paths() {
    use std::os::unix::fs::symlink;
    let dir = scratch("links");
    symlink(dir.join("loop-b"), dir.join("loop-a")).unwrap();
    symlink(dir.join("loop-a"), dir.join("loop-b")).unwrap();
    let r = bin().arg("check").arg(dir.join("loop-a")).output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1));
    assert!(err.contains("loop-a") && err.contains("loop"), "{err}");
    assert!(!err.contains("does not exist"), "{err}");

    symlink(dir.join("gone/kits"), dir.join("dangling")).unwrap();
    let six = repo("rulesets/six-pit-sowing.toml");
    let r = bin()
        .arg("build")
        .arg(&six)
        .arg("-o")
        .arg(dir.join("dangling"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        err.contains("symbolic link to")
            && err.contains("gone/kits")
            && !err.contains("os error 17"),
        "{err}"
    );

    // A file in the middle of -o: the error names the folder it could not create.
    std::fs::write(dir.join("plain"), b"").unwrap();
    let r = bin()
        .arg("build")
        .arg(&six)
        .arg("-o")
        .arg(dir.join("plain/kits"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        err.contains(&format!("{}", dir.join("plain/kits").display())),
        "{err}"
    );
}

#[test]
fn manifest_names_the_file_and_its_sha256_never_the_path_typed() {
    let dir = scratch("manifest");
    let six = repo("rulesets/six-pit-sowing.toml");
    // The same file given by absolute path and by a relative one.
    let (a, b) = (dir.join("a"), dir.join("b"));
    assert!(bin()
        .arg("build")
        .arg(&six)
        .arg("-o")
        .arg(&a)
        .status()
        .unwrap()
        .success());
    assert!(bin()
        .current_dir(repo(""))
        .args(["build", "rulesets/six-pit-sowing.toml", "-o"])
        .arg(&b)
        .status()
        .unwrap()
        .success());
    let ma = std::fs::read_to_string(a.join("six-pit-sowing/manifest.txt")).unwrap();
    let mb = std::fs::read_to_string(b.join("six-pit-sowing/manifest.txt")).unwrap();
    assert_eq!(ma, mb);
    assert!(!ma.contains(env!("CARGO_MANIFEST_DIR")), "{ma}");
    assert!(!ma.contains("rulesets/"), "{ma}");
    let hash = load::sha256_hex(&std::fs::read(&six).unwrap());
    assert!(
        ma.contains(&format!("source file: six-pit-sowing.toml (sha256 {hash})")),
        "{ma}"
    );
    // FIPS 180-2 test vector, so the hash is SHA-256 and not something else.
    assert_eq!(
        load::sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

/// Every file under `dir`, with its bytes, sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn parallel_builds_write_the_same_bytes_as_one_thread() {
    let dir = scratch("parallel");
    let mut trees = Vec::new();
    for threads in ["1", "4"] {
        let out = dir.join(format!("t{threads}"));
        let r = bin()
            .env("RAYON_NUM_THREADS", threads)
            .arg("build")
            .arg(repo("rulesets"))
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        trees.push(tree(&out));
    }
    assert!(trees[0].len() >= 5 * 10);
    assert!(trees[0] == trees[1], "1 and 4 threads wrote different kits");
}

/// A ruleset where no seed can ever reach a store (both stores skipped, no capture) and whose
/// only end is a threshold may never end: `check` warns at `end.when` (a break-it pass built one
/// without a word, and its playouts all ran to the move cap). With an either-side-empty end,
/// or with seeds sown into the stores, there is nothing to warn about.
#[test]
fn a_threshold_no_seed_can_reach_is_warned_about() {
    // The bundled six-pit ruleset, without its worked examples (they sow into the store),
    // with its own store skipped too (and so no extra turn there).
    let base = GOOD[..GOOD.find("[[example]]").unwrap()]
        .replace("own_store = \"sow\"", "own_store = \"skip\"")
        .replace("on = [\"last-in-own-store\"]", "on = []");
    assert!(base.contains("opponent_store = \"skip\""));
    let when = |w: &str| {
        let start = base.find("when = [").unwrap();
        let end = start + base[start..].find('\n').unwrap();
        format!("{}when = {w}{}", &base[..start], &base[end..])
    };
    let warned = |src: &str| {
        sowkit::ruleset::check_source("t.toml", src)
            .warnings
            .into_iter()
            .filter(|d| d.field == "end.when" && d.message.contains("may never end"))
            .count()
    };
    // No capture, so only the threshold could end the game.
    let src =
        when("[\"threshold\"]\nthreshold = 4").replace("kind = \"opposite\"", "kind = \"none\"");
    assert!(!src.contains("kind = \"opposite\""), "{src}");
    let checked = sowkit::ruleset::check_source("t.toml", &src);
    assert!(
        checked.errors.is_empty(),
        "{:?}",
        checked.errors.iter().map(|d| d.short()).collect::<Vec<_>>()
    );
    assert_eq!(warned(&src), 1);
    let d = checked
        .warnings
        .iter()
        .find(|d| d.field == "end.when")
        .unwrap();
    assert_eq!(d.line, line_of(&src, "when = "));
    // Another end, or a capture that fills the stores: no warning.
    assert_eq!(
        warned(&src.replace(
            "when = [\"threshold\"]",
            "when = [\"threshold\", \"either-side-empty\"]"
        )),
        0
    );
    let with_capture = when("[\"threshold\"]\nthreshold = 4");
    assert_eq!(warned(&with_capture), 0);
}

/// A comma separates moves (`replay --moves A1,B2`, the play page), so a label with one could
/// never be named there: refused at its field (a break-it pass had `"A,1"` pass `check`).
#[test]
fn a_label_with_a_comma_is_refused() {
    let src = GOOD.replace(
        LABELS,
        "pit_labels = [[\"A,1\", \"A2\", \"A3\"], [\"B1\", \"B2\", \"B3\"]]",
    );
    let d = one_error(&src);
    assert_eq!(d.field, "board.pit_labels");
    assert!(
        d.message.contains("\"A,1\" is not usable") && d.message.contains(", and double quotes"),
        "{}",
        d.message
    );
}

/// The label error names exactly the characters the rule refuses: every ASCII mark in a pit
/// label (`B?2`, the ruleset's examples naming it the same) and in a store label (`store?B`)
/// is refused if and only if the message names it. The message said "no … or quotes" while
/// `S'2` passed; an apostrophe (a prime, `A'`) is a natural label and is taken, and the
/// message says double quotes.
#[test]
fn the_label_message_names_exactly_the_refused_characters() {
    // The label as a TOML basic string.
    let toml = |l: &str| format!("\"{}\"", l.replace('\\', "\\\\").replace('"', "\\\""));
    for (old, label_of, field) in [
        (
            "B2",
            (|c: char| format!("B{c}2")) as fn(char) -> String,
            "board.pit_labels",
        ),
        ("store B", |c: char| format!("store{c}B"), "board.stores"),
    ] {
        let refusal = |label: &str| -> Option<String> {
            let src = GOOD.replace(&format!("\"{old}\""), &toml(label));
            match load::load_str("x.toml", &src) {
                Ok(_) => None,
                Err(e) => {
                    let d = e
                        .iter()
                        .find(|d| d.field == field && d.message.contains("is not usable"))
                        .unwrap_or_else(|| {
                            panic!(
                                "{label:?}: {:?}",
                                e.iter().map(|d| d.short()).collect::<Vec<_>>()
                            )
                        });
                    Some(d.message.clone())
                }
            }
        };
        let message = refusal(&label_of('"')).expect("a double quote is refused");
        assert!(message.contains("double quotes (\")"), "{message}");
        assert!(!message.contains(" or quotes"), "{message}");
        // A mark is named when it stands alone between spaces (the list), or is the quote.
        let named = |c: char| c == '"' || message.split_whitespace().any(|t| t == c.to_string());
        let mut refused = Vec::new();
        for c in ('!'..='~').filter(|c| !c.is_ascii_alphanumeric()) {
            let label = label_of(c);
            let r = refusal(&label);
            assert_eq!(
                r.is_some(),
                named(c),
                "{label:?}: refused {}, named in the message {}: {message}",
                r.is_some(),
                named(c)
            );
            if r.is_some() {
                refused.push(c);
            }
        }
        assert_eq!(refused.iter().collect::<String>(), "\"(),/;<>[]", "{field}");
        assert!(
            refusal(&label_of('\'')).is_none(),
            "{field}: an apostrophe is a label's"
        );
    }
}

/// A size just past its range is quoted as written, not rounded into the range ("80 mm is out
/// of range: use 12 to 80 mm" for 80.0001; break-it pass).
#[test]
fn a_size_just_out_of_range_is_quoted_as_written() {
    for (from, to, says) in [
        (
            "pit_diameter = 40",
            "pit_diameter = 80.0001",
            "80.0001 mm is out of range: use 12 to 80 mm",
        ),
        (
            "counter_diameter = 12",
            "counter_diameter = 4.99999",
            "4.99999 mm is out of range: use 5 to 60 mm",
        ),
    ] {
        let src = GOOD.replace(from, to);
        assert_ne!(src, GOOD);
        let d = one_error(&src);
        assert!(d.message.contains(says), "{}", d.message);
    }
}

/// A combining mark that composes with no letter (Unicode NFC leaves it apart) would print
/// over nothing, or hidden under another mark: "n" + U+0303 + U+0308 printed as "ñ", beside a
/// real "ñ" label (a break-it pass). Refused at its character; a mark that composes
/// ("e" + U+0301, printed "é") is not.
#[test]
fn a_combining_mark_that_composes_with_nothing_is_refused() {
    let src = GOOD.replace(
        LABELS,
        "pit_labels = [[\"\u{F1}\", \"A2\", \"A3\"], [\"B1\", \"n\u{303}\u{308}\", \"B3\"]]",
    );
    let d = one_error(&src);
    assert_eq!(d.field, "board.pit_labels");
    assert!(
        d.message.contains("character 3 of") && d.message.contains("U+0308, a combining mark"),
        "{}",
        d.message
    );
    let ok = GOOD.replace(
        LABELS,
        "pit_labels = [[\"e\u{301}1\", \"A2\", \"A3\"], [\"B1\", \"B2\", \"B3\"]]",
    );
    assert!(load::load_str("t.toml", &ok).is_ok());
}

/// An `expect` whose only key is wrong gets that key's error alone, not also "expect states
/// nothing" (a break-it pass got both for `scores = [1, 2, 3]`); an empty one gets the latter.
#[test]
fn a_wrong_expectation_is_not_also_called_empty() {
    let i = GOOD.find("[example.expect]").unwrap();
    let end = i + GOOD[i..].find("\n[[example]]").unwrap();
    let with = |body: &str| format!("{}[example.expect]\n{body}{}", &GOOD[..i], &GOOD[end..]);
    let errs = errors(&with("scores = [1, 2, 3]\n"));
    assert_eq!(
        errs.iter().map(|d| d.field.as_str()).collect::<Vec<_>>(),
        ["example[1].expect.scores"],
        "{:?}",
        errs.iter().map(|d| d.short()).collect::<Vec<_>>()
    );
    let errs = errors(&with(""));
    assert!(
        errs.iter()
            .any(|d| d.field == "example[1].expect" && d.message.contains("states nothing")),
        "{:?}",
        errs.iter().map(|d| d.short()).collect::<Vec<_>>()
    );
}

/// A paper side far from any paper is named as such, not with 300 digits or as "0.0 mm"
/// (break-it pass: `140x1e308mm`, `1e-300x140mm`, now written out, since an exponent is
/// refused); an ordinary wrong size keeps its number.
#[test]
fn paper_sizes_far_out_of_range_are_named_plainly() {
    let huge = format!("140x1{}mm", "0".repeat(300));
    let e = sowkit::paper::Paper::parse(&huge).unwrap_err();
    let e = e.replace(&huge, "…");
    assert!(
        e.contains("is over 10000 mm on its long side: at most 2000 mm"),
        "{e}"
    );
    assert!(e.len() < 200, "{e}");
    let e = sowkit::paper::Paper::parse("0.01x140mm").unwrap_err();
    assert!(e.contains("is under 0.1 mm on its short side"), "{e}");
    let e = sowkit::paper::Paper::parse("100x140mm").unwrap_err();
    assert!(e.contains("is 100.0 mm on its short side"), "{e}");
    // Within rounding of a limit: never "140.0 mm … at least 140 mm".
    let e = sowkit::paper::Paper::parse("139.99x300mm").unwrap_err();
    assert!(e.contains("is just under 140 mm on its short side"), "{e}");
    let e = sowkit::paper::Paper::parse("2000.01x300mm").unwrap_err();
    assert!(e.contains("is just over 2000 mm on its long side"), "{e}");
    assert!(sowkit::paper::Paper::parse("140x2000mm").is_ok());
    // The part that is not a number is named.
    let e = sowkit::paper::Paper::parse("200x200mmmm").unwrap_err();
    assert!(e.contains("\"200mm\" is not a number"), "{e}");
    let e = sowkit::paper::Paper::parse("0x200mm").unwrap_err();
    assert!(e.contains("\"0\" is not above 0"), "{e}");
}

/// Issue 8, a break-it pass: a legal relay game of 2,000 moves on 16 pits of 50 seeds listed
/// 9 million sown holes, so `replay --format json` wrote 219 MB at 1.15 GB and the play-test
/// API answered 74 MB at 1 GB a request. A replay now lists at most `REPLAY_SOWN` holes: the
/// move that passes it is named, and shorter replays of the same game still work. The count is
/// checked against the engine's own reports, summed here.
#[test]
fn a_replay_lists_a_bounded_number_of_sown_holes() {
    use sowkit::replay::{self, REPLAY_SOWN};
    let rs = load::load_str("relay.toml", include_str!("fixtures/relay-16x50.toml")).unwrap();
    let rules = sowkit::engine::Rules::new(&rs);
    let moves = replay::split_moves(include_str!("fixtures/relay-16x50-game.txt"));
    assert_eq!(moves.len(), 2000);
    // The move that passes the limit, from the engine's reports.
    let mut game = sowkit::engine::Game::new(&rules, rules.initial());
    let mut total = 0;
    let mut over = None;
    for (i, m) in moves.iter().enumerate() {
        let mv = sowkit::notation::parse_move(&rules, m).unwrap();
        let r = game.play(mv).unwrap();
        total += r.laps.iter().map(|l| l.sown.len()).sum::<usize>();
        if total > REPLAY_SOWN {
            over = Some(i + 1);
            break;
        }
    }
    let over = over.expect("the game passes the limit");
    let e = replay::run(&rules, None, &moves)
        .map(|_| ())
        .expect_err("refused");
    assert_eq!(e.ply, over);
    assert!(e.message.contains("limit on sown holes"), "{}", e.message);
    assert!(replay::run(&rules, None, &moves[..over - 1]).is_ok());
    // The command line says so, in well under a second, writing nothing to standard output.
    let dir = scratch("replay-sown");
    let f = dir.join("relay.toml");
    std::fs::write(&f, include_str!("fixtures/relay-16x50.toml")).unwrap();
    let o = bin()
        .args(["replay", "--format", "json", "--moves"])
        .arg(moves.join(" "))
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains(&format!("by move {over} ")));
}

/// `replay … | head -c 100` ended in a "failed printing to stdout: Broken pipe" panic (exit
/// 101). A reader that stops now ends the command as it ends `cat`: by SIGPIPE, no panic.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_output_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let f = repo("tests/fixtures/relay-16x50.toml");
    let mut child = bin()
        .args(["replay", "--format", "json", "--moves", "A1"])
        .arg(&f)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Read a little, then close the pipe, as `head -c 100` does.
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    std::io::Read::read_exact(&mut out, &mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(o.status.code(), Some(101), "{err}");
    assert!(
        o.status.success() || o.status.signal() == Some(libc_sigpipe()),
        "{:?} {err}",
        o.status
    );
}

/// SIGPIPE's number on Linux and the BSDs.
#[cfg(unix)]
fn libc_sigpipe() -> i32 {
    13
}

/// A missing key is named as the key (it named the table's first key: `id` for a ruleset
/// without `source`), top-level or in a table.
#[test]
fn a_missing_key_is_named_itself() {
    // The first `source =` is the top-level one; the second is [text.es]'s.
    let cut = |at: usize| {
        let end = at + 1 + GOOD[at + 1..].find('\n').unwrap();
        format!("{}{}", &GOOD[..at], &GOOD[end..])
    };
    let d = one_error(&cut(GOOD.find("\nsource = ").unwrap()));
    assert_eq!(d.field, "source", "{}", d.message);
    let no_es_source = cut(GOOD.rfind("\nsource = ").unwrap());
    let d = one_error(&no_es_source);
    assert_eq!(d.field, "text.es.source", "{}", d.message);
    let no_seeds = GOOD.replace("seeds_per_pit = 3", "");
    let d = one_error(&no_seeds);
    assert_eq!(d.field, "board.seeds_per_pit", "{}", d.message);
}

/// `solve --nodes 0` and `--memory 0` were taken (a solve that stopped at once, "the node
/// budget (0 positions) ran out", or one without a table): a limit that allows nothing is a
/// wrong command line, exit 2, naming the option and the values it takes.
#[test]
fn solve_node_and_memory_limits_refuse_zero() {
    let f = repo("rulesets/six-pit-sowing.toml");
    for (arg, allowed) in [
        ("--nodes=0", "1.."),
        ("--nodes=-3", "1.."),
        ("--memory=0", "1..=1048576"),
        ("--memory=1048577", "1..=1048576"),
        ("--memory=-1", "1..=1048576"),
        // Past 64 bits: the range too (a tester read "number too large to fit in target type").
        (
            "--nodes=18446744073709551616",
            "18446744073709551616 is not in 1..=9223372036854775807",
        ),
        (
            "--memory=99999999999999999999",
            "99999999999999999999 is not in 1..=1048576",
        ),
    ] {
        let o = bin().arg("solve").arg(arg).arg(&f).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{arg}: {err}");
        let name = arg.split('=').next().unwrap();
        assert!(err.contains(name), "{arg}: {err}");
        assert!(err.contains(allowed), "{arg}: {err}");
    }
    // The smallest limits allowed are taken: one position, a 1 MiB table.
    let o = bin()
        .args(["solve", "--nodes=1", "--memory=1"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A budget of N positions visits at most N (it said it had searched N + 1): six-pit
    // sowing takes 2 063 positions to solve (README "Solving"), so each of these runs out.
    for n in [1u64, 2, 100, 1000] {
        let o = bin()
            .args(["solve", "--format", "json"])
            .arg(format!("--nodes={n}"))
            .arg(&f)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("\"value\":null"), "{n}: {out}");
        assert!(out.contains(&format!("\"nodes\":{n},")), "{n}: {out}");
    }
}

/// `solve --budget` 0, `nan` and `inf` exited 1 and `-1` exited 2: each is a bad argument,
/// exit 2 with the argument named, as clap refuses any other.
#[test]
fn solve_budget_is_checked_as_an_argument() {
    let f = repo("rulesets/six-pit-sowing.toml");
    for b in ["0", "nan", "inf", "-1", "x"] {
        let o = bin()
            .arg("solve")
            .arg(format!("--budget={b}"))
            .arg(&f)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{b}: {err}");
        assert!(err.contains("--budget"), "{b}: {err}");
    }
    let o = bin()
        .args(["solve", "--budget=5"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(o.status.success());
}

/// A tiny `solve --budget` runs out at the first time check (after 4096 positions: Kalah 6×3
/// is far bigger) and is echoed in exponent form, as typed: it was a 302-character decimal on
/// a 382-character line.
#[test]
fn a_tiny_solve_budget_is_echoed_short() {
    let o = bin()
        .args(["solve", "--bundled", "kalah-6x3", "--budget", "1e-300"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.contains("Not proven: the time budget (1e-300 s) ran out."),
        "{out}"
    );
    assert!(out.lines().all(|l| l.chars().count() < 100), "{out}");
}

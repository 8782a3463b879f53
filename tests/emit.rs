//! `replay --emit-example` output as a ruleset's author uses it: appended to the ruleset
//! (`>> ruleset.toml`), it is accepted by `check` and reaches the same end as the game
//! replayed; and what `check` refuses in a title, `replay --title` refuses too.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sowkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sowkit"))
}

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// A fresh empty folder under the system temp dir, unique per test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sowkit-emit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A game of the bundled ruleset `id` played to its end, each move the first that captures
/// nothing, else one picked by a fixed pseudo-random sequence from `seed`: its moves in
/// notation, and how it ended.
fn random_game(id: &str, seed: u64) -> (Vec<String>, sowkit::engine::Ending) {
    let src = std::fs::read_to_string(repo(&format!("rulesets/{id}.toml"))).unwrap();
    let rs = sowkit::ruleset::load_str(&format!("{id}.toml"), &src).unwrap();
    let rules = sowkit::engine::Rules::new(&rs);
    let mut g = sowkit::engine::Game::new(&rules, rules.initial());
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut moves = Vec::new();

    while !g.is_over() && moves.len() < 20000 {
        let legal = g.legal_moves();
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        // The first move that captures nothing (long games), else one picked at random.
        let quiet = legal
            .iter()
            .copied()
            .find(|&m| g.clone().play(m).unwrap().captured == 0);
        let mv = quiet.unwrap_or(legal[((x >> 33) as usize) % legal.len()]);
        g.play(mv).unwrap();
        moves.push(sowkit::notation::format_move(&rules, mv));
    }
    let end = g.ending().cloned().expect("no end in 20000 moves");
    (moves, end)
}

/// `replay --emit-example` of `moves` on `ruleset`: (stdout, stderr), asserting success.
fn emit(ruleset: &Path, moves: &[String], title: Option<&str>) -> Output {
    let mut c = sowkit();
    c.arg("replay")
        .arg(ruleset)
        .args(["--moves", &moves.join(" "), "--emit-example"]);
    if let Some(t) = title {
        c.args(["--title", t]);
    }
    c.output().unwrap()
}

/// Giuthi games of more than 500 moves (the most a worked example may have) that end by
/// repetition: the emitted example starts later, and `check` of the ruleset with it appended
/// agrees that the game is over with the engine's scores. Seeds found by playing 300 games
/// with `random_game` (503 to 615 moves).
#[test]
fn a_long_game_ending_by_repetition_keeps_its_end_when_cut() {
    let d = scratch("repetition");
    for seed in [153, 185, 217, 265] {
        let (moves, end) = random_game("giuthi", seed);
        assert!(moves.len() > 500, "seed {seed}: {}", moves.len());
        assert_eq!(end.reason, sowkit::engine::EndReason::Repetition);
        let o = emit(&repo("rulesets/giuthi.toml"), &moves, None);
        let (ex, err) = text(&o);
        assert!(o.status.success(), "seed {seed}: {err}");
        assert!(
            err.contains(&format!("the game has {} moves", moves.len())),
            "{err}"
        );
        assert!(ex.contains("game_over = true"), "seed {seed}: {ex}");
        assert!(
            ex.contains(&format!("scores = [{}, {}]", end.scores[0], end.scores[1])),
            "seed {seed}: {:?}\n{ex}",
            end.scores
        );
        let f = d.join(format!("giuthi-{seed}.toml"));
        let mut src = std::fs::read_to_string(repo("rulesets/giuthi.toml")).unwrap();
        src.push_str(&ex);
        std::fs::write(&f, &src).unwrap();
        let o = sowkit().arg("check").arg(&f).output().unwrap();
        assert!(o.status.success(), "seed {seed}: {:?}", text(&o));
        // The ending is really checked: the same example saying the game goes on is refused.
        std::fs::write(&f, src.replace("game_over = true", "game_over = false")).unwrap();
        let o = sowkit().arg("check").arg(&f).output().unwrap();
        assert_eq!(o.status.code(), Some(1), "seed {seed}: {:?}", text(&o));
    }
}

/// Every bundled ruleset ends with a newline, and an emitted example appended to a copy of
/// it (`>> ruleset.toml`), or to a copy whose final newline was cut off, is accepted by
/// `check`, which counts one more worked example.
#[test]
fn an_emitted_example_appends_to_every_bundled_ruleset() {
    let d = scratch("append");
    for e in std::fs::read_dir(repo("rulesets")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) != Some("toml") {
            continue;
        }
        let src = std::fs::read_to_string(&p).unwrap();
        assert!(src.ends_with('\n'), "{} has no final newline", p.display());
        let rs = sowkit::ruleset::load_str("r.toml", &src).unwrap();
        let rules = sowkit::engine::Rules::new(&rs);
        let g = sowkit::engine::Game::new(&rules, rules.initial());
        let first = sowkit::notation::format_move(&rules, g.legal_moves()[0]);
        let o = emit(&p, &[first], None);
        let (ex, err) = text(&o);
        assert!(o.status.success(), "{}: {err}", p.display());
        assert!(ex.starts_with("\n[[example]]"), "{ex}");
        let had = rs.examples.len();
        for (k, base) in [src.clone(), src.trim_end().to_string()].iter().enumerate() {
            let f = d.join(format!("{k}-{}", p.file_name().unwrap().to_str().unwrap()));
            std::fs::write(&f, format!("{base}{ex}")).unwrap();
            let o = sowkit().arg("check").arg(&f).output().unwrap();
            let (_, err) = text(&o);
            assert!(o.status.success(), "{}: {err}", f.display());
            assert!(
                err.contains(&format!("{} worked examples agree", had + 1)),
                "{}: {err}",
                f.display()
            );
        }
    }
}

/// `replay --title` refuses what `check` refuses in an example's title, with the same words:
/// invisible and bidi-control characters, (in a title, one line) newlines and tabs, and
/// characters the bundled font lacks (CJK, an emoji DejaVu Sans has no glyph for), draws as
/// nothing (U+2800, the blank Braille pattern) or that need right-to-left shaping (Arabic);
/// the first such character is named.
#[test]
fn replay_title_refuses_what_check_refuses() {
    let d = scratch("title");
    let six = repo("rulesets/six-pit-sowing.toml");
    for (title, code) in [
        ("S1\u{200B}", "U+200B"),
        ("\u{202E}S1", "U+202E"),
        ("two\nlines", "U+000A"),
        ("a\ttab", "U+0009"),
        ("中文の例", "U+4E2D"),
        ("Opening مرحبا", "U+0645"),
        ("Crab \u{1F980} move", "U+1F980"),
        // In the font, but its glyph is blank: it would print as nothing.
        ("Pit \u{2800} one", "U+2800"),
    ] {
        let o = emit(&six, &["A1".to_string()], Some(title));
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{title:?}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("--title") && err.contains(code), "{err}");
        // check refuses the same title in an example, at its line, naming the field.
        let o = emit(&six, &["A1".to_string()], Some("fine"));
        let (ex, _) = text(&o);
        let src = std::fs::read_to_string(&six).unwrap();
        let bad = ex.replace(
            "title = \"fine\"",
            &format!("title = {}", sowkit::replay::toml_string(title)),
        );
        let f = d.join("six.toml");
        std::fs::write(&f, format!("{src}{bad}")).unwrap();
        let o = sowkit().arg("check").arg(&f).output().unwrap();
        let (_, cerr) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{title:?}: {cerr}");
        assert!(cerr.contains(".title") && cerr.contains(code), "{cerr}");
        assert!(cerr.contains("six.toml:"), "{cerr}");
        let msg = cerr.lines().find(|l| l.contains(code)).unwrap();
        let what = msg.split(code).nth(1).unwrap();
        assert!(err.contains(what), "replay: {err}\ncheck: {msg}");
    }
}

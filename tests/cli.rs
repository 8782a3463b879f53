//! The command line as a user meets it: check, build, refusing to print on a wrong example.
use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn sowkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sowkit"))
}

/// A fresh empty folder under the system temp dir, unique per test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sowkit-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// Every file under `dir` with its bytes, sorted by path.
fn snapshot_tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn check_accepts_every_bundled_ruleset() {
    let out = sowkit()
        .arg("check")
        .arg(repo("rulesets"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    for id in common::BUNDLED {
        assert!(
            err.contains(&format!("{id}.toml")),
            "{id} not checked: {err}"
        );
    }
}

#[test]
fn wrong_worked_example_blocks_build_and_leaves_output_untouched() {
    let dir = scratch("wrong-example");
    let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    // The opening demonstration: A1 (3 seeds) ends in store A, so A moves again. Claim B moves.
    let bad = src.replacen("next = \"A\"", "next = \"B\"", 1);
    assert_ne!(
        bad, src,
        "the bundled ruleset should state next = \"A\" somewhere"
    );
    let wrong_line = bad
        .lines()
        .position(|l| l.contains("next = \"B\""))
        .unwrap()
        + 1;
    let file = dir.join("six-pit-sowing.toml");
    std::fs::write(&file, &bad).unwrap();
    let out_dir = dir.join("out");
    std::fs::create_dir_all(out_dir.join("six-pit-sowing")).unwrap();
    std::fs::write(out_dir.join("six-pit-sowing/kit.pdf"), b"previous kit").unwrap();
    let before = snapshot_tree(&out_dir);

    let out = sowkit()
        .arg("build")
        .arg(&file)
        .arg("-o")
        .arg(&out_dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("six-pit-sowing.toml:{wrong_line}")),
        "no file:line in {err}"
    );
    assert!(err.contains("expect.next"), "no field in {err}");
    assert!(
        err.contains("expected next = B") && err.contains("engine gives A"),
        "no expected/actual in {err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(snapshot_tree(&out_dir), before, "the output folder changed");
}

#[test]
fn schema_error_names_line_column_and_field() {
    let dir = scratch("schema");
    let src = std::fs::read_to_string(repo("rulesets/kalah-6x4.toml")).unwrap();
    let bad = src.replacen(
        "seeds_per_pit = 4",
        "seeds_per_pit = 4\nseed_per_pit = 4",
        1,
    );
    let file = dir.join("k.toml");
    std::fs::write(&file, &bad).unwrap();
    let line = bad
        .lines()
        .position(|l| l.starts_with("seed_per_pit"))
        .unwrap()
        + 1;
    let out = sowkit().arg("check").arg(&file).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("k.toml:{line}:1")), "{err}");
    assert!(
        err.contains("board.seed_per_pit") && err.contains("unknown field"),
        "{err}"
    );
}

#[test]
fn missing_file_and_garbage_input_fail_cleanly() {
    let out = sowkit()
        .args(["check", "no/such/file.toml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let dir = scratch("garbage");
    let f = dir.join("g.toml");
    std::fs::write(&f, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let out = sowkit().arg("check").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("UTF-8"));
}

#[test]
fn build_writes_kit_and_is_byte_identical_across_processes() {
    let dir = scratch("determinism");
    let rs = repo("rulesets/six-pit-sowing.toml");
    for sub in ["a", "b"] {
        let out = sowkit()
            .arg("build")
            .arg(&rs)
            .arg("-o")
            .arg(dir.join(sub))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let a = snapshot_tree(&dir.join("a"));
    let b = snapshot_tree(&dir.join("b"));
    assert!(a.iter().any(|(p, _)| p.ends_with("six-pit-sowing/kit.pdf")));
    assert!(a
        .iter()
        .any(|(p, _)| p.extension().is_some_and(|x| x == "svg")));
    assert_eq!(a.len(), b.len());
    for ((pa, ba), (_, bb)) in a.iter().zip(b.iter()) {
        assert!(ba == bb, "{} differs between two builds", pa.display());
    }
    // No temporary folders left behind.
    assert!(a
        .iter()
        .all(|(p, _)| !p.to_string_lossy().contains(".tmp-")));
}

#[test]
fn a_style_named_twice_is_a_usage_error_naming_the_flag() {
    let dir = scratch("style-twice");
    let out = sowkit()
        .args(["build", "--bundled", "kalah-6x4", "-o"])
        .arg(&dir)
        .args(["--style", "large,large"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--style") && err.contains("\"large\" is given twice"),
        "{err}"
    );
    assert!(err.contains("contrast") && err.contains("low-ink"), "{err}");
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "nothing written"
    );
    // Different styles still combine.
    let out = sowkit()
        .args(["build", "--bundled", "six-pit-sowing", "-o"])
        .arg(&dir)
        .args(["--style", "large,contrast"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--style` names are read in any case, as `--paper` names are (a tester's `--style LARGE`
/// was refused while `--paper A4` was taken): `LARGE,Contrast` is `large,contrast`, the same
/// kit byte for byte, and the manifest gives the style as `--style` takes it (README: in one
/// order, whatever order it was typed in). An unknown name is still a usage error, quoted as
/// typed.
#[test]
fn style_names_take_any_case() {
    let dir = scratch("style-case");
    let build = |style: &str, out: &str| {
        sowkit()
            .args([
                "build",
                "--bundled",
                "six-pit-sowing",
                "--paper",
                "A4",
                "-o",
            ])
            .arg(dir.join(out))
            .args(["--style", style])
            .output()
            .unwrap()
    };
    let lower = build("large,contrast", "lower");
    assert!(
        lower.status.success(),
        "{}",
        String::from_utf8_lossy(&lower.stderr)
    );
    let upper = build("Contrast,LARGE", "upper");
    assert!(
        upper.status.success(),
        "{}",
        String::from_utf8_lossy(&upper.stderr)
    );
    let tree = |out: &str| {
        let root = dir.join(out);
        snapshot_tree(&root)
            .into_iter()
            .map(|(p, b)| (p.strip_prefix(&root).unwrap().to_path_buf(), b))
            .collect::<Vec<_>>()
    };
    let (a, b) = (tree("lower"), tree("upper"));
    assert!(a.len() > 5);
    assert!(a == b, "the kits differ");
    let manifest = std::fs::read_to_string(dir.join("upper/six-pit-sowing/manifest.txt")).unwrap();
    assert!(manifest.contains("(--style large,contrast)"), "{manifest}");
    for (style, said) in [
        ("LOW-INK,Loud", "unknown style \"Loud\""),
        ("LARGE,large", "\"large\" is given twice"),
    ] {
        let o = build(style, "bad");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{style}: {err}");
        assert!(err.contains(said), "{style}: {err}");
        assert!(!dir.join("bad").exists(), "{style}: nothing written");
    }
}

/// Messages that used to mislead (break-it pass): an empty `--lang` named the catalogue
/// `templates/.toml`, and a file given twice was said to share its id with itself.
#[test]
fn an_empty_language_and_a_file_given_twice_are_named_as_such() {
    let out = scratch("twice");
    let rs = repo("rulesets/six-pit-sowing.toml");
    let o = sowkit()
        .args(["build", "--lang", ""])
        .arg(&rs)
        .arg("-o")
        .arg(out.join("k"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--lang is empty: give one of en"), "{err}");
    assert!(!err.contains("templates/.toml"), "{err}");
    let o = sowkit().arg("check").arg(&rs).arg(&rs).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("is given twice"), "{err}");
    assert!(!err.contains("both have id"), "{err}");
    // Standard input can be read once: `-` twice is said to be that, not "the file is empty".
    let o = sowkit()
        .args(["check", "-", "-"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("(standard input) is given twice"), "{err}");
    assert!(!out.join("k").exists());
}

/// An unknown bundled id is a command-line error (exit 2) for `new --from` as for
/// `build --bundled`, naming the ids it is the start of ("kalah": both Kalah boards) or that
/// start it; a language tag is read in any case (`ES` is `es`, as BCP 47 has it). Found by a
/// helper trying sowkit as a new user.
#[test]
fn a_near_bundled_id_is_suggested_and_a_language_tag_takes_any_case() {
    let out = scratch("near-id");
    let o = sowkit()
        .current_dir(&out)
        .args(["new", "Test", "--from", "oware"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("did you mean oware-abapa?"), "{err}");
    assert!(!out.join("test.toml").exists());
    // `build ARGS -o <scratch>/k`: its exit code and standard error.
    let build = |args: &[&str]| {
        let o = sowkit()
            .arg("build")
            .args(args)
            .arg("-o")
            .arg(out.join("k"))
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, err) = build(&["--bundled", "kalah"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("did you mean kalah-6x3 or kalah-6x4?"),
        "{err}"
    );
    let (code, err) = build(&["--bundled", "zzz"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("did you mean"), "{err}");
    let (code, err) = build(&["--bundled", "six-pit-sowing", "--lang", "ES"]);
    assert_eq!(code, Some(0), "{err}");
    let manifest = std::fs::read_to_string(out.join("k/six-pit-sowing/manifest.txt")).unwrap();
    assert!(manifest.contains("idioma: es"), "{manifest}");
    // A regional tag is its language (a teacher in Mexico writes es-MX); an unknown language
    // with a region is still refused, naming the tag.
    for tag in ["es-MX", "es_mx"] {
        let (code, err) = build(&["--bundled", "kalah-6x4", "--lang", tag]);
        assert_eq!(code, Some(0), "{tag}: {err}");
        let manifest = std::fs::read_to_string(out.join("k/kalah-6x4/manifest.txt")).unwrap();
        assert!(manifest.contains("idioma: es"), "{tag}: {manifest}");
    }
    let (code, err) = build(&["--bundled", "kalah-6x4", "--lang", "fr-CA"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no message catalogue for \"fr-ca\""), "{err}");
    // An empty subtag is no tag.
    let (code, err) = build(&["--bundled", "kalah-6x4", "--lang", "es-"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no message catalogue for \"es-\""), "{err}");
    // The copy `new` writes points at the worked-out notes where they are: sowkit's source.
    let o = sowkit()
        .current_dir(&out)
        .args(["new", "Copy", "--from", "oware-abapa"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let copy = std::fs::read_to_string(out.join("copy.toml")).unwrap();
    assert!(copy.contains("(rulesets/NOTES.md in sowkit's source shows every step)"));
}

//! `sowkit build --3d` as a user meets it: the files land in the kit folder and are listed in
//! its manifest; a bed too small or malformed is a clear error and writes nothing.
use std::path::{Path, PathBuf};
use std::process::Command;

fn sowkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sowkit"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sowkit-3d-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

#[test]
fn build_3d_writes_sound_parts_into_the_kit_and_lists_them() {
    let dir = scratch("ok");
    let out = sowkit()
        .args(["build", "--3d", "-o"])
        .arg(&dir)
        .arg(repo("rulesets/kalah-6x4.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let kit = dir.join("kalah-6x4");
    let manifest = std::fs::read_to_string(kit.join("manifest.txt")).unwrap();
    for f in [
        "board-1.stl",
        "board-2.stl",
        "joiner.stl",
        "seed.stl",
        "seeds-1.stl",
        "3d.txt",
    ] {
        let bytes = std::fs::read(kit.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(
            manifest.contains(&format!("  {f}  {} bytes", bytes.len())),
            "{f} not in manifest"
        );
        if f.ends_with(".stl") {
            let m = sowkit::mesh::Mesh::from_stl(&bytes).unwrap();
            m.check().unwrap_or_else(|e| panic!("{f}: {e}"));
            let (_, hi) = m.bbox();
            assert!(hi[0] <= 200.0 && hi[1] <= 200.0, "{f}: {hi:?}");
        }
    }
    // The paper kit is still there.
    assert!(kit.join("kit.pdf").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bed_too_small_or_malformed_is_refused_and_nothing_is_written() {
    let dir = scratch("small");
    let out = sowkit()
        .args(["build", "--3d", "--bed", "80x80", "-o"])
        .arg(&dir)
        .arg(repo("rulesets/giuthi.toml"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("3D board") && err.contains("--bed"), "{err}");
    // Located at the field the advice names: giuthi.toml sets layout.pit_diameter on its line.
    let src = std::fs::read_to_string(repo("rulesets/giuthi.toml")).unwrap();
    let line = 1 + src
        .lines()
        .position(|l| l.starts_with("pit_diameter"))
        .unwrap();
    assert!(
        err.contains(&format!(
            "giuthi.toml:{line}: layout.pit_diameter: cannot make the 3D board"
        )),
        "{err}"
    );
    assert!(!dir.join("giuthi").exists(), "a kit was written");
    let out = sowkit()
        .args(["build", "--3d", "--bed", "200by200", "-o"])
        .arg(&dir)
        .arg(repo("rulesets/giuthi.toml"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // A malformed --bed is a wrong command line: exit 2, as every usage error.
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("WIDTHxDEPTH"), "{err}");
    // --bed without --3d is a command-line mistake.
    let out = sowkit()
        .args(["build", "--bed", "200x200"])
        .arg(repo("rulesets/giuthi.toml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The 3D files' heading in `manifest.txt` is in the kit's language like the rest of it
/// (README "Languages": the manifest is written in the kit's language); it was always
/// "extra files:".
#[test]
fn the_3d_files_heading_of_the_manifest_is_in_the_kit_language() {
    let dir = scratch("lang");
    for (lang, heading, not) in [
        ("es", "archivos adicionales:", "extra files:"),
        ("en", "extra files:", "archivos adicionales:"),
    ] {
        let out = sowkit()
            .args(["build", "--3d", "--lang", lang, "-o"])
            .arg(&dir)
            .arg(repo("rulesets/six-pit-sowing.toml"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let manifest =
            std::fs::read_to_string(dir.join("six-pit-sowing").join("manifest.txt")).unwrap();
        assert!(manifest.contains(&format!("\n{heading}\n")), "{manifest}");
        assert!(!manifest.contains(not), "{manifest}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The how-to sheet (page 1 of kit.pdf) named only the paper pages: a kit built with `--3d`
/// did not say that STL files were written beside it. Now its page list names every `.stl`
/// and `.png` file `--3d` wrote, and `3d.txt`, in the kit's language (Kalah 6x3 prints in
/// Spanish); a kit built without `--3d` names none.
#[test]
fn build_3d_names_its_files_on_the_how_to_sheet() {
    let dir = scratch("howto");
    let out = sowkit()
        .args(["build", "--3d", "-o"])
        .arg(&dir)
        .arg(repo("rulesets/six-pit-sowing.toml"))
        .arg(repo("rulesets/kalah-6x3.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The words of the line in each language (templates/*.toml, howto.row_3d).
    for (id, words) in [
        ("six-pit-sowing", "For a 3D printer"),
        ("kalah-6x3", "Para una impresora 3D"),
    ] {
        let kit = dir.join(id);
        let written: Vec<String> = std::fs::read_dir(&kit)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".stl") || (f.ends_with(".png")) || f == "3d.txt")
            .collect();
        // At least the board, one seed and a seed plate, each with its picture.
        assert!(written.len() >= 6, "{id}: {written:?}");
        let pdf = lopdf::Document::load(kit.join("kit.pdf")).unwrap();
        // The how-to may take two pages (howto, howto-2): the list is on the first.
        let text = pdf.extract_text(&[1]).unwrap();
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(words), "{id}: {flat}");
        for f in &written {
            assert!(flat.contains(f.as_str()), "{id}: {f} not named: {flat}");
        }
    }
    // Without --3d no such line.
    let plain = scratch("howto-plain");
    let out = sowkit()
        .args(["build", "-o"])
        .arg(&plain)
        .arg(repo("rulesets/six-pit-sowing.toml"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let pdf = lopdf::Document::load(plain.join("six-pit-sowing/kit.pdf")).unwrap();
    let text = pdf.extract_text(&[1]).unwrap();
    assert!(!text.contains(".stl") && !text.contains("3D"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&plain);
}

/// `build --check --3d` added the 3D files but not their lines in manifest.txt, so a kit
/// folder `build --3d` had just written was reported stale ("would change: …/manifest.txt",
/// exit 1). The same command with `--check` now finds it up to date.
#[test]
fn build_check_3d_finds_a_fresh_3d_kit_up_to_date() {
    let dir = scratch("check");
    let build = |check: bool| {
        let mut c = sowkit();
        c.arg("build");
        if check {
            c.arg("--check");
        }
        c.args(["--3d", "-o"])
            .arg(&dir)
            .arg(repo("rulesets/six-pit-sowing.toml"))
            .output()
            .unwrap()
    };
    let o = build(false);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = build(true);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

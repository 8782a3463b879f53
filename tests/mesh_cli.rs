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

//! Replays the fuzz seed corpus and every input that ever found a bug
//! (`tests/fuzz-regressions/<target>/*`) through the same harnesses the `cargo fuzz` targets
//! run (`sowkit::fuzzing`); a broken property panics naming the file.
use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz-regressions")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{}: too few inputs", dir.display());
    for f in files {
        let data = std::fs::read(&f).unwrap();
        let r = std::panic::catch_unwind(|| run(&data));
        assert!(r.is_ok(), "{} broke a property", f.display());
    }
}

#[test]
fn loader_inputs() {
    replay("loader", sowkit::fuzzing::loader);
}

#[test]
fn notation_inputs() {
    replay("notation", sowkit::fuzzing::notation);
}

#[test]
fn engine_inputs() {
    replay("engine", sowkit::fuzzing::engine);
}

#[test]
fn kit_inputs() {
    replay("kit", sowkit::fuzzing::kit);
}

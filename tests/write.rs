//! Writing kits is all-or-nothing: a failure part-way leaves the output folder as it was.
use std::path::{Path, PathBuf};

fn kit(id: &str) -> sowkit::kit::Kit {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rulesets/{id}.toml"));
    let src = std::fs::read_to_string(&path).unwrap();
    let rs = sowkit::ruleset::load_str(id, &src).unwrap();
    sowkit::kit::make(&rs, &sowkit::layout::KitOptions::new(sowkit::layout::A4)).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sowkit-write-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Names and contents of every file below `dir`, sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(dir).unwrap().display().to_string();
            if p.is_dir() {
                out.push((rel + "/", Vec::new()));
                stack.push(p);
            } else {
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn failure_while_staging_the_second_kit_changes_nothing() {
    let kits = [kit("six-pit-sowing"), kit("kalah-6x3")];
    let out = scratch("staging");
    std::fs::create_dir_all(out.join("six-pit-sowing")).unwrap();
    std::fs::write(out.join("six-pit-sowing/kit.pdf"), b"old kit").unwrap();
    // A plain file where the second kit's staging folder must go makes staging fail.
    let blocker = format!(".kalah-6x3.tmp-{}", std::process::id());
    std::fs::write(out.join(&blocker), b"in the way").unwrap();
    let before = tree(&out);
    assert!(sowkit::kit::write_all(&kits, &out).is_err());
    assert_eq!(tree(&out), before);
}

#[test]
fn failure_while_swapping_rolls_back_the_kits_already_placed() {
    let kits = [kit("six-pit-sowing"), kit("kalah-6x3")];
    let out = scratch("swap");
    for id in ["six-pit-sowing", "kalah-6x3"] {
        std::fs::create_dir_all(out.join(id)).unwrap();
        std::fs::write(out.join(id).join("kit.pdf"), format!("old {id}")).unwrap();
    }
    // A non-empty folder where the second old kit must be moved aside makes that rename fail,
    // after the first kit has already been swapped in.
    let aside = out.join(format!(".kalah-6x3.old-{}", std::process::id()));
    std::fs::create_dir_all(&aside).unwrap();
    std::fs::write(aside.join("x"), b"occupied").unwrap();
    let before = tree(&out);
    assert!(sowkit::kit::write_all(&kits, &out).is_err());
    assert_eq!(tree(&out), before);
}

#[test]
fn success_replaces_old_kits_and_leaves_no_temporary_folders() {
    let kits = [kit("six-pit-sowing")];
    let out = scratch("ok");
    std::fs::create_dir_all(out.join("six-pit-sowing")).unwrap();
    std::fs::write(out.join("six-pit-sowing/stale.txt"), b"from an older build").unwrap();
    let dirs = sowkit::kit::write_all(&kits, &out).unwrap();
    assert_eq!(dirs, vec![out.join("six-pit-sowing")]);
    let names: Vec<String> = tree(&out).into_iter().map(|(n, _)| n).collect();
    assert!(names.contains(&"six-pit-sowing/kit.pdf".to_string()));
    assert!(names.contains(&"six-pit-sowing/host-key.pdf".to_string()));
    assert!(
        !names
            .iter()
            .any(|n| n.contains("stale") || n.contains(".tmp-") || n.contains(".old-")),
        "{names:?}"
    );
}

#[test]
fn output_path_that_is_a_file_is_refused() {
    let out = scratch("file");
    let f = out.join("not-a-folder");
    std::fs::write(&f, b"x").unwrap();
    let err = sowkit::kit::write_all(&[kit("six-pit-sowing")], &f).unwrap_err();
    assert!(err.to_string().contains("is a file, not a folder"), "{err}");
}

#[test]
fn a_file_where_a_kit_folder_goes_is_left_alone_and_reported() {
    let out = scratch("kitfile");
    std::fs::write(out.join("six-pit-sowing"), b"notes, not a kit").unwrap();
    let before = tree(&out);
    let err = sowkit::kit::write_all(&[kit("six-pit-sowing")], &out).unwrap_err();
    assert!(
        err.to_string().contains("is a file, not a kit folder"),
        "{err}"
    );
    assert_eq!(tree(&out), before);
}

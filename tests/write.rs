//! Writing kits is all-or-nothing: a failure part-way leaves the output folder as it was.
use std::path::{Path, PathBuf};

fn kit(id: &str) -> sowkit::kit::Kit {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rulesets/{id}.toml"));
    let src = std::fs::read_to_string(&path).unwrap();
    let rs = sowkit::ruleset::load_str(id, &src).unwrap();
    sowkit::kit::make(&rs, &sowkit::layout::KitOptions::new(sowkit::layout::A4)).unwrap()
}

/// `sowkit ARGS` run to the end (this build's binary), its output captured.
fn run(args: &[&std::ffi::OsStr]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sowkit"))
        .args(args)
        .output()
        .unwrap()
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
    // Its manifest's first line marks it as a kit sowkit wrote (else it is never replaced).
    std::fs::write(out.join("six-pit-sowing/manifest.txt"), b"sowkit kit\n").unwrap();
    // A plain file where the second kit's folder must go makes staging it fail, after the
    // first kit was staged in full.
    std::fs::write(out.join("kalah-6x3"), b"in the way").unwrap();
    let before = tree(&out);
    let err = sowkit::kit::write_all(&kits, &out).unwrap_err();
    assert!(err.to_string().contains("kalah-6x3"), "{err}");
    assert_eq!(tree(&out), before);
}

#[test]
fn leftovers_of_killed_runs_are_tidied_and_an_orphaned_old_kit_restored() {
    let out = scratch("leftovers");
    // A staged kit that was never switched in, a new kit's old copy awaiting deletion, the
    // folders an older sowkit left (PID-named), and an old kit moved aside whose folder is gone.
    for d in [
        ".sowkit-new.kalah-6x3",
        ".kalah-6x3.tmp-1",
        ".kalah-6x3.old-1",
        ".sowkit-old.giuthi",
    ] {
        std::fs::create_dir_all(out.join(d)).unwrap();
        std::fs::write(out.join(d).join("kit.pdf"), d).unwrap();
    }
    std::fs::create_dir_all(out.join("kalah-6x3")).unwrap();
    std::fs::write(out.join("kalah-6x3/kit.pdf"), b"current").unwrap();
    sowkit::kit::write_all(&[kit("six-pit-sowing")], &out).unwrap();
    let names: Vec<String> = tree(&out).into_iter().map(|(n, _)| n).collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
    assert_eq!(
        std::fs::read(out.join("giuthi/kit.pdf")).unwrap(),
        b".sowkit-old.giuthi"
    );
    assert_eq!(
        std::fs::read(out.join("kalah-6x3/kit.pdf")).unwrap(),
        b"current"
    );
}

#[test]
fn a_failed_write_leaves_no_output_folder_it_created() {
    let base = scratch("created");
    let out = base.join("a/b");
    std::fs::write(base.join("x"), b"").unwrap();
    // The id "x/.." cannot be a kit folder: writing fails after `a/b` was created.
    let mut k = kit("six-pit-sowing");
    k.id = "../x".to_string();
    assert!(sowkit::kit::write_all(&[k], &out).is_err());
    assert!(!base.join("a").exists());
}

#[test]
fn success_replaces_old_kits_and_leaves_no_temporary_folders() {
    let kits = [kit("six-pit-sowing")];
    let out = scratch("ok");
    // An older kit in the folder, with a file the new kit does not have: a kit folder is
    // replaced whole.
    sowkit::kit::write_all(&kits, &out).unwrap();
    std::fs::write(out.join("six-pit-sowing/stale.txt"), b"from an older build").unwrap();
    let dirs = sowkit::kit::write_all(&kits, &out).unwrap();
    assert_eq!(dirs, vec![out.join("six-pit-sowing")]);
    let names: Vec<String> = tree(&out).into_iter().map(|(n, _)| n).collect();
    assert!(names.contains(&"six-pit-sowing/kit.pdf".to_string()));
    assert!(names.contains(&"six-pit-sowing/host-key.pdf".to_string()));
    assert!(
        !names
            .iter()
            .any(|n| n.contains("stale") || n.starts_with('.')),
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

/// A build replaces its kit folder whole, so a folder of the user's that happens to have a
/// ruleset's id (say `rulesets/`, with `-o .`) must not be taken for a kit: it is refused and
/// left as it was, with nothing else written. An empty folder, or a kit folder in either
/// language (the manifest's first line is translated), is a kit folder.
#[test]
fn a_folder_that_is_not_a_kit_is_never_replaced() {
    let out = scratch("notakit");
    let mine = out.join("six-pit-sowing");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("diary.txt"), b"mine").unwrap();
    let before = tree(&out);
    let err = sowkit::kit::write_all(&[kit("six-pit-sowing")], &out).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("is not a kit") && msg.contains("six-pit-sowing"),
        "{msg}"
    );
    assert_eq!(
        tree(&out),
        before,
        "the folder was changed or something was left"
    );
    // A manifest.txt that sowkit did not write does not make it a kit either.
    std::fs::write(mine.join("manifest.txt"), b"my own list\n").unwrap();
    assert!(sowkit::kit::write_all(&[kit("six-pit-sowing")], &out).is_err());
    assert_eq!(std::fs::read(mine.join("diary.txt")).unwrap(), b"mine");

    // An empty folder is filled.
    let empty = scratch("emptykit");
    std::fs::create_dir_all(empty.join("six-pit-sowing")).unwrap();
    sowkit::kit::write_all(&[kit("six-pit-sowing")], &empty).unwrap();
    assert!(empty.join("six-pit-sowing/kit.pdf").is_file());

    // A Spanish kit is recognised and rebuilt.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/kalah-6x3.toml");
    let rs =
        sowkit::ruleset::load_str("kalah-6x3", &std::fs::read_to_string(path).unwrap()).unwrap();
    let mut opts = sowkit::layout::KitOptions::new(sowkit::layout::A4);
    opts.lang = Some("es".to_string());
    let es = sowkit::kit::make(&rs, &opts).unwrap();
    let dir = scratch("eskit");
    sowkit::kit::write_all(std::slice::from_ref(&es), &dir).unwrap();
    let manifest = std::fs::read_to_string(dir.join("kalah-6x3/manifest.txt")).unwrap();
    assert!(
        !manifest.starts_with("sowkit kit"),
        "not a Spanish manifest: {manifest}"
    );
    std::fs::write(dir.join("kalah-6x3/old.txt"), b"from an older build").unwrap();
    sowkit::kit::write_all(&[es], &dir).unwrap();
    assert!(!dir.join("kalah-6x3/old.txt").exists());
    assert!(sowkit::kitdir::is_kit_folder(&dir.join("kalah-6x3")));
}

/// A kit folder its owner made read-only is still replaced, and its old copy removed: after
/// the exchange the old kit is the hidden folder to delete, and it used to stay behind ("the
/// next build removes it"), making every later build fail on it (break-it pass). Run as the
/// user `nobody` when the tests run as root (root ignores permissions), via `setpriv`.
#[cfg(unix)]
#[test]
fn a_read_only_kit_folder_is_replaced_and_leaves_nothing() {
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let setpriv = Path::new("/usr/bin/setpriv");
    if root {
        assert!(
            setpriv.exists(),
            "running as root needs setpriv (util-linux)"
        );
    }
    let out = scratch("readonly");
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o777)).unwrap();
    let rs = out.join("six-pit-sowing.toml");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/six-pit-sowing.toml"),
        &rs,
    )
    .unwrap();
    std::fs::set_permissions(&rs, std::fs::Permissions::from_mode(0o644)).unwrap();
    // A copy of the binary that `nobody` can run wherever the checkout is.
    let bin = out.join("sowkit");
    std::fs::copy(env!("CARGO_BIN_EXE_sowkit"), &bin).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let build = || {
        let mut c = if root {
            let mut c = std::process::Command::new(setpriv);
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(&bin);
            c
        } else {
            std::process::Command::new(&bin)
        };
        let o = c
            .args(["build", "-q", "six-pit-sowing.toml", "-o", "kits"])
            .current_dir(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{err}");
        assert!(!err.contains("warning"), "{err}");
    };
    build();
    let kit = out.join("kits/six-pit-sowing");
    std::fs::set_permissions(&kit, std::fs::Permissions::from_mode(0o555)).unwrap();
    for _ in 0..2 {
        build();
        let names: Vec<String> = std::fs::read_dir(out.join("kits"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["six-pit-sowing"]);
        assert!(kit.join("kit.pdf").is_file());
    }
}

/// `watch` writes changed files straight into the kit folders (`live::write_changed`) and
/// removes files the kit does not have: a folder of the user's with a kit's id must be refused
/// there too, byte for byte untouched; an empty folder or a kit is written.
#[test]
fn watch_never_writes_into_a_folder_that_is_not_a_kit() {
    let out = scratch("watchnotakit");
    let mine = out.join("six-pit-sowing");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("diary.txt"), b"mine").unwrap();
    let before = tree(&out);
    let kits = [kit("six-pit-sowing")];
    let err = sowkit::live::write_changed(&kits, &[], &out).unwrap_err();
    assert!(err.to_string().contains("is not a kit"), "{err}");
    assert_eq!(tree(&out), before);
    std::fs::remove_file(mine.join("diary.txt")).unwrap();
    let done = sowkit::live::write_changed(&kits, &[], &out).unwrap();
    assert!(!done.is_empty() && mine.join("kit.pdf").is_file());
    // Now a kit: rewritten in place without complaint.
    assert!(sowkit::live::write_changed(&kits, &[], &out)
        .unwrap()
        .is_empty());
}

/// A write that fails part-way through a `watch` rebuild (a full disk; here one temporary
/// file's place taken by a folder) leaves the kit folder byte for byte as it was, with no
/// temporary file, and the error says the kit is unchanged. With the way clear, the same
/// rebuild writes every changed file. (A helper filled a disk under `watch` and found half the
/// pages new, the rest old, and pages the old index named removed.)
#[test]
fn a_watch_rebuild_that_cannot_write_leaves_the_kit_as_it_was() {
    let out = scratch("watchfull");
    let old = [kit("six-pit-sowing")];
    sowkit::live::write_changed(&old, &[], &out).unwrap();
    let before = tree(&out);
    // The same ruleset under another name: every page's title changes.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/six-pit-sowing.toml");
    let src = std::fs::read_to_string(&path)
        .unwrap()
        .replacen("name = \"", "name = \"Renamed ", 1);
    let rs = sowkit::ruleset::load_str("six-pit-sowing", &src).unwrap();
    let new =
        [sowkit::kit::make(&rs, &sowkit::layout::KitOptions::new(sowkit::layout::A4)).unwrap()];
    let dir = out.join("six-pit-sowing");
    let changed: Vec<&str> = new[0]
        .files
        .iter()
        .filter(|f| std::fs::read(dir.join(&f.name)).ok().as_deref() != Some(&f.bytes[..]))
        .map(|f| f.name.as_str())
        .collect();
    assert!(changed.len() > 3, "{changed:?}");
    // The last changed file (in name order, as the kit compares them) cannot be written.
    let last = changed.iter().max().unwrap();
    let blocker = sowkit::live::temporary_beside(&dir.join(last));
    std::fs::create_dir(&blocker).unwrap();
    let err = sowkit::live::write_changed(&new, &[], &out).unwrap_err();
    assert!(
        err.to_string().contains("every kit there is as it was"),
        "{err}"
    );
    std::fs::remove_dir(&blocker).unwrap();
    assert_eq!(tree(&out), before, "the kit changed");
    let done = sowkit::live::write_changed(&new, &[], &out).unwrap();
    assert_eq!(done.len(), changed.len());
    for f in &new[0].files {
        assert_eq!(
            std::fs::read(dir.join(&f.name)).unwrap(),
            f.bytes,
            "{}",
            f.name
        );
    }
}

/// A ruleset kept in its own kit folder would go with the old kit when the kit is replaced
/// (`build`) or be removed as a file the kit does not make (`watch`): both refuse, naming the
/// file and the folder, and change nothing; `build --check` says the same. A ruleset in the
/// output folder but outside every kit folder is fine.
#[test]
fn a_ruleset_inside_its_kit_folder_is_refused_and_kept() {
    let out = scratch("inside");
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/six-pit-sowing.toml");
    let first = run(&[
        "build".as_ref(),
        bundled.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    // Kept in the kit folder, and reached through a symbolic link from outside it.
    let inside = out.join("six-pit-sowing").join("six-pit-sowing.toml");
    std::fs::copy(&bundled, &inside).unwrap();
    let link = out.join("link.toml");
    std::os::unix::fs::symlink(&inside, &link).unwrap();
    let before = tree(&out);
    for given in [&inside, &link] {
        for check in [false, true] {
            let mut args: Vec<&std::ffi::OsStr> = vec!["build".as_ref()];
            if check {
                args.push("--check".as_ref());
            }
            args.extend([given.as_os_str(), "-o".as_ref(), out.as_os_str()]);
            let r = run(&args);
            let err = String::from_utf8_lossy(&r.stderr);
            assert_eq!(r.status.code(), Some(1), "{err}");
            assert!(
                err.contains(&format!("{} is inside the kit folder", given.display()))
                    && err.contains("six-pit-sowing")
                    && err.contains("move the ruleset out of that folder"),
                "{err}"
            );
            assert_eq!(
                tree(&out),
                before,
                "build (check: {check}) changed the folder"
            );
        }
        // `watch` writes through `live::write_changed`.
        let kits = [kit("six-pit-sowing")];
        let e = sowkit::live::write_changed(&kits, std::slice::from_ref(given), &out).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{e}");
        assert_eq!(tree(&out), before, "watch changed the folder");
    }
    // Beside the kit folders, not in one: built, and kept.
    std::fs::remove_file(&link).unwrap();
    let beside = out.join("six-pit-sowing.toml");
    std::fs::rename(&inside, &beside).unwrap();
    let r = run(&[
        "build".as_ref(),
        beside.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(beside.is_file());
}

/// A ruleset file whose name is not UTF-8, kept in its kit folder, is refused too (the check
/// uses the file as given, not its display name, which no longer names it), and `build
/// --check` given such a name prints its advice instead of panicking.
#[cfg(target_os = "linux")]
#[test]
fn a_ruleset_named_in_latin_1_inside_its_kit_folder_is_refused_and_check_does_not_panic() {
    use std::os::unix::ffi::OsStrExt;
    let out = scratch("inside-latin1");
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/six-pit-sowing.toml");
    // "règles.toml" in Latin-1: not UTF-8.
    let name = std::ffi::OsStr::from_bytes(b"r\xe8gles.toml");
    let beside = out.join(name);
    std::fs::copy(&bundled, &beside).unwrap();
    let kits = out.join("kits");
    // Not built yet: --check says what to run (it named the arguments through a panic).
    let r = run(&[
        "build".as_ref(),
        "--check".as_ref(),
        "-o".as_ref(),
        kits.as_os_str(),
        beside.as_os_str(),
    ]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(err.contains("run `sowkit build"), "{err}");
    let r = run(&[
        "build".as_ref(),
        beside.as_os_str(),
        "-o".as_ref(),
        kits.as_os_str(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let inside = kits.join("six-pit-sowing").join(name);
    std::fs::rename(&beside, &inside).unwrap();
    let r = run(&[
        "build".as_ref(),
        inside.as_os_str(),
        "-o".as_ref(),
        kits.as_os_str(),
    ]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(err.contains("is inside the kit folder"), "{err}");
    assert!(inside.is_file(), "the ruleset was deleted");
}

/// An `-o` path through a folder that does not exist yet and back out of it (`a/b/../b/c`,
/// `a/b` missing) is the folder `a/b/c`: the kit is built there and nothing hidden is left
/// (the staging folder was found from the path's parts, `a/.sowkit-new-out.b/../b/c`, which
/// leads out of it: the build failed and left a staged kit in `a/b/c`).
#[test]
fn an_output_path_with_dot_dot_through_a_missing_folder_is_built() {
    let base = scratch("dotdot");
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/six-pit-sowing.toml");
    std::fs::create_dir_all(base.join("a")).unwrap();
    let out = base.join("a/b/../b/c");
    let r = run(&[
        "build".as_ref(),
        bundled.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(base.join("a/b/c/six-pit-sowing/manifest.txt").is_file());
    let names: Vec<String> = tree(&base.join("a"))
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| !n.starts_with("b/c/six-pit-sowing/"))
        .collect();
    assert_eq!(names, ["b/", "b/c/"], "left beside the kit");
}

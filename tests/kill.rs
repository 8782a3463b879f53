//! Builds killed with SIGKILL at every step of writing (and at spread-out moments): every kit
//! folder must be the complete old kit or the complete new one, the next build must succeed
//! and leave nothing behind. The binary's test hook `SOWKIT_TEST_PAUSE_AT=<step>` makes it stop
//! at a step (see `src/kitdir.rs`); the test then kills it.
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The two kits of every build: six-pit sowing and a twin of it under another id (the smallest
/// bundled kit twice keeps each of the test's 60-odd builds short; what is tested is the
/// switching of several kit folders, not their content).
const IDS: [&str; 2] = ["six-pit-sowing", "six-pit-twin"];

/// The ruleset file of kit `id`: the bundled six-pit file, or its twin written once.
fn ruleset_file(id: &str) -> PathBuf {
    static TWIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    if id == IDS[0] {
        return repo("rulesets/six-pit-sowing.toml");
    }
    TWIN.get_or_init(|| {
        let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
        let twin = src.replacen(
            "id = \"six-pit-sowing\"",
            &format!("id = \"{}\"", IDS[1]),
            1,
        );
        assert_ne!(twin, src, "the six-pit ruleset has no id line to change");
        let f = scratch("twin").join(format!("{}.toml", IDS[1]));
        std::fs::write(&f, twin).unwrap();
        f
    })
    .clone()
}

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sowkit-kill-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `sowkit build <both rulesets> -o out --paper <paper>`.
fn build(out: &Path, paper: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sowkit"));
    c.arg("build");
    for id in IDS {
        c.arg(ruleset_file(id));
    }
    c.arg("-o").arg(out).arg("--paper").arg(paper);
    c.stdout(Stdio::null()).stderr(Stdio::piped());
    c
}

type Tree = BTreeMap<String, Vec<u8>>;

/// Every entry of `dir` (recursively) with file contents; folders end in `/`.
fn tree(dir: &Path) -> Tree {
    let mut out = Tree::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(dir).unwrap().display().to_string();
            if p.is_dir() {
                out.insert(rel + "/", Vec::new());
                stack.push(p);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for (rel, bytes) in tree(from) {
        if let Some(d) = rel.strip_suffix('/') {
            std::fs::create_dir_all(to.join(d)).unwrap();
        } else {
            std::fs::write(to.join(rel), bytes).unwrap();
        }
    }
}

/// References: the A4 kits (old) and the Letter kits (new).
fn references(base: &Path) -> (PathBuf, PathBuf) {
    let (old, new) = (base.join("ref-old"), base.join("ref-new"));
    for (dir, paper) in [(&old, "a4"), (&new, "letter")] {
        let r = build(dir, paper).output().unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    }
    assert_ne!(tree(&old.join(IDS[0])), tree(&new.join(IDS[0])));
    (old, new)
}

/// Every kit folder is complete, old or new; returns how many are new.
fn each_kit_old_or_new(out: &Path, old: &Path, new: &Path, when: &str) -> usize {
    let mut n_new = 0;
    for id in IDS {
        if !out.join(id).exists() {
            // Only the portable switch (no atomic exchange) has this instant: the old kit is
            // moved aside, complete, and the next run puts it back.
            assert!(
                when.contains("exchange: false"),
                "{when}: kit {id} is missing"
            );
            assert!(
                tree(&out.join(format!(".sowkit-old.{id}"))) == tree(&old.join(id)),
                "{when}: the old kit {id} moved aside is not complete"
            );
            continue;
        }
        let got = tree(&out.join(id));
        if got == tree(&new.join(id)) {
            n_new += 1;
        } else {
            assert!(
                got == tree(&old.join(id)),
                "{when}: kit {id} is neither the complete old nor the complete new kit: {:?}",
                got.keys().collect::<Vec<_>>()
            );
        }
    }
    n_new
}

/// After a normal build: exactly the new kits, nothing hidden left over.
fn next_build_finishes_cleanly(out: &Path, new: &Path, when: &str) {
    let r = build(out, "letter").output().unwrap();
    assert!(
        r.status.success(),
        "{when}: next build failed: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    assert_eq!(tree(out), tree(new), "{when}: after the next build");
}

/// Runs the build paused at `step`, waits for it to get there, kills it.
fn kill_at(out: &Path, step: &str, exchange: bool) {
    let mut c = build(out, "letter");
    c.env("SOWKIT_TEST_PAUSE_AT", step);
    if !exchange {
        c.env("SOWKIT_TEST_NO_EXCHANGE", "1");
    }
    let mut child = c.spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut paused = false;
    for line in BufReader::new(stderr).lines() {
        let line = line.unwrap();
        if line == format!("sowkit: paused at {step}") {
            paused = true;
            break;
        }
    }
    assert!(paused, "the build never reached step {step}");
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
}

#[test]
fn killed_at_every_step_each_kit_is_old_or_new_and_the_next_build_tidies() {
    let base = scratch("steps");
    let (old, new) = references(&base);
    let mut steps = vec!["locked".to_string()];
    for id in IDS {
        steps.push(format!("staging:{id}"));
        steps.push(format!("staged:{id}"));
    }
    for id in IDS {
        steps.push(format!("switched:{id}"));
    }
    steps.push("committed".to_string());
    for exchange in [true, false] {
        let mut all = steps.clone();
        if !exchange {
            for id in IDS {
                all.push(format!("switching:{id}"));
            }
        }
        for step in &all {
            let when = format!("killed at {step} (exchange: {exchange})");
            let out = base.join(format!("out-{exchange}-{}", step.replace(':', "-")));
            copy_tree(&old, &out);
            kill_at(&out, step, exchange);
            let n_new = each_kit_old_or_new(&out, &old, &new, &when);
            // Before any switch every kit is old; after the last one every kit is new.
            let expected = match step.as_str() {
                s if s.starts_with("switched:") => {
                    1 + IDS.iter().position(|id| s.ends_with(id)).unwrap()
                }
                "committed" => IDS.len(),
                s if s.starts_with("switching:") => {
                    IDS.iter().position(|id| s.ends_with(id)).unwrap()
                }
                _ => 0,
            };
            assert_eq!(n_new, expected, "{when}");
            next_build_finishes_cleanly(&out, &new, &when);
        }
    }
}

#[test]
fn killed_at_spread_out_moments_each_kit_is_old_or_new() {
    let base = scratch("moments");
    let (old, new) = references(&base);
    // How long a whole build takes here, then kills at fractions of it.
    let t0 = std::time::Instant::now();
    let probe = base.join("probe");
    copy_tree(&old, &probe);
    assert!(build(&probe, "letter").status().unwrap().success());
    let full = t0.elapsed();
    for k in 0..8u32 {
        let out = base.join(format!("out-{k}"));
        copy_tree(&old, &out);
        let mut child = build(&out, "letter").spawn().unwrap();
        std::thread::sleep(full * k / 6);
        let _ = child.kill();
        child.wait().unwrap();
        let when = format!("killed after {k}/6 of a build");
        each_kit_old_or_new(&out, &old, &new, &when);
        next_build_finishes_cleanly(&out, &new, &when);
    }
}

#[test]
fn a_failure_while_switching_puts_every_kit_back() {
    let base = scratch("fail");
    let (old, _new) = references(&base);
    // After a kit's switch, and (portable switch) between its two renames.
    let cases = [
        ("switched", true),
        ("switched", false),
        ("switching", false),
    ];
    for (at, exchange) in cases {
        let out = base.join(format!("out-{at}-{exchange}"));
        copy_tree(&old, &out);
        let mut c = build(&out, "letter");
        c.env("SOWKIT_TEST_FAIL_AT", format!("{at}:{}", IDS[1]));
        if !exchange {
            c.env("SOWKIT_TEST_NO_EXCHANGE", "1");
        }
        let r = c.output().unwrap();
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(1), "{err}");
        assert!(err.contains("nothing was changed"), "{err}");
        assert_eq!(
            tree(&out),
            tree(&old),
            "failed at {at} (exchange: {exchange})"
        );
        assert_eq!(hidden(&out), Vec::<String>::new(), "failed at {at}");
    }
}

#[test]
fn a_disk_full_build_into_a_missing_folder_leaves_no_folder() {
    let base = scratch("full");
    let out = base.join("new/kits");
    let mut c = build(&out, "a4");
    c.env("SOWKIT_TEST_FAIL_AT", format!("staged:{}", IDS[1]));
    let r = c.output().unwrap();
    assert_eq!(r.status.code(), Some(1));
    assert!(!base.join("new").exists());
}

/// Names in `dir` that start with `.sowkit` (what a build leaves beside or in `-o`).
fn hidden(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(".sowkit"))
        .collect()
}

#[test]
fn a_build_into_a_missing_folder_killed_before_its_commit_leaves_no_folder() {
    let base = scratch("fresh");
    let (_, new) = references(&base);
    let mut steps = vec!["locked".to_string()];
    for id in IDS {
        steps.push(format!("staging:{id}"));
        steps.push(format!("staged:{id}"));
        steps.push(format!("switched:{id}"));
    }
    steps.push("revealing".to_string());
    for step in &steps {
        let when = format!("killed at {step}");
        let top = base.join(format!("new-{}", step.replace(':', "-")));
        let out = top.join("kits");
        kill_at(&out, step, true);
        assert!(!top.exists(), "{when}: {} was left", top.display());
        // The next build into the same folder clears what was left and writes every kit.
        next_build_finishes_cleanly(&out, &new, &when);
        assert_eq!(hidden(&base), Vec::<String>::new(), "{when}");
    }
    // Killed at the commit itself: the folder is there, whole.
    let out = base.join("new-committed");
    kill_at(&out, "committed", true);
    assert_eq!(tree(&out), tree(&new));
}

#[test]
fn a_heavy_build_into_a_missing_folder_killed_part_way_leaves_no_folder_or_every_kit() {
    // Every bundled ruleset: a build of several seconds.
    let base = scratch("fresh-heavy");
    let build_all = |out: &Path| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_sowkit"));
        c.arg("build").arg(repo("rulesets")).arg("-o").arg(out);
        c.stdout(Stdio::null()).stderr(Stdio::null());
        c
    };
    let full_out = base.join("full");
    let t0 = std::time::Instant::now();
    assert!(build_all(&full_out).status().unwrap().success());
    let full = t0.elapsed();
    let whole = tree(&full_out);
    let mut absent = 0;
    for k in 1..6u32 {
        let out = base.join(format!("out-{k}"));
        let mut child = build_all(&out).spawn().unwrap();
        std::thread::sleep(full * k / 6);
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        if out.exists() {
            assert_eq!(tree(&out), whole, "killed after {k}/6: a partial folder");
        } else {
            absent += 1;
        }
    }
    // Killed early, the folder is not there at all.
    assert!(absent >= 1, "every kill came after the commit");
}

/// Reads `stream` on a thread of its own and waits (at most two minutes) for a line for which
/// `want` holds; whether one came. The process is left running.
fn wait_for_line(
    stream: impl std::io::Read + Send + 'static,
    want: impl Fn(&str) -> bool + Send + 'static,
) -> bool {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if want(&line) {
                let _ = tx.send(());
                break;
            }
        }
    });
    rx.recv_timeout(std::time::Duration::from_secs(120)).is_ok()
}

/// `sowkit watch <six-pit ruleset> -o out`, its output piped.
fn watch(out: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sowkit"));
    c.arg("watch").arg(ruleset_file(IDS[0])).arg("-o").arg(out);
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

/// A kit `watch` writes where there was none is staged whole and renamed into place, as
/// `build` does: a watch killed while writing it leaves no half kit (a folder without its
/// manifest, which every later build refused as "not a kit"), and the next build tidies.
#[test]
fn a_watch_killed_while_writing_a_new_kit_leaves_no_half_kit() {
    let out = scratch("watch-new-kit");
    let step = format!("staging:{}", IDS[0]);
    let mut c = watch(&out);
    c.env("SOWKIT_TEST_PAUSE_AT", &step);
    let mut child = c.spawn().unwrap();
    let err = child.stderr.take().unwrap();
    let want = format!("sowkit: paused at {step}");
    let paused = wait_for_line(err, move |l| l == want);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        paused,
        "watch never staged the new kit (it wrote it in place)"
    );
    assert!(
        !out.join(IDS[0]).exists(),
        "a killed watch left a half kit: {:?}",
        tree(&out).keys().collect::<Vec<_>>()
    );
    let mut b = Command::new(env!("CARGO_BIN_EXE_sowkit"));
    let r = b
        .arg("build")
        .arg(ruleset_file(IDS[0]))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [IDS[0]],
        "the next build left something beside the kit"
    );
}

/// `watch` holds the output folder's lock while it writes, as `build` does: while a build holds
/// it, watch waits (and says so) and writes nothing; once the build is gone it writes its kit.
/// (Before, a watch and a build writing one folder at once left kits mixing both builds' files.)
#[test]
fn watch_waits_for_a_build_writing_the_same_folder() {
    let out = scratch("watch-lock");
    let mut holder = build(&out, "a4");
    holder.env("SOWKIT_TEST_PAUSE_AT", "locked");
    let mut holder = holder.spawn().unwrap();
    let err = holder.stderr.take().unwrap();
    assert!(
        wait_for_line(err, |l| l == "sowkit: paused at locked"),
        "the build never took the lock"
    );
    let mut w = watch(&out).spawn().unwrap();
    let (werr, wout) = (w.stderr.take().unwrap(), w.stdout.take().unwrap());
    let waited = wait_for_line(werr, |l| l.starts_with("waiting: another sowkit build"));
    let written_meanwhile = out.join(IDS[0]).exists();
    holder.kill().unwrap();
    holder.wait().unwrap();
    let rebuilt = waited && wait_for_line(wout, |l| l.starts_with("rebuilt 1 kit(s)"));
    w.kill().unwrap();
    w.wait().unwrap();
    assert!(
        waited,
        "watch did not wait for the build holding the folder"
    );
    assert!(
        !written_meanwhile,
        "watch wrote while the build held the folder"
    );
    assert!(
        rebuilt,
        "watch did not write its kit once the build was gone"
    );
    let check = Command::new(env!("CARGO_BIN_EXE_sowkit"))
        .arg("build")
        .arg("--check")
        .arg(ruleset_file(IDS[0]))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

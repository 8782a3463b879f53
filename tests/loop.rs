//! The designer's loop from the command line: `build --check` (and the example repository's CI
//! workflow), `replay`, `new`, `list`, bundled rulesets.
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn sowkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sowkit"))
}

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// A fresh empty folder under the system temp dir, unique per test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sowkit-loop-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        if e.path().is_dir() {
            copy_tree(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), t).unwrap();
        }
    }
}

/// Every file under `dir` with its bytes and modification time, sorted by path.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>, std::time::SystemTime)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let m = std::fs::metadata(&p).unwrap().modified().unwrap();
                out.push((p.clone(), std::fs::read(&p).unwrap(), m));
            }
        }
    }
    out.sort();
    out
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The `run:` command of the example repository's workflow that calls sowkit.
fn workflow_command() -> Vec<String> {
    let wf = std::fs::read_to_string(repo("examples/.github/workflows/kits.yml")).unwrap();
    let line = wf
        .lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix("run: sowkit "))
        .expect("the workflow runs a sowkit command");
    line.split_whitespace().map(str::to_string).collect()
}

#[test]
fn workflow_and_pre_commit_hooks_run_the_same_check() {
    let cmd = format!("sowkit {}", workflow_command().join(" "));
    assert_eq!(cmd, "sowkit build --check -o kits rulesets");
    for f in ["examples/.pre-commit-config.yaml", ".pre-commit-hooks.yaml"] {
        let y = std::fs::read_to_string(repo(f)).unwrap();
        assert!(
            y.contains(&format!("entry: {cmd}\n")),
            "{f} runs another command"
        );
    }
}

#[test]
fn example_repository_workflow_passes_on_fresh_kits_and_fails_on_stale_ones() {
    let d = scratch("workflow");
    copy_tree(&repo("examples"), &d);
    let args = workflow_command();
    // The build the README gives for this repository.
    let build = || {
        sowkit()
            .args(["build", "-o", "kits", "rulesets"])
            .current_dir(&d)
            .output()
            .unwrap()
    };

    // No kits committed yet: everything is missing, nothing gets written.
    let o = sowkit().args(&args).current_dir(&d).output().unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert_eq!(out, "missing: kits/garden-kalah\n");
    assert!(!d.join("kits").exists(), "--check wrote something");

    // Build as the README says, then the workflow's check passes.
    let o = build();
    assert!(o.status.success(), "{:?}", text(&o));
    let o = sowkit().args(&args).current_dir(&d).output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert_eq!(out, "");
    assert!(err.contains("up to date"), "{err}");
    // `-q`: errors only, so nothing at all when up to date.
    let mut quiet = args.clone();
    quiet.insert(1, "-q".into());
    let o = sowkit().args(&quiet).current_dir(&d).output().unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    assert_eq!(text(&o), (String::new(), String::new()));

    // Change the game's name without rebuilding, and add a file by hand: the check fails and
    // lists the changed files and the stale one; nothing is written.
    let rs = d.join("rulesets/garden-kalah.toml");
    let src = std::fs::read_to_string(&rs).unwrap();
    let changed = src.replacen("name = \"Garden Kalah\"", "name = \"Garden Kalah II\"", 1);
    assert_ne!(src, changed);
    std::fs::write(&rs, changed).unwrap();
    std::fs::write(d.join("kits/garden-kalah/notes.txt"), "hand-made").unwrap();
    let before = tree(&d.join("kits"));
    let o = sowkit().args(&args).current_dir(&d).output().unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    for must in [
        "would change: kits/garden-kalah/kit.pdf",
        "would change: kits/garden-kalah/index.html",
        "would change: kits/garden-kalah/manifest.txt",
        "stale: kits/garden-kalah/notes.txt",
    ] {
        assert!(lines.contains(&must), "{must} not listed in:\n{out}");
    }
    // Only files of that kit, each listed once.
    assert!(lines
        .iter()
        .all(|l| l.starts_with("would change: kits/garden-kalah/")
            || *l == "stale: kits/garden-kalah/notes.txt"));
    let mut dedup = lines.clone();
    dedup.dedup();
    assert_eq!(dedup, lines);
    assert_eq!(before, tree(&d.join("kits")), "--check changed the kits");
    // The hint is the same command without --check: it names the rulesets and the folder.
    assert!(err.contains("run `sowkit build -o kits rulesets`"), "{err}");

    // A kit whose ruleset was removed is stale as a whole folder. `build` never deletes a kit
    // folder (it may be another ruleset's), so the advice is to delete it by hand, not to
    // build again.
    copy_tree(&d.join("kits/garden-kalah"), &d.join("kits/old-game"));
    let o = sowkit().args(&args).current_dir(&d).output().unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(out.lines().any(|l| l == "stale: kits/old-game"), "{out}");
    assert!(
        err.contains("1 kit folder(s) in kits belong to no ruleset given")
            && err.contains("delete them by hand"),
        "{err}"
    );

    // `build` replaces a kit folder whole, so a hidden file in it is stale too (a break-it
    // pass found `--check` passing while `build` would delete it).
    std::fs::remove_dir_all(d.join("kits/old-game")).unwrap();
    let o = build();
    assert!(o.status.success(), "{:?}", text(&o));
    std::fs::write(d.join("kits/garden-kalah/.notes"), "hand-made").unwrap();
    let o = sowkit().args(&args).current_dir(&d).output().unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert_eq!(out, "stale: kits/garden-kalah/.notes\n", "{err}");
    // A kit folder that is a symbolic link: `build` refuses it, and so does `--check`, with
    // the same message (it compared the link's target and named only that).
    #[cfg(unix)]
    {
        std::fs::remove_file(d.join("kits/garden-kalah/.notes")).unwrap();
        std::fs::rename(d.join("kits/garden-kalah"), d.join("kits/real")).unwrap();
        std::os::unix::fs::symlink("real", d.join("kits/garden-kalah")).unwrap();
        let link = "kits/garden-kalah is a symbolic link, not a kit folder";
        let o = sowkit().args(&args).current_dir(&d).output().unwrap();
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{out}{err}");
        assert!(err.contains(link), "{err}");
        let o = build();
        assert_eq!(o.status.code(), Some(1));
        assert!(text(&o).1.contains(link), "{:?}", text(&o));
    }
}

/// `build --check`'s last line counts a missing kit folder as a kit, not as a file: with no
/// `kits/` folder, two kits given are two kits missing ("2 file(s) in kits differ" before);
/// with one of them built and its kit.pdf deleted by hand, one kit is missing and one file
/// differs.
#[test]
fn build_check_counts_missing_kits_apart_from_files() {
    let d = scratch("check-counts");
    let args = [
        "build",
        "--check",
        "-o",
        "kits",
        "--bundled",
        "six-pit-sowing",
        "--bundled",
        "kalah-6x3",
    ];
    let o = sowkit().args(args).current_dir(&d).output().unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert_eq!(
        out,
        "missing: kits/kalah-6x3\nmissing: kits/six-pit-sowing\n"
    );
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("2 kit(s) missing (kits does not exist yet); run `sowkit build -o kits --bundled six-pit-sowing --bundled kalah-6x3`"),
        "{err}"
    );
    assert!(!err.contains("file(s)"), "{err}");

    let o = sowkit()
        .args(["build", "-o", "kits", "--bundled", "six-pit-sowing"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    std::fs::remove_file(d.join("kits/six-pit-sowing/kit.pdf")).unwrap();
    let o = sowkit().args(args).current_dir(&d).output().unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert_eq!(
        out,
        "missing: kits/kalah-6x3\nmissing: kits/six-pit-sowing/kit.pdf\n"
    );
    assert!(
        err.lines().last().unwrap_or_default().starts_with(
            "1 kit(s) missing from kits and 1 file(s) in it differ from what `sowkit build` would write; run `sowkit build"
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn build_bundled_works_in_an_empty_folder() {
    let d = scratch("bundled");
    let o = sowkit()
        .args(["build", "--bundled", "six-pit-sowing", "-o", "k"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let kit = std::fs::read(d.join("k/six-pit-sowing/kit.pdf")).unwrap();
    assert!(kit.starts_with(b"%PDF-"));
    let o = sowkit()
        .args(["build", "--bundled", "no-such-game"])
        .current_dir(&d)
        .output()
        .unwrap();
    // A bad command line (an_unknown_bundled_id_is_a_command_line_error), naming the ids.
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("kalah-6x4"), "{:?}", text(&o));
    // Nothing given and no ./rulesets: each command's hint is one it takes (watch has no
    // --bundled), and `sowkit new` is offered.
    for (cmd, bundled) in [
        ("build", true),
        ("check", true),
        ("watch", false),
        ("serve", true),
    ] {
        let o = sowkit().arg(cmd).current_dir(&d).output().unwrap();
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{cmd}: {err}");
        assert!(
            err.contains(&format!("give ruleset files (`sowkit {cmd} my-game.toml`)")),
            "{err}"
        );
        assert_eq!(
            err.contains(&format!("`sowkit {cmd} --bundled kalah-6x4`")),
            bundled,
            "{cmd}: {err}"
        );
        assert!(err.contains("`sowkit new \"My game\"`"), "{err}");
    }
    // An empty ./rulesets: the same hint.
    std::fs::create_dir_all(d.join("rulesets")).unwrap();
    let o = sowkit().arg("build").current_dir(&d).output().unwrap();
    let (_, err) = text(&o);
    assert!(err.contains("the ./rulesets folder (the default) holds no .toml rulesets: give ruleset files (`sowkit build my-game.toml`), or a bundled ruleset by id"), "{err}");
}

#[test]
fn list_names_every_bundled_ruleset() {
    let o = sowkit().arg("list").output().unwrap();
    let (out, _) = text(&o);
    assert!(o.status.success());
    let mut files: Vec<String> = std::fs::read_dir(repo("rulesets"))
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            n.strip_suffix(".toml").map(str::to_string)
        })
        .collect();
    files.sort();
    let ids: Vec<&str> = out
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(ids, files, "every file in rulesets/ is bundled, once");
    assert!(out.contains("Six-pit sowing (3 pits a side, 3 seeds a pit"));
    // The Spanish Kalah says its language and how to have it in English (a new user's class
    // kit came out in Spanish).
    assert!(
        out.lines().any(|l| l.starts_with("kalah-6x3 ")
            && l.ends_with("; in \"es\": --lang en builds it in English)")),
        "{out}"
    );
}

#[test]
fn new_writes_a_ruleset_that_passes_check_and_never_overwrites() {
    let d = scratch("new");
    let o = sowkit()
        .args(["new", "My Oware", "--from", "oware-abapa"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let src = std::fs::read_to_string(d.join("my-oware.toml")).unwrap();
    assert!(src.starts_with("# My Oware: a new sowkit ruleset"));
    assert!(src.contains("\nid = \"my-oware\"\n"));
    assert!(src.contains("\nname = \"My Oware\"\n"));
    let o = sowkit()
        .args(["check", "my-oware.toml"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    // Again: refused, file untouched.
    std::fs::write(d.join("my-oware.toml"), "mine").unwrap();
    let o = sowkit()
        .args(["new", "My Oware"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("already exists"));
    assert_eq!(
        std::fs::read_to_string(d.join("my-oware.toml")).unwrap(),
        "mine"
    );
    // Names whose id `check` would refuse are refused here, nothing written: a Windows
    // device name, and a name with no ASCII letter or digit.
    for (name, says) in [
        ("con", "device name on Windows"),
        ("Aux", "device name on Windows"),
        ("種まき", "no ASCII letters or digits"),
        // One line of printable text: a line break broke the comment it is written into (the
        // file did not load), and invisible or direction marks are what `check` refuses.
        ("Line\nBreak", "control character U+000A"),
        ("Tab\there", "control character U+0009"),
        ("Zero\u{200b}width", "invisible (default-ignorable)"),
        ("RTL \u{202e} x", "bidirectional control"),
    ] {
        let o = sowkit()
            .args(["new", name])
            .current_dir(&d)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{name}");
        assert!(text(&o).1.contains(says), "{name}: {}", text(&o).1);
    }
    assert!(!d.join("con.toml").exists() && !d.join("aux.toml").exists());
    for f in [
        "line-break.toml",
        "tab-here.toml",
        "zero-width.toml",
        "rtl-x.toml",
    ] {
        assert!(!d.join(f).exists(), "{f} written");
    }
    // Accented and other Latin letters keep a letter in the id ("Ñandú" gave `and`, "Straße"
    // `stra-e`).
    for (name, id) in [
        ("Ñandú Café", "nandu-cafe"),
        ("ÆSIR Straße œuvre", "aesir-strasse-oeuvre"),
        ("ŁÓDŹ Øresund ﬁne", "lodz-oresund-fine"),
    ] {
        let o = sowkit()
            .args(["new", name])
            .current_dir(&d)
            .output()
            .unwrap();
        assert!(o.status.success(), "{:?}", text(&o));
        assert!(
            d.join(format!("{id}.toml")).exists(),
            "{name}: {:?}",
            text(&o)
        );
    }
    // A long name gets an id cut to 64 characters at a word, and passes `check`.
    let long = "Kalah of the seventy-two long winding river valleys of the far north";
    let o = sowkit()
        .args(["new", long])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let id = "kalah-of-the-seventy-two-long-winding-river-valleys-of-the-far";
    assert!(id.len() <= 64 && long.len() > 64);
    let file = format!("{id}.toml");
    assert!(std::fs::read_to_string(d.join(&file))
        .unwrap()
        .contains(&format!("\nid = \"{id}\"\n")));
    let o = sowkit()
        .args(["check", &file])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
}

/// Six-pit sowing (3 pits, 3 seeds), worked by hand:
/// A1 lifts 3 → A2 4, A3 4, store A 1; last in own store: A again.
/// A2 lifts 4 → A3 5, store A 2, B1 4, B2 4; last in B2: B moves.
/// B1 lifts 4 → B2 5, B3 4, store B 1, A1 1; last in A's pit: no capture (own side only).
const MOVES: &str = "A1 A2 B1";

#[test]
fn replay_text_shows_each_ply() {
    let o = sowkit()
        .arg("replay")
        .arg(repo("rulesets/six-pit-sowing.toml"))
        .args(["--moves", MOVES])
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("ply 1: A plays A1\n  lifts 3 seeds from A1 counter-clockwise: A2 A3 store A\n  last seed in store A\n  extra turn for A\n"), "{out}");
    assert!(out.contains(
        "ply 3: B plays B1\n  lifts 4 seeds from B1 counter-clockwise: B2 B3 store B A1\n"
    ));
    // The last board: B's pits right to left on top, store B left, store A right.
    let last_board = "     B3 B2 B1\n[1]   4  5  0\n      1  0  5  [2]";
    assert!(out.contains(last_board), "{out}");
    assert!(out.ends_with("next: A (legal: A1 A3)\n"), "{out}");
}

#[test]
fn replay_json_has_the_documented_shape() {
    let o = sowkit()
        .args(["replay", "--bundled", "six-pit-sowing", "--format", "json"])
        .args(["--moves", MOVES])
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "sowkit-replay");
    assert_eq!(v["version"], 1);
    assert_eq!(
        v["start"]["pits"],
        serde_json::json!([[3, 3, 3], [3, 3, 3]])
    );
    let p = &v["plies"];
    assert_eq!(p.as_array().unwrap().len(), 3);
    assert_eq!(p[0]["move"], "A1");
    assert_eq!(p[0]["extra_turn"], true);
    assert_eq!(p[0]["next"], "A");
    assert_eq!(p[0]["sown"], serde_json::json!(["A2", "A3", "store A"]));
    assert_eq!(p[1]["last"], "B2");
    assert_eq!(p[1]["next"], "B");
    assert_eq!(p[2]["pits"], serde_json::json!([[1, 0, 5], [0, 5, 4]]));
    assert_eq!(p[2]["stores"], serde_json::json!([2, 1]));
    assert_eq!(p[2]["captured"], 0);
    assert_eq!(p[2]["game_over"], false);
    assert_eq!(v["final"]["legal"], serde_json::json!(["A1", "A3"]));
    assert_eq!(v["final"]["scores"], serde_json::Value::Null);
}

#[test]
fn replay_json_reports_capture_and_end() {
    // From "A 1 0 2 (4) / B 3 3 2 (3); A", A1 ends in empty A2 opposite B2's 3: captures 4
    // (bundled example "Capture from the opposite pit"). Then from
    // "A 0 0 1 (8) / B 1 0 0 (8); A": A3's seed goes to store A (9), A's row is empty: game over, B's last seed swept to store B
    // (A 9, B 9 — a draw).
    let o = sowkit()
        .args(["replay", "--bundled", "six-pit-sowing", "--format", "json"])
        .args(["--from", "A 1 0 2 (4) / B 3 3 2 (3); A", "--moves", "A1"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["plies"][0]["captured"], 4);
    assert_eq!(
        v["plies"][0]["pits"],
        serde_json::json!([[0, 0, 2], [3, 0, 2]])
    );
    assert_eq!(v["plies"][0]["stores"], serde_json::json!([8, 3]));
    let o = sowkit()
        .args(["replay", "--bundled", "six-pit-sowing", "--format", "json"])
        .args(["--from", "A 0 0 1 (8) / B 1 0 0 (8); A", "--moves", "A3"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    assert_eq!(v["final"]["game_over"], true);
    assert_eq!(v["final"]["next"], serde_json::Value::Null);
    assert_eq!(v["final"]["scores"], serde_json::json!([9, 9]));
    assert_eq!(v["final"]["end"]["swept"], serde_json::json!([0, 1]));
}

#[test]
fn replay_rejects_an_illegal_move_naming_it() {
    let o = sowkit()
        .args(["replay", "--bundled", "six-pit-sowing", "--moves", "A1 A1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let (_, err) = text(&o);
    assert!(err.contains("move 2 \"A1\""), "{err}");
}

/// Appends `example` to the six-pit-sowing ruleset in a scratch folder; runs `check` on it.
fn check_with(name: &str, example: &str) -> Output {
    let d = scratch(name);
    let mut src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    src.push('\n');
    src.push_str(example);
    let f = d.join("six-pit-sowing.toml");
    std::fs::write(&f, src).unwrap();
    sowkit().arg("check").arg(&f).output().unwrap()
}

#[test]
fn emitted_example_round_trips_through_check() {
    for (from, moves) in [
        (None, MOVES),
        (Some("A 1 0 2 (4) / B 3 3 2 (3); A"), "A1"),
        (Some("A 0 0 1 (8) / B 1 0 0 (8); A"), "A3"),
    ] {
        let mut c = sowkit();
        c.args(["replay", "--bundled", "six-pit-sowing", "--emit-example"])
            .args(["--moves", moves, "--title", "Round trip"]);
        if let Some(f) = from {
            c.args(["--from", f]);
        }
        let o = c.output().unwrap();
        let (ex, err) = text(&o);
        assert!(o.status.success(), "{err}");
        assert!(
            ex.starts_with("\n[[example]]\ntitle = \"Round trip\"\n"),
            "{ex}"
        );
        // The ruleset has a Spanish translation: the example gets its [example.text.es], titled
        // in Spanish, the English title given only in a comment to translate (copied as the
        // Spanish title, it printed in the Spanish kit; without the table, check warned and
        // `build --lang es` refused the ruleset). "Jugada" for one move, "Jugadas" for more.
        let word = if moves.contains(' ') {
            "Jugadas"
        } else {
            "Jugada"
        };
        let placeholder = format!("title = \"{word} {moves}\"\n");
        assert!(
            ex.ends_with(&format!("[example.text.es]\n# UPDATE: translate \"Round trip\" into \"es\" here\n{placeholder}")),
            "{ex}"
        );
        // check accepts it, warning of the placeholder until it is translated.
        let o = check_with("roundtrip", &ex);
        assert!(o.status.success(), "{ex}\n{:?}", text(&o));
        assert!(text(&o).1.contains("9 worked examples agree"));
        assert!(
            text(&o).1.contains("warning: example[9].text.es.title: ")
                && text(&o).1.contains("placeholder"),
            "{:?}",
            text(&o)
        );
        let o = check_with(
            "roundtrip",
            &ex.replace(&placeholder, "title = \"Ida y vuelta\"\n"),
        );
        assert!(o.status.success(), "{ex}\n{:?}", text(&o));
        assert!(!text(&o).1.contains("warning"), "{:?}", text(&o));
        // A wrong expectation in the same example is caught.
        let wrong = ex.replacen("extra_turn = ", "extra_turn = !", 1);
        let wrong = wrong
            .replace("extra_turn = !true", "extra_turn = false")
            .replace("extra_turn = !false", "extra_turn = true");
        let o = check_with("roundtrip-wrong", &wrong);
        assert_eq!(o.status.code(), Some(1), "{wrong}");
    }
}

/// Without --title, the example is titled in the ruleset's language and each translation in
/// its own: six-pit sowing is English with a Spanish translation, Kalah 6×3 Spanish with an
/// English one (titles from the catalogues' `example.replay_title`, written here by hand:
/// Spanish "Jugada" for one move, "Jugadas" for more). No title was given to translate, so
/// `check` does not warn of either as a placeholder (`emitted_titles_warn_until_translated`).
#[test]
fn emitted_example_titles_follow_each_language() {
    for (id, moves, own, other) in [
        (
            "six-pit-sowing",
            "A1 A2",
            "title = \"Replay of A1 A2\"\n",
            "[example.text.es]\ntitle = \"Jugadas A1 A2\"\n",
        ),
        (
            "kalah-6x3",
            "S1",
            "title = \"Jugada S1\"\n",
            "[example.text.en]\ntitle = \"Replay of S1\"\n",
        ),
    ] {
        let o = sowkit()
            .args([
                "replay",
                "--bundled",
                id,
                "--emit-example",
                "--moves",
                moves,
            ])
            .output()
            .unwrap();
        let (ex, err) = text(&o);
        assert!(o.status.success(), "{err}");
        assert!(ex.starts_with(&format!("\n[[example]]\n{own}")), "{ex}");
        assert!(ex.ends_with(other), "{ex}");
    }
}

/// The new user's path (README "Start: sowkit new", "Replay in the terminal"): an example
/// emitted with an English `--title` into a copy of Kalah 6×4 (English, with a Spanish
/// translation) gets the placeholder Spanish title "Jugada S3" (one move; typed "s3", written
/// as the example writes it), and `check` and `build --lang es` warn of it, naming the file, its
/// line and the field, until it is translated; with no `--title`, the titles in both languages
/// are the made-up ones and nothing warns. The same the other way round: a Spanish ruleset
/// (Kalah 6×3) with a Spanish `--title` warns of the English placeholder "Replay of S1".
#[test]
fn emitted_titles_warn_until_translated() {
    let d = scratch("placeholder");
    for (id, moves, title, placeholder, lang) in [
        (
            "kalah-6x4",
            "s3",
            "Opening: three seeds to the store",
            "title = \"Jugada S3\"",
            "es",
        ),
        (
            "kalah-6x3",
            "S1",
            "Apertura",
            "title = \"Replay of S1\"",
            "en",
        ),
    ] {
        let f = d.join(format!("club-{id}.toml"));
        let base = std::fs::read_to_string(repo(&format!("rulesets/{id}.toml"))).unwrap();
        let emit = |t: Option<&str>| {
            std::fs::write(&f, &base).unwrap();
            let mut c = sowkit();
            c.arg("replay")
                .arg(&f)
                .args(["--moves", moves, "--emit-example"]);
            if let Some(t) = t {
                c.args(["--title", t]);
            }
            let o = c.output().unwrap();
            assert!(o.status.success(), "{:?}", text(&o));
            let ex = text(&o).0;
            std::fs::write(&f, format!("{base}{ex}")).unwrap();
            ex
        };
        let ex = emit(Some(title));
        assert!(ex.ends_with(&format!("{placeholder}\n")), "{ex}");
        // The line of the placeholder, counted in the file as written.
        let src = std::fs::read_to_string(&f).unwrap();
        let line = src.lines().position(|l| l == placeholder).unwrap() + 1;
        let at = format!("club-{id}.toml:{line}:");
        // The appended example is the last of the file's.
        let k = src.lines().filter(|l| l.trim() == "[[example]]").count();
        let field = format!("example[{k}].text.{lang}.title");
        let o = sowkit().arg("check").arg(&f).output().unwrap();
        let (_, err) = text(&o);
        assert!(o.status.success(), "{err}");
        assert!(
            err.contains(&format!("warning: {field}: "))
                && err.contains("placeholder")
                && err.contains(&format!("{title:?}"))
                && err.contains(&at),
            "{id}: {err}"
        );
        let out = d.join(format!("kit-{id}"));
        let o = sowkit()
            .args(["build", "--lang", lang])
            .arg(&f)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        let (_, err) = text(&o);
        assert!(o.status.success(), "{err}");
        assert!(
            err.contains(&format!("warning: {field}: ")) && err.contains(&at),
            "{id}: {err}"
        );
        // Translated: no warning.
        std::fs::write(&f, src.replace(placeholder, "title = \"Translated\"")).unwrap();
        let o = sowkit().arg("check").arg(&f).output().unwrap();
        assert!(o.status.success(), "{:?}", text(&o));
        assert!(!text(&o).1.contains("warning"), "{id}: {:?}", text(&o));
        // No --title: the made-up titles in both languages; nothing to translate.
        let ex = emit(None);
        assert!(ex.ends_with(&format!("{placeholder}\n")), "{ex}");
        let o = sowkit().arg("check").arg(&f).output().unwrap();
        assert!(o.status.success(), "{:?}", text(&o));
        assert!(!text(&o).1.contains("warning"), "{id}: {:?}", text(&o));
    }
}

/// A next round's start on a shortened board (closed pits written `x`) replays, text, JSON
/// and as an example that `check` accepts. Giuthi's own example "The second round on a
/// shortened board", worked by hand: A5's 2 seeds go counter-clockwise past the closed A6 and
/// B1 into B2 (2 → 3) and B3 (1 → 2); B3 is occupied, so its 2 seeds are lifted and sown back
/// clockwise: B2 (3 → 4), past B1 and A6, into the empty A5. The last seed is in A5, empty and
/// the move has crossed: A takes the opposite B2's 4 and the capturing seed, 5 in store A.
/// B moves next with B4 (4 seeds) or B6 (3), either way (a single seed cannot start a move).
#[test]
fn replay_from_a_shortened_board_position() {
    let from = "A 3 0 4 1 2 x (0) / B x 2 1 4 0 3 (28); A";
    let o = sowkit()
        .args([
            "replay",
            "--bundled",
            "giuthi",
            "--from",
            from,
            "--moves",
            "A5>",
        ])
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    // The final board, B6…B1 on top, A1…A6 below, closed pits as x.
    assert!(
        out.contains("[28]   3  0  4  0  0  x\n       3  0  4  1  0  x  [5]"),
        "{out}"
    );
    assert!(out.contains("next: B (legal: B4> B4< B6> B6<)"), "{out}");
    let o = sowkit()
        .args(["replay", "--bundled", "giuthi", "--format", "json"])
        .args(["--from", from, "--moves", "A5>"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["closed_pits"], serde_json::json!(["A6", "B1"]));
    assert_eq!(v["plies"][0]["captured"], 5);
    assert_eq!(
        v["plies"][0]["sown"],
        serde_json::json!(["B2", "B3", "B2", "A5"])
    );
    assert_eq!(
        v["final"]["position"],
        "A 3 0 4 1 0 x (5) / B x 0 0 4 0 3 (28); B"
    );
    assert_eq!(
        v["final"]["pits"],
        serde_json::json!([[3, 0, 4, 1, 0, 0], [0, 0, 0, 4, 0, 3]])
    );
    assert_eq!(v["final"]["stores"], serde_json::json!([5, 28]));
    // The emitted example passes check appended to Giuthi.
    let o = sowkit()
        .args([
            "replay",
            "--bundled",
            "giuthi",
            "--emit-example",
            "--title",
            "Round trip",
        ])
        .args(["--from", from, "--moves", "A5>"])
        .output()
        .unwrap();
    let (ex, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(ex.contains(&format!("start = \"{from}\"")), "{ex}");
    let d = scratch("shortened-roundtrip");
    let mut src = std::fs::read_to_string(repo("rulesets/giuthi.toml")).unwrap();
    src.push_str(&ex);
    let f = d.join("giuthi.toml");
    std::fs::write(&f, src).unwrap();
    let o = sowkit().arg("check").arg(&f).output().unwrap();
    assert!(o.status.success(), "{ex}\n{:?}", text(&o));
    // Closing more than [next_round] allows, or on a ruleset without one, is refused.
    for (bundled, moves, from, why) in [
        (
            "giuthi",
            "A5>",
            "A 3 x x x 2 x (0) / B x x x 4 0 3 (28); A",
            "leaves 2 open pits a row, but [next_round] allows no fewer than min_pits = 3",
        ),
        (
            "six-pit-sowing",
            "A1",
            "A 1 x 2 (4) / B 3 x 2 (3); A",
            "no [next_round] table",
        ),
    ] {
        let o = sowkit()
            .args([
                "replay",
                "--bundled",
                bundled,
                "--moves",
                moves,
                "--from",
                from,
            ])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{bundled}");
        assert!(text(&o).1.contains(why), "{bundled}: {:?}", text(&o));
    }
}

#[test]
fn stdin_ruleset_is_read_with_dash() {
    let src = std::fs::read(repo("rulesets/six-pit-sowing.toml")).unwrap();
    let mut child = sowkit()
        .args(["replay", "-", "--moves", "A1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &src).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).0.contains("ply 1: A plays A1"));
}

#[test]
fn help_shows_examples_and_exit_codes() {
    let o = sowkit().arg("--help").output().unwrap();
    let (out, _) = text(&o);
    assert!(
        out.contains("Examples:") && out.contains("Exit codes:\n  0  success"),
        "{out}"
    );
    for cmd in ["build", "check", "replay", "new", "watch", "serve"] {
        let o = sowkit().args([cmd, "--help"]).output().unwrap();
        let (out, _) = text(&o);
        assert!(o.status.success());
        assert!(out.contains("Example"), "{cmd}: {out}");
        assert!(out.contains("Exit codes"), "{cmd}: {out}");
    }
}

/// Each command's help says what the command does (README "Replay", "Using it", "Live
/// preview"): `replay` exits 0 when only worked examples are wrong, `check --paper` lays out
/// on that paper only, and `serve --port` shows one default.
#[test]
fn help_says_what_the_commands_do() {
    let help = |cmd: &str| {
        let o = sowkit().args([cmd, "--help"]).output().unwrap();
        assert!(o.status.success());
        text(&o).0
    };
    let replay = help("replay");
    assert!(!replay.contains("fails its checks"), "{replay}");
    assert!(
        replay.contains(
            "Wrong worked examples, words or sizes are printed, and the ruleset is replayed anyway"
        ),
        "{replay}"
    );
    let check = help("check");
    assert!(check.contains("Lay out on this paper only"), "{check}");
    assert!(!check.contains("Also lay out"), "{check}");
    let serve = help("serve");
    let port = &serve[serve.find("--port").unwrap()..];
    let port = &port[..port.find("--paper").unwrap()];
    assert_eq!(port.matches("[default:").count(), 1, "{port}");
}

#[test]
fn completions_and_man_page_cover_every_command() {
    let o = sowkit().args(["completions", "bash"]).output().unwrap();
    let (bash, _) = text(&o);
    assert!(o.status.success());
    assert!(
        bash.starts_with("_sowkit()"),
        "{}",
        &bash[..80.min(bash.len())]
    );
    let o = sowkit().args(["completions", "fish"]).output().unwrap();
    let (fish, _) = text(&o);
    let o = sowkit().arg("man").output().unwrap();
    let (man, _) = text(&o);
    assert!(
        man.contains(".TH sowkit 1"),
        "{}",
        &man[..200.min(man.len())]
    );
    for cmd in ["build", "check", "replay", "new", "list", "watch", "serve"] {
        assert!(bash.contains(&format!("sowkit,{cmd})")), "bash lacks {cmd}");
        assert!(fish.contains(&format!("-a \"{cmd}\"")), "fish lacks {cmd}");
        assert!(man.contains(&format!("sowkit\\-{cmd}")), "man lacks {cmd}");
    }
    assert!(
        sowkit()
            .args(["completions", "tcsh"])
            .output()
            .unwrap()
            .status
            .code()
            == Some(2)
    );
}

#[test]
fn check_reads_a_ruleset_from_stdin() {
    let mut child = sowkit()
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"id = \"x\"\nname = 5\n").unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("<stdin>:2"), "{:?}", text(&o));
}

/// six-pit-sowing with `seeds_per_pit` made a string, in a scratch folder; returns the file and
/// the 1-based line of the broken key.
fn broken_ruleset(name: &str) -> (PathBuf, usize) {
    let d = scratch(name);
    let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    let bad = src.replacen("seeds_per_pit = 3", "seeds_per_pit = \"x\"", 1);
    assert_ne!(bad, src);
    let line = bad
        .lines()
        .position(|l| l.starts_with("seeds_per_pit"))
        .unwrap()
        + 1;
    let f = d.join("bad.toml");
    std::fs::write(&f, bad).unwrap();
    (f, line)
}

#[test]
fn diagnostics_in_short_and_json_form() {
    let (f, line) = broken_ruleset("diag-forms");
    let o = sowkit()
        .args(["check", "--format", "short"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let (_, err) = text(&o);
    // The first error (a warning that the worked examples wait for the board may come first).
    let first = err.lines().find(|l| l.contains(": error: ")).unwrap();
    let want = format!("{}:{line}:17: error: board.seeds_per_pit: ", f.display());
    assert!(first.starts_with(&want), "{first}");

    let o = sowkit()
        .args(["check", "--format", "json"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let (_, err) = text(&o);
    let objs: Vec<serde_json::Value> = err
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .filter(|o: &serde_json::Value| o["severity"] == "error")
        .collect();
    assert_eq!(objs.len(), 1, "{err}");
    assert_eq!(objs[0]["line"], line);
    assert_eq!(objs[0]["field"], "board.seeds_per_pit");
    assert_eq!(objs[0]["severity"], "error");
}

#[test]
fn color_follows_the_flag_and_no_color() {
    let (f, _) = broken_ruleset("diag-color");
    let run = |color: &str, no_color: bool| {
        let mut c = sowkit();
        c.args(["check", "--color", color]).arg(&f);
        if no_color {
            c.env("NO_COLOR", "1");
        } else {
            c.env_remove("NO_COLOR");
        }
        text(&c.output().unwrap()).1
    };
    assert!(run("always", true).contains("\x1b[1;31merror"));
    assert!(!run("never", false).contains('\x1b'));
    // auto: standard error is a pipe here, so no colour either way.
    assert!(!run("auto", false).contains('\x1b'));
}

#[test]
fn quiet_and_verbose() {
    let f = repo("rulesets/six-pit-sowing.toml");
    let o = sowkit().args(["-q", "check"]).arg(&f).output().unwrap();
    assert!(o.status.success());
    assert_eq!(text(&o).1, "");
    let o = sowkit().args(["check", "-v"]).arg(&f).output().unwrap();
    let (_, err) = text(&o);
    assert!(
        err.contains("  agrees: \"Opening demonstration\"\n"),
        "{err}"
    );
    assert!(err.contains("ok: "));
    // `-q` build: errors only, so no "wrote …" line either.
    let out = tempfile_dir();
    let o = sowkit()
        .args(["-q", "build"])
        .arg(&f)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(text(&o), (String::new(), String::new()));
    assert!(out.join("six-pit-sowing/kit.pdf").is_file());
    std::fs::remove_dir_all(&out).unwrap();
}

/// A fresh empty folder under the system's temporary folder.
fn tempfile_dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!(
        "sowkit-loop-quiet-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn independent_problems_of_one_example_are_all_reported_at_once() {
    // Example 1 of six-pit-sowing names a label that does not exist (`last`) and claims a wrong
    // capture; example 2 starts from a position with the wrong number of seeds. One run
    // reports all three.
    let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    let bad = src
        .replacen("last = \"store A\"", "last = \"store Z\"", 1)
        .replacen("captured = 0", "captured = 2", 1)
        .replacen(
            "start = \"A 0 2 1 (5) / B 2 3 1 (4); A\"",
            "start = \"A 0 2 1 (5) / B 2 3 1 (9); A\"",
            1,
        );
    let d = scratch("independent-2");
    let f = d.join("six.toml");
    std::fs::write(&f, &bad).unwrap();
    let o = sowkit()
        .args(["check", "--format", "short"])
        .arg(&f)
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    for must in [
        "example[1].expect.last: ",
        "example[1].expect.captured: ",
        "example[2].start: ",
    ] {
        assert!(err.contains(must), "{must} missing:\n{err}");
    }
}

/// A relay-sowing ruleset with no store and no capture: games run on for hundreds of moves and
/// a single move relays round the board many times.
const RELAY: &str = r#"id = "relay-long"
name = "Relay"
source = "generated"
[board]
pits_per_side = 6
seeds_per_pit = 4
players = ["A", "B"]
[sowing]
direction = "counterclockwise"
own_store = "skip"
opponent_store = "skip"
origin_on_lap = "skip"
min_seeds = 1
relay = "same"
[extra_turn]
on = ["empty-pit-before-crossing"]
[capture]
kind = "none"
after_crossing_only = true
crossing = "sown"
[grand_slam]
policy = "illegal-unless-only"
[feeding]
must_feed = true
[end]
when = ["either-side-empty", "repetition"]
no_legal_move = "pass"
remaining_seeds = "owner"
"#;

/// `n` moves of a game of `src` in notation form, each the last legal move (the game never
/// ends first here), with how many holes each move sows into.
fn long_game(src: &str, n: usize) -> Vec<(String, usize)> {
    let rs = sowkit::ruleset::load_str("relay.toml", src).unwrap();
    let rules = sowkit::engine::Rules::new(&rs);
    let mut g = sowkit::engine::Game::new(&rules, rules.initial());
    let mut moves = Vec::new();
    while moves.len() < n {
        assert!(!g.is_over(), "the game ended after {} moves", moves.len());
        let mv = *g.legal_moves().last().unwrap();
        let rep = g.play(mv).unwrap();
        let sown = rep.laps.iter().map(|l| l.sown.len()).sum();
        moves.push((sowkit::notation::format_move(&rules, mv), sown));
    }
    moves
}

/// Appends `example` to `src` in a scratch folder; runs `check` on it.
fn check_src_with(name: &str, src: &str, example: &str) -> Output {
    let d = scratch(name);
    let f = d.join("relay-long.toml");
    std::fs::write(&f, format!("{src}\n{example}")).unwrap();
    sowkit().arg("check").arg(&f).output().unwrap()
}

/// What `replay --emit-example` writes is accepted by `check`, however long the game: more
/// than 500 moves (the most an example may have) start from a later position, and a move
/// that sows into more than 64 holes (the longest list) has no `sown` list; stderr says so.
#[test]
fn emitted_example_of_a_long_game_is_accepted_by_check() {
    let game = long_game(RELAY, 700);
    // The 700th move relays round the board into more than 64 holes.
    assert!(game[699].1 > 64, "{}", game[699].1);
    // The first game shorter than 500 moves whose last move sows into more than 64 holes.
    let short = 1 + game.iter().position(|(_, s)| *s > 64).unwrap();
    assert!(short < 500, "{short}");
    let d = scratch("long-game");
    let f = d.join("relay-long.toml");
    std::fs::write(&f, RELAY).unwrap();
    for (n, cut) in [(700, true), (short, false)] {
        let moves: Vec<&str> = game[..n].iter().map(|(m, _)| m.as_str()).collect();
        let o = sowkit()
            .arg("replay")
            .arg(&f)
            .args(["--moves", &moves.join(" "), "--emit-example"])
            .output()
            .unwrap();
        let (ex, err) = text(&o);
        assert!(o.status.success(), "{err}");
        assert!(err.contains("expect.sown is left out"), "{err}");
        assert!(!ex.contains("\nsown ="), "{ex}");
        let listed = ex
            .lines()
            .find_map(|l| l.strip_prefix("moves = "))
            .unwrap()
            .matches('"')
            .count()
            / 2;
        if cut {
            assert!(err.contains("the game has 700 moves"), "{err}");
            assert!(err.contains("holds moves 201 to 700"), "{err}");
            assert_eq!(listed, 500);
            assert!(ex.contains("title = \"Replay of 700 moves\""), "{ex}");
            assert!(!ex.contains("start = \"initial\""), "{ex}");
        } else {
            assert!(!err.contains("the game has"), "{err}");
            assert_eq!(listed, n);
        }
        let o = check_src_with("long-game-check", RELAY, &ex);
        assert!(o.status.success(), "{ex}\n{:?}", text(&o));
        assert!(
            text(&o).1.contains("1 worked example agrees"),
            "{:?}",
            text(&o)
        );
        // The expectations are really checked: a wrong `last` is caught.
        let last = ex.lines().find(|l| l.starts_with("last = ")).unwrap();
        let wrong = ex.replace(last, "last = \"B6\"");
        let wrong = if wrong == ex {
            ex.replace(last, "last = \"A1\"")
        } else {
            wrong
        };
        let o = check_src_with("long-game-wrong", RELAY, &wrong);
        assert_eq!(o.status.code(), Some(1), "{wrong}");
    }
}

#[test]
fn replay_title_over_the_limit_is_refused() {
    let o = sowkit()
        .args([
            "replay",
            "--bundled",
            "six-pit-sowing",
            "--moves",
            "A1",
            "--emit-example",
        ])
        .args(["--title", &"t".repeat(101)])
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--title has 101 characters"), "{err}");
    assert!(err.contains("at most 100"), "{err}");
}

/// A position that does not hold every seed of the game cannot be reached, and an example
/// emitted from one would fail `check` (break-it pass): `replay --from` and `solve --from`
/// refuse it, naming both totals.
#[test]
fn replay_and_solve_refuse_a_position_without_every_seed() {
    // Six-pit sowing: 3 pits × 2 × 3 seeds = 18; this position holds 9 × 3 + 1 = 28.
    let from = "A 9 9 9 (0) / B 1 0 0 (0); A";
    for args in [
        vec!["replay", "--from", from, "--moves", "A1", "--emit-example"],
        vec!["solve", "--from", from],
    ] {
        let o = sowkit()
            .arg(args[0])
            .arg(repo("rulesets/six-pit-sowing.toml"))
            .args(&args[1..])
            .output()
            .unwrap();
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {out}{err}");
        assert!(
            err.contains("holds 28 seeds, but this game has 18"),
            "{args:?}: {err}"
        );
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}

/// `-` reads the ruleset from standard input for `solve` too, as for check, build and replay
/// (it said "-: cannot read the file"): the same answer as from the file.
#[test]
fn solve_reads_a_ruleset_from_standard_input() {
    use std::io::Write;
    let file = repo("rulesets/six-pit-sowing.toml");
    let from_file = sowkit()
        .args(["solve", "--nodes", "100000", "--format", "json"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(from_file.status.success(), "{:?}", text(&from_file));
    let mut child = sowkit()
        .args(["solve", "--nodes", "100000", "--format", "json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read(&file).unwrap())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    // The same value, bounds and best moves (the time field differs between runs).
    let strip = |s: &str| {
        let v: serde_json::Value = serde_json::from_str(s).unwrap();
        (
            v["value"].clone(),
            v["bounds"].clone(),
            v["best_moves"].clone(),
        )
    };
    assert_eq!(strip(&text(&o).0), strip(&text(&from_file).0));
    assert_eq!(strip(&text(&o).0).0, serde_json::json!(2));
}

/// `replay` is how a wrong worked example gets mended, so it plays a ruleset whose examples
/// disagree (saying that `check` still refuses it), and refuses one whose rules are wrong.
#[test]
fn replay_plays_while_a_worked_example_is_wrong() {
    let d = scratch("replay-wrong-example");
    let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    // Five seeds a pit: every example written for three now disagrees.
    let five = src.replacen("seeds_per_pit = 3", "seeds_per_pit = 5", 1);
    assert_ne!(five, src);
    std::fs::write(d.join("five.toml"), &five).unwrap();
    let o = sowkit()
        .args(["replay", "five.toml", "--moves", "A1"])
        .current_dir(&d)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    // Worked by hand: A1's 5 seeds go to A2, A3, store A, B1, B2 (A 0 6 6 (1) / B 6 6 5 (0)),
    // the last in B2, so B moves next.
    assert!(
        out.contains("lifts 5 seeds from A1 counter-clockwise: A2 A3 store A B1 B2"),
        "{out}"
    );
    assert!(out.contains("next: B (legal: B1 B2 B3)"), "{out}");
    assert!(err.contains("error: example[1]"), "{err}");
    assert!(
        err.contains("five.toml has ") && err.contains("problem(s) (listed above; `sowkit check` lists them too), so `check` and `build` refuse the file; replaying with its rules anyway"),
        "{err}"
    );
    // The sizes warning (40 mm pits are under the 50 mm play size for 5 seeds a pit, README
    // "Sizes") is one short line, not a snippet; with -q it is not printed at all, while
    // the errors and the line saying the file is refused still are.
    assert!(
        err.contains("five.toml:51:16: warning: layout.pit_diameter: 40 mm pits"),
        "{err}"
    );
    assert!(!err.contains("--> five.toml:51:16"), "{err}");
    let o = sowkit()
        .args(["-q", "replay", "five.toml", "--moves", "A1"])
        .current_dir(&d)
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(!err.contains("layout.pit_diameter"), "{err}");
    assert!(err.contains("error: example[1]"), "{err}");
    assert!(err.contains("five.toml has "), "{err}");
    // The emitted example is what the engine says, so it passes once the others are mended.
    let o = sowkit()
        .args(["replay", "five.toml", "--moves", "A1", "--emit-example"])
        .current_dir(&d)
        .output()
        .unwrap();
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(
        out.contains("position = \"A 0 6 6 (1) / B 6 6 5 (0)\""),
        "{out}"
    );
    // A wrong rule is still refused: nothing to replay.
    let broken = src.replacen("pits_per_side = 3", "pits_per_side = \"three\"", 1);
    assert_ne!(broken, src);
    std::fs::write(d.join("broken.toml"), &broken).unwrap();
    let o = sowkit()
        .args(["replay", "broken.toml", "--moves", "A1"])
        .current_dir(&d)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("pits_per_side"), "{err}");
}

/// The commands `new` prints, and writes into the file's header, work as printed: a file name
/// with a space is quoted for the shell ("next: sowkit check Club Oware.toml" checked a file
/// named "Club"), and the header names the file written (it said "club-oware.toml").
#[test]
fn new_prints_commands_that_work_as_printed() {
    let d = scratch("new-quoted");
    let o = sowkit()
        .args(["new", "Club Oware.toml", "--from", "oware-abapa"])
        .current_dir(&d)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let next = out
        .split("next: ")
        .nth(1)
        .expect("a next step")
        .trim()
        .to_string();
    assert_eq!(next, "sowkit check 'Club Oware.toml'");
    let src = std::fs::read_to_string(d.join("Club Oware.toml")).unwrap();
    assert!(
        src.contains("run `sowkit check 'Club Oware.toml'`"),
        "{src}"
    );
    assert!(
        src.contains("`sowkit replay 'Club Oware.toml' --moves"),
        "{src}"
    );
    // Run the printed command through a shell, with sowkit on the PATH.
    let bin = Path::new(env!("CARGO_BIN_EXE_sowkit")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("sh")
        .args(["-c", &next])
        .env("PATH", path)
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    // A plain name is printed as it is.
    let o = sowkit()
        .args(["new", "Plain"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(
        text(&o).0.ends_with("next: sowkit check plain.toml\n"),
        "{:?}",
        text(&o)
    );
}

/// A start with the seeds of another starting count the ruleset offers
/// (`seeds_per_pit_options`) replays and solves under that count (it was "holds 24 seeds, but
/// this game has 18"); no worked example is written from it, since examples start with the
/// ruleset's own count. Six-pit sowing with option 4, worked by hand: A1's 4 seeds go to A2,
/// A3, store A and B1: A 0 5 5 (1) / B 5 4 4 (0), B to move. The play-test API plays it too,
/// with no example to copy.
#[test]
fn an_option_start_replays_and_solves_under_its_count() {
    let d = scratch("option-start");
    let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    let with = src.replacen(
        "seeds_per_pit = 3",
        "seeds_per_pit = 3\nseeds_per_pit_options = [4]",
        1,
    );
    assert_ne!(with, src);
    std::fs::write(d.join("six.toml"), &with).unwrap();
    let from = "A 4 4 4 (0) / B 4 4 4 (0); A";
    let o = sowkit()
        .args([
            "replay", "six.toml", "--from", from, "--moves", "A1", "--format", "json",
        ])
        .current_dir(&d)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["final"]["position"], "A 0 5 5 (1) / B 5 4 4 (0); B");
    let o = sowkit()
        .args([
            "replay",
            "six.toml",
            "--from",
            from,
            "--moves",
            "A1",
            "--emit-example",
        ])
        .current_dir(&d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).1.contains("one of board.seeds_per_pit_options"),
        "{:?}",
        text(&o)
    );
    let o = sowkit()
        .args(["solve", "six.toml", "--from", from])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).0.contains("proven"), "{:?}", text(&o));
    let rs = sowkit::ruleset::load_str("six.toml", &with).unwrap();
    let (status, body) = sowkit::serve::play_json(
        &rs,
        format!(r#"{{"from": "{from}", "moves": ["A1"]}}"#).as_bytes(),
    );
    assert_eq!(status, "200 OK", "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        v["replay"]["final"]["position"],
        "A 0 5 5 (1) / B 5 4 4 (0); B"
    );
    assert_eq!(v["example"], serde_json::Value::Null);
    // A total that is no option's is still refused.
    let o = sowkit()
        .args([
            "replay",
            "six.toml",
            "--from",
            "A 5 5 5 (0) / B 5 5 5 (0); A",
            "--moves",
            "A1",
        ])
        .current_dir(&d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{:?}", text(&o));
}

/// An unknown `--bundled` id is a command-line error, exit 2 as a bad `--paper` (README "Using
/// it": 2 the command line itself is wrong), for every command that takes `--bundled`: it
/// exited 1, as a wrong ruleset does. The message still lists the bundled ids; nothing is
/// written, and `serve` does not start.
#[test]
fn an_unknown_bundled_id_is_a_command_line_error() {
    let d = scratch("bundled-unknown");
    for args in [
        vec!["build", "--bundled", "kalah-6x5"],
        vec!["build", "--bundled", "giuthi", "--bundled", "kalah-6x5"],
        vec!["check", "--bundled", "kalah-6x5"],
        vec!["replay", "--bundled", "kalah-6x5", "--moves", "S1"],
        vec!["solve", "--bundled", "kalah-6x5"],
        vec!["serve", "--bundled", "kalah-6x5"],
    ] {
        let mut child = sowkit()
            .args(&args)
            .current_dir(&d)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A `serve` that started would run until killed.
        let t = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if t.elapsed() > std::time::Duration::from_secs(20) {
                let _ = child.kill();
                panic!("{args:?} did not exit");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let o = child.wait_with_output().unwrap();
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("no bundled ruleset has id \"kalah-6x5\"; the bundled rulesets are giuthi, kalah-6x3, kalah-6x4, oware-abapa, six-pit-sowing"),
            "{args:?}: {err}"
        );
    }
    assert!(!d.join("out").exists(), "an unknown id wrote a kit");
    let _ = std::fs::remove_dir_all(&d);
}

/// An unproven `solve --format json` says why it stopped, as the text report does (a new
/// user's JSON said only `"proven": false`); a proven one has `null` there. A table under a
/// mebibyte (`--memory 1`) is reported in KiB, not as "0 MiB".
#[test]
fn solve_json_says_why_it_stopped() {
    let run = |args: &[&str]| {
        let o = sowkit()
            .args(["solve", "--bundled", "six-pit-sowing"])
            .args(args)
            .output()
            .unwrap();
        let (out, err) = text(&o);
        assert!(o.status.success(), "{args:?}: {err}");
        out
    };
    let v: serde_json::Value =
        serde_json::from_str(&run(&["--nodes", "10", "--format", "json"])).unwrap();
    assert_eq!(v["proven"], serde_json::json!(false));
    assert_eq!(v["stopped"], serde_json::json!("nodes"));
    assert_eq!(
        v["reason"],
        serde_json::json!("the node budget (10 positions) ran out")
    );
    let v: serde_json::Value = serde_json::from_str(&run(&["--format", "json"])).unwrap();
    assert_eq!(v["proven"], serde_json::json!(true));
    assert_eq!(
        (v["stopped"].is_null(), v["reason"].is_null()),
        (true, true)
    );
    let out = run(&["--memory", "1"]);
    assert!(out.contains(" KiB)") && !out.contains("0 MiB"), "{out}");
    // The balance report's JSON too.
    let v: serde_json::Value =
        serde_json::from_str(&run(&["--balance", "--nodes", "10", "--format", "json"])).unwrap();
    assert_eq!(v["stopped"], serde_json::json!("nodes"));
    assert_eq!(
        v["reason"],
        serde_json::json!("the node budget (10 positions) ran out")
    );
}

/// `solve` takes `--bundled` as `build`, `replay` and `serve` do (README "Solving": the
/// six-pit ruleset's start is worth 2 with best moves A1 and A2), and every command taking
/// ruleset paths answers a bundled id given as a path that does not exist with the option.
#[test]
fn bundled_ids_are_taken_by_solve_and_suggested_for_missing_paths() {
    let d = scratch("bundled-hint");
    let o = sowkit()
        .args(["solve", "--bundled", "six-pit-sowing", "--format", "json"])
        .current_dir(&d)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"], serde_json::json!(2), "{out}");
    assert_eq!(v["best_moves"], serde_json::json!(["A1", "A2"]), "{out}");
    for args in [
        vec!["build", "kalah-6x4"],
        vec!["check", "kalah-6x4.toml"],
        vec!["replay", "kalah-6x4", "--moves", "S1"],
        vec!["solve", "kalah-6x4"],
        vec!["serve", "kalah-6x4"],
    ] {
        let o = sowkit().args(&args).current_dir(&d).output().unwrap();
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("did you mean `--bundled kalah-6x4`?"),
            "{args:?}: {err}"
        );
    }
    // The advice works: `check` takes `--bundled` too (it was suggested, then refused).
    let o = sowkit()
        .args(["check", "--bundled", "kalah-6x4"])
        .current_dir(&d)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        format!("{out}{err}").contains("ok: <bundled>/kalah-6x4.toml"),
        "{out}{err}"
    );
    // `watch` cannot watch a bundled ruleset (it never changes): it names the `new` command
    // that writes a copy, and that command works.
    let o = sowkit()
        .args(["watch", "kalah-6x4"])
        .current_dir(&d)
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!err.contains("--bundled"), "{err}");
    let new = "sowkit new my-kalah-6x4.toml --from kalah-6x4";
    assert!(err.contains(&format!("`{new}`")), "{err}");
    let o = sowkit()
        .args(new.split(' ').skip(1))
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(d.join("my-kalah-6x4.toml").is_file());
    // Any other missing file: no such hint.
    let o = sowkit()
        .args(["check", "nothing.toml"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(!text(&o).1.contains("--bundled"), "{}", text(&o).1);
}

/// `watch kalah-6x4` where `my-kalah-6x4.toml` is already in the folder: the advice said
/// `sowkit new my-kalah-6x4.toml --from kalah-6x4`, which `new` refuses (it never
/// overwrites). Now it names the file that is there, to watch, and a free name for a fresh
/// copy, and the `new` command it gives works; a folder with that name is not called a file
/// to watch.
#[test]
fn watch_advice_for_a_bundled_id_works_when_its_copy_exists() {
    let d = scratch("bundled-hint-taken");
    std::fs::write(d.join("my-kalah-6x4.toml"), "# an earlier copy\n").unwrap();
    let o = sowkit()
        .args(["watch", "kalah-6x4"])
        .current_dir(&d)
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("my-kalah-6x4.toml is already in this folder"),
        "{err}"
    );
    assert!(err.contains("`sowkit watch my-kalah-6x4.toml`"), "{err}");
    assert!(!err.contains("`sowkit new my-kalah-6x4.toml "), "{err}");
    let new = "sowkit new my-kalah-6x4-2.toml --from kalah-6x4";
    assert!(err.contains(&format!("`{new}`")), "{err}");
    let o = sowkit()
        .args(new.split(' ').skip(1))
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(d.join("my-kalah-6x4-2.toml").is_file());
    // Both names taken now, the second a folder: the next free name, and no watch of a folder.
    std::fs::remove_file(d.join("my-kalah-6x4.toml")).unwrap();
    std::fs::create_dir(d.join("my-kalah-6x4.toml")).unwrap();
    let o = sowkit()
        .args(["watch", "kalah-6x4"])
        .current_dir(&d)
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!err.contains("sowkit watch"), "{err}");
    let new = "sowkit new my-kalah-6x4-3.toml --from kalah-6x4";
    assert!(err.contains(&format!("`{new}` writes a copy")), "{err}");
    let o = sowkit()
        .args(new.split(' ').skip(1))
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o).1);
}

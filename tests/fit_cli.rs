//! Layout errors of `sowkit build` over several rulesets: every failing ruleset is reported
//! (not only the first), nothing is written, and `--format short|json` is honoured as `check`
//! honours it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn sowkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sowkit"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sowkit-fit-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The six-pit ruleset up to its `[layout]` table (no worked examples), with id `id`, pit
/// labels `len` characters long ("WWW…A1": wide letters) and pits `d` mm across.
fn long_label_ruleset(dir: &Path, id: &str, len: usize, d: u32) -> PathBuf {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/six-pit-sowing.toml"),
    )
    .unwrap();
    let head: String = src
        .lines()
        .take_while(|l| !l.starts_with("[text.es]") && !l.starts_with("# The words"))
        .map(|l| {
            if l.starts_with("id = ") {
                format!("id = \"{id}\"")
            } else if l.starts_with("pit_labels = ") {
                let w = "W".repeat(len - 2);
                format!(
                    "pit_labels = [[\"{w}A1\", \"{w}A2\", \"{w}A3\"], [\"{w}B1\", \"{w}B2\", \"{w}B3\"]]"
                )
            } else if l.starts_with("pit_diameter = ") {
                format!("pit_diameter = {d}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let p = dir.join(format!("{id}.toml"));
    std::fs::write(&p, head + "\n").unwrap();
    p
}

#[test]
fn a_folder_build_reports_every_failing_ruleset_in_each_format() {
    let dir = scratch("rulesets");
    // 12 characters of "W" do not fit a 20 mm pit at 5 pt (a W is 1.03 em: about 22 mm).
    long_label_ruleset(&dir, "first", 12, 20);
    long_label_ruleset(&dir, "second", 12, 20);
    long_label_ruleset(&dir, "fine", 2, 40);
    for format in ["human", "short", "json"] {
        let out = scratch(&format!("out-{format}"));
        let o = sowkit()
            .args(["build", "--format", format, "-o"])
            .arg(&out)
            .arg(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{format}: {err}");
        for id in ["first", "second"] {
            let path = dir.join(format!("{id}.toml")).display().to_string();
            let lines: Vec<&str> = err
                .lines()
                .filter(|l| l.contains(&path) && l.contains("board.pit_labels"))
                .collect();
            assert!(!lines.is_empty(), "{format}: {id} not reported: {err}");
            match format {
                "short" => assert!(
                    lines.iter().any(|l| l.starts_with(&format!("{path}:13:"))),
                    "{format}: {err}"
                ),
                "json" => {
                    let v: serde_json::Value = lines
                        .iter()
                        .find_map(|l| serde_json::from_str(l).ok())
                        .unwrap_or_else(|| panic!("no JSON line for {id}: {err}"));
                    assert_eq!(v["severity"], "error");
                    assert_eq!(v["path"], path.as_str());
                    assert_eq!(v["line"], 13);
                    assert_eq!(v["field"], "board.pit_labels");
                }
                _ => assert!(
                    lines
                        .iter()
                        .any(|l| l.starts_with(&format!("error: {path}: "))),
                    "{format}: {err}"
                ),
            }
        }
        // All or nothing: the fine ruleset's kit is not written either.
        assert!(!out.join("fine").exists(), "{format}: a kit was written");
    }
}

#[test]
fn sixteen_pits_with_twelve_character_labels_name_the_field_and_say_nothing_works() {
    let dir = scratch("sixteen");
    let src = std::fs::read_to_string(long_label_ruleset(&dir, "sixteen", 12, 40)).unwrap();
    let labels = |p: &str| {
        (1..=16)
            .map(|i| format!("\"WWWWWWWWW{p}{i:02}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let src: String = src
        .lines()
        .map(|l| {
            if l.starts_with("pit_labels = ") {
                format!("pit_labels = [[{}], [{}]]", labels("A"), labels("B"))
            } else if l.starts_with("pits_per_side = ") {
                "pits_per_side = 16".to_string()
            } else {
                l.to_string()
            }
        })
        .map(|l| l + "\n")
        .collect();
    let path = dir.join("sixteen.toml");
    std::fs::write(&path, &src).unwrap();
    let line = src
        .lines()
        .position(|l| l.starts_with("pit_labels"))
        .unwrap()
        + 1;
    let out = scratch("sixteen-out");
    let o = sowkit()
        .args(["build", "-o"])
        .arg(&out)
        .arg(&path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let at = format!("{}:{line}: board.pit_labels: ", path.display());
    assert!(err.contains(&at), "no {at:?} in {err}");
    assert!(
        err.contains("nothing tried lays this kit out on A4"),
        "{err}"
    );
    // Labels too long for their pits: the one change left is to shorten them.
    assert!(err.contains(": shorten the texts named above"), "{err}");
    assert!(!err.contains("use a larger paper"), "{err}");
    // What it says is so: the largest named paper does not lay it out either.
    let rs = sowkit::ruleset::load_str(&path.display().to_string(), &src).unwrap();
    let opts = sowkit::layout::KitOptions::new(sowkit::layout::A3);
    assert!(sowkit::layout::kit(&rs, &opts).is_err());
    assert!(!out.join("sixteen").exists());
}

#[test]
fn a_narrow_custom_paper_gets_a_paper_that_builds() {
    // 140 mm across leaves 120 mm inside the margins. Kalah 6x3's Spanish footer (print check
    // beside "página 1 de 13 · 140x2000mm") used to overlap its page number here; it now
    // takes its short forms and the kit builds. (The score log's move numbers, which six-pit
    // sowing used to be refused for here, widen their column.) Large print's 18 pt bar label
    // does not fit beside the 100 mm bar (10 + 100 + 3 mm, then some 21 mm of label, past
    // the 130 mm margin): the advice names a paper, and building on it works.
    let ruleset = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/kalah-6x3.toml");
    let out = scratch("narrow");
    let o = sowkit()
        .args(["build", "--paper", "140x2000mm", "-o"])
        .arg(&out)
        .arg(&ruleset)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = sowkit()
        .args(["build", "--paper", "140x2000mm", "--style", "large", "-o"])
        .arg(&out)
        .arg(&ruleset)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let paper = err
        .split("build with --paper ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .unwrap_or_else(|| panic!("no paper advised: {err}"))
        .to_string();
    let o = sowkit()
        .args(["build", "--paper", &paper, "--style", "large", "-o"])
        .arg(&out)
        .arg(&ruleset)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "--paper {paper}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn counters_the_fitted_pits_cannot_hold_are_not_told_to_shorten_texts() {
    // 16 pits a side of 50 seeds with 60 mm child-safe counters. Seven counters lie flat as
    // six round a seventh: 3 · 60 mm + the 4 mm rim = 184 mm. The pits asked for are smaller
    // (the default for 60 mm counters holds three: 60 · (1 + 2/√3) + 4 = 133.3 → 134 mm), so
    // --fit may not shrink them at all, and on A4 it would need about 12 mm. The true-size
    // board cannot be tiled on A4 without cutting a pit. Nothing tried builds, and the
    // closing line asks for fewer seeds or smaller counters, not shorter texts (none is long).
    let dir = scratch("floor");
    let src = "id = \"floor\"\nname = \"Floor\"\nsource = \"generated\"\n\
        [board]\npits_per_side = 16\nseeds_per_pit = 50\nplayers = [\"A\", \"B\"]\n\
        [sowing]\ndirection = \"counterclockwise\"\nown_store = \"skip\"\nopponent_store = \"skip\"\n\
        [capture]\nkind = \"none\"\n\
        [end]\nwhen = [\"either-side-empty\"]\nremaining_seeds = \"owner\"\n\
        [layout]\ncounter_diameter = 60\n";
    let path = dir.join("floor.toml");
    std::fs::write(&path, src).unwrap();
    let out = scratch("floor-out");
    let o = sowkit()
        .args(["build", "--child-safe", "--fit", "-o"])
        .arg(&out)
        .arg(&path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("below the 134 mm pits asked for (--child-safe grew them to hold its counters), which --fit may not shrink: a pit needs 184 mm to hold 7 of its 50 starting seeds"),
        "{err}"
    );
    assert!(
        err.contains("nothing tried lays this kit out on A4"),
        "{err}"
    );
    assert!(!err.contains("shorten the texts"), "{err}");
    assert!(
        err.contains("start with fewer seeds a pit (board.seeds_per_pit), or use smaller counters (layout.counter_diameter) and leave out --child-safe"),
        "{err}"
    );
    assert!(!out.join("floor").exists());
}

//! Layout errors name the ruleset file, line and field, and every change they advise really
//! lays the kit out: each test applies the advice to the file and builds it.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sowkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sowkit"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sowkit-advice-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The six-pit-sowing ruleset with `pits` pits a side, no labels, no other languages, no
/// examples, and `layout` as the `[layout]` table's body (`None`: no `[layout]` table).
fn ruleset(pits: usize, layout: Option<&str>) -> String {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/six-pit-sowing.toml"),
    )
    .unwrap();
    let head = &src[..src.find("[layout]").unwrap()];
    let mut s = head
        .replace("pits_per_side = 3", &format!("pits_per_side = {pits}"))
        .lines()
        .filter(|l| !l.starts_with("pit_labels"))
        .collect::<Vec<_>>()
        .join("\n");
    s.push('\n');
    if let Some(l) = layout {
        s.push_str("[layout]\n");
        s.push_str(l);
    }
    s
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn check(f: &Path, extra: &[&str]) -> Output {
    sowkit()
        .arg("check")
        .arg(f)
        .args(["--paper", "a4"])
        .args(extra)
        .output()
        .unwrap()
}

/// Builds `f` on A4 with `extra` options into a fresh folder; panics unless it succeeds.
fn builds(f: &Path, extra: &[&str], when: &str) {
    let out = f.with_extension("out");
    let _ = std::fs::remove_dir_all(&out);
    let o = sowkit()
        .arg("build")
        .arg(f)
        .args(["--paper", "a4", "-o"])
        .arg(&out)
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{when}: {}", stderr(&o));
    assert!(out.join("six-pit-sowing/kit.pdf").exists(), "{when}");
}

/// 1-based line of the first line of `src` starting with `start`.
fn line_of(src: &str, start: &str) -> usize {
    1 + src.lines().position(|l| l.starts_with(start)).unwrap()
}

/// The value `help: FILE:LINE: FIELD = NOW → FIELD = V (…)` advises, checking file and line.
fn advised(err: &str, file: &Path, line: usize, field: &str, now: &str) -> String {
    let want = format!(
        "help: {}:{line}: {field} = {now} → {field} = ",
        file.display()
    );
    let at = err
        .find(&want)
        .unwrap_or_else(|| panic!("no {want:?} in:\n{err}"));
    let rest = &err[at + want.len()..];
    rest[..rest.find(' ').unwrap()].to_string()
}

#[test]
fn a_gap_too_narrow_for_a_seam_is_named_and_the_larger_gap_advised_builds() {
    let d = scratch("gap");
    let f = d.join("narrow.toml");
    let src = ruleset(6, Some("pit_diameter = 40\npit_gap = 4\n"));
    std::fs::write(&f, &src).unwrap();
    let o = check(&f, &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot be split over A4 sheets"), "{err}");
    // The old hint told the user to make the gap smaller: that never helps a seam fit.
    assert!(!err.contains("smaller layout.pit_gap"), "{err}");
    let gap = advised(&err, &f, line_of(&src, "pit_gap"), "layout.pit_gap", "4");
    assert!(gap.parse::<f64>().unwrap() > 4.0, "{gap}");
    assert!(err.contains("(a larger value; tried"), "{err}");
    let fixed = src.replace("pit_gap = 4", &format!("pit_gap = {gap}"));
    std::fs::write(&f, &fixed).unwrap();
    let o = check(&f, &[]);
    assert!(o.status.success(), "pit_gap = {gap}: {}", stderr(&o));
    builds(&f, &[], &format!("pit_gap = {gap}"));

    // The pit diameter advised works too, and so do the paper and --fit.
    std::fs::write(&f, &src).unwrap();
    let pd = advised(
        &err,
        &f,
        line_of(&src, "pit_diameter"),
        "layout.pit_diameter",
        "40",
    );
    std::fs::write(
        &f,
        src.replace("pit_diameter = 40", &format!("pit_diameter = {pd}")),
    )
    .unwrap();
    assert!(check(&f, &[]).status.success(), "pit_diameter = {pd}");
    std::fs::write(&f, &src).unwrap();
    assert!(err.contains("help: or build with --paper a3"), "{err}");
    assert!(err.contains("help: or build with --fit"), "{err}");
    let o = sowkit()
        .arg("check")
        .arg(&f)
        .args(["--paper", "a3"])
        .output()
        .unwrap();
    assert!(o.status.success(), "--paper a3: {}", stderr(&o));
    builds(&f, &["--fit"], "--fit");
}

#[test]
fn a_size_left_to_its_default_is_advised_where_to_add_it_and_that_builds() {
    let d = scratch("default");
    let f = d.join("wide.toml");
    // 16 pits of 40 mm with no gap: pit_gap is set, the diameter is left out.
    let src = ruleset(16, Some("pit_gap = 0\n"));
    std::fs::write(&f, &src).unwrap();
    let o = check(&f, &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let gap = advised(&err, &f, line_of(&src, "pit_gap"), "layout.pit_gap", "0");
    let fixed = src.replace("pit_gap = 0", &format!("pit_gap = {gap}"));
    std::fs::write(&f, &fixed).unwrap();
    assert!(check(&f, &[]).status.success(), "pit_gap = {gap}");
    builds(&f, &[], &format!("pit_gap = {gap}"));

    // 8 pits, the diameter left to its default: where to add it, under the [layout] header.
    let src = ruleset(8, Some("pit_gap = 2\n"));
    std::fs::write(&f, &src).unwrap();
    let o = check(&f, &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let want = format!(
        "help: {}:{}: add pit_diameter = ",
        f.display(),
        line_of(&src, "[layout]")
    );
    let at = err
        .find(&want)
        .unwrap_or_else(|| panic!("no {want:?} in:\n{err}"));
    let rest = &err[at + want.len()..];
    let pd = &rest[..rest.find(' ').unwrap()];
    assert!(
        rest.contains("layout.pit_diameter is 40 mm by default"),
        "{err}"
    );
    let fixed = src.replace("[layout]\n", &format!("[layout]\npit_diameter = {pd}\n"));
    std::fs::write(&f, &fixed).unwrap();
    assert!(check(&f, &[]).status.success(), "added pit_diameter = {pd}");
    builds(&f, &[], &format!("added pit_diameter = {pd}"));
}

#[test]
fn a_build_that_cannot_be_laid_out_gives_the_same_advice_and_writes_nothing() {
    let d = scratch("build");
    let f = d.join("narrow.toml");
    let src = ruleset(6, Some("pit_diameter = 40\npit_gap = 4\n"));
    std::fs::write(&f, &src).unwrap();
    let out = d.join("out");
    let o = sowkit()
        .arg("build")
        .arg(&f)
        .args(["--paper", "a4", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    advised(&err, &f, line_of(&src, "pit_gap"), "layout.pit_gap", "4");
    assert!(err.contains("nothing was written"), "{err}");
    assert!(!out.exists());
}

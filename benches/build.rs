//! Time to build kits from the bundled rulesets (load, replay examples, lay out, render PDF and
//! SVG, write files), release build. Target (issue 2): the three Kalah-family kits in under
//! 0.3 s of wall time. Run: `cargo bench --bench build`.
use std::path::Path;
use std::time::Instant;

fn build(ids: &[&str], out: &Path) -> usize {
    let mut bytes = 0;
    for id in ids {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rulesets/{id}.toml"));
        let src = std::fs::read_to_string(&path).expect("bundled ruleset");
        let rs = sowkit::ruleset::load_str(&path.display().to_string(), &src).expect("valid");
        assert!(
            sowkit::examples::check(&rs, &src).is_empty(),
            "{id}: examples disagree"
        );
        let kit = sowkit::kit::make(&rs, &sowkit::layout::KitOptions::new(sowkit::layout::A4))
            .expect("layout");
        bytes += kit.files.iter().map(|f| f.bytes.len()).sum::<usize>();
        sowkit::kit::write(&kit, out).expect("write");
    }
    bytes
}

/// Kalah 6×4 made and written with the host key's solver lines left out
/// ([`sowkit::kit::make_with`]): the kit's own share (load, examples, layout, PDF, SVG, HTML,
/// writing) without the solver's (issue 10). Median seconds of `runs`.
fn without_solver(out: &Path, runs: usize) -> f64 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/kalah-6x4.toml");
    let src = std::fs::read_to_string(&path).expect("bundled ruleset");
    let mut times = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let rs = sowkit::ruleset::load_str(&path.display().to_string(), &src).expect("valid");
        assert!(sowkit::examples::check(&rs, &src).is_empty());
        let opts = sowkit::layout::KitOptions::new(sowkit::layout::A4);
        let kit = sowkit::kit::make_with(&rs, &opts, false).expect("layout");
        sowkit::kit::write(&kit, out).expect("write");
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    times[times.len() / 2]
}

fn main() {
    // The allocator set up as the program sets it (src/main.rs), so the bench times what runs.
    sowkit::build::tune_allocator();
    let out = std::env::temp_dir().join(format!("sowkit-bench-{}", std::process::id()));
    if std::env::args().any(|a| a == "--without-solver") {
        let t = without_solver(&out, 11);
        println!("kalah-6x4 without the host key's solver lines: median {:.1} ms over 11 runs (in process)", t * 1000.0);
        let _ = std::fs::remove_dir_all(&out);
        return;
    }
    for (label, ids) in [
        (
            "three Kalah-family kits",
            &["six-pit-sowing", "kalah-6x4", "kalah-6x3"][..],
        ),
        (
            "all five bundled kits",
            &[
                "six-pit-sowing",
                "kalah-6x4",
                "kalah-6x3",
                "oware-abapa",
                "giuthi",
            ][..],
        ),
    ] {
        build(ids, &out); // warm-up
        let mut times = Vec::new();
        let mut bytes = 0;
        for _ in 0..7 {
            let t = Instant::now();
            bytes = build(ids, &out);
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!(
            "{label}: median {:.3} s, min {:.3} s, max {:.3} s over 7 runs ({} bytes written per run; target < 0.300 s for the three)",
            times[3], times[0], times[6], bytes
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

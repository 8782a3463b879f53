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

/// Not coverage-guided: mutates the seed corpus at random through each harness for
/// `SOWKIT_RANDOM_SECS` seconds (default 5) per target and prints the number of inputs run.
/// For machines without cargo-fuzz; `tools/fuzz.sh` is the real fuzzer.
/// `cargo test --release --test fuzz_regressions -- --ignored --nocapture`
#[test]
#[ignore]
fn random_mutations_of_the_corpus() {
    let secs: u64 = std::env::var("SOWKIT_RANDOM_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    type Harness = fn(&[u8]);
    let targets: [(&str, Harness); 4] = [
        ("loader", sowkit::fuzzing::loader),
        ("notation", sowkit::fuzzing::notation),
        ("engine", sowkit::fuzzing::engine),
        ("kit", sowkit::fuzzing::kit),
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (name, run) in targets {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fuzz-regressions")
            .join(name);
        let seeds: Vec<Vec<u8>> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| std::fs::read(e.unwrap().path()).unwrap())
            .collect();
        let t0 = std::time::Instant::now();
        let mut n = 0u64;
        while t0.elapsed().as_secs() < secs {
            let mut d = seeds[(next() as usize) % seeds.len()].clone();
            for _ in 0..1 + next() % 8 {
                let r = next();
                match r % 4 {
                    0 if !d.is_empty() => {
                        let i = (r >> 8) as usize % d.len();
                        d[i] = (r >> 32) as u8;
                    }
                    1 if !d.is_empty() => {
                        let i = (r >> 8) as usize % d.len();
                        d.remove(i);
                    }
                    2 => {
                        let i = (r >> 8) as usize % (d.len() + 1);
                        d.insert(i, (r >> 32) as u8);
                    }
                    _ if !d.is_empty() => {
                        // Repeat a slice (grows lists, nesting, strings).
                        let i = (r >> 8) as usize % d.len();
                        let len = ((r >> 40) as usize % 64).min(d.len() - i);
                        let piece = d[i..i + len].to_vec();
                        d.splice(i..i, piece);
                    }
                    _ => {}
                }
            }
            let r = std::panic::catch_unwind(|| run(&d));
            if r.is_err() {
                let f = dir.join(format!("random-{n}"));
                std::fs::write(&f, &d).unwrap();
                panic!("{name}: input saved as {}", f.display());
            }
            n += 1;
        }
        println!("{name}: {n} inputs in {secs} s, no property broken");
    }
}

/// Times every input of the regression corpus through its harness (one run each, in the order
/// of the files) and prints the slowest, to find what makes a target slow.
/// `cargo test --release --test fuzz_regressions time_each_input -- --ignored --nocapture`
#[test]
#[ignore]
fn time_each_input() {
    type Harness = fn(&[u8]);
    let targets: [(&str, Harness); 4] = [
        ("loader", sowkit::fuzzing::loader),
        ("notation", sowkit::fuzzing::notation),
        ("engine", sowkit::fuzzing::engine),
        ("kit", sowkit::fuzzing::kit),
    ];
    for (name, run) in targets {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fuzz-regressions")
            .join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).unwrap();
            let t0 = std::time::Instant::now();
            run(&data);
            println!(
                "{name}/{}: {:.1} ms",
                f.file_name().unwrap().to_string_lossy(),
                t0.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}

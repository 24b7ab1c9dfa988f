//! Every fuzz target's property (`rkbuild::fuzzcheck`) over its seeds (`fuzz/seeds/TARGET`)
//! and over every input a fuzzer once crashed on (`fuzz/regressions/TARGET`), as an ordinary
//! test: what the fuzzer found stays fixed. A hang is a finding too (libFuzzer's timeout is
//! 10 s), so each input must also be done within a bound.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Panics anywhere, the worker threads' included (a thread's panic can be caught and turned
/// into an error, but libFuzzer aborts on it: so does this test).
static PANICS: AtomicUsize = AtomicUsize::new(0);

#[test]
fn seeds_and_found_crashes_hold() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        default(info);
    }));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut ran = 0;
    for (name, check) in rkbuild::fuzzcheck::TARGETS {
        let seeds = root.join("seeds").join(name);
        assert!(
            seeds.is_dir(),
            "fuzz target {name} has no seeds in {}",
            seeds.display()
        );
        for dir in [seeds, root.join("regressions").join(name)] {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries {
                let p = e.unwrap().path();
                let data = std::fs::read(&p).unwrap();
                let start = std::time::Instant::now();
                let r = std::panic::catch_unwind(|| check(&data));
                assert!(r.is_ok(), "fuzz target {name} fails on {}", p.display());
                assert_eq!(
                    PANICS.load(Ordering::SeqCst),
                    0,
                    "fuzz target {name} panicked in a thread on {}",
                    p.display()
                );
                let took = start.elapsed();
                assert!(
                    took < std::time::Duration::from_secs(5),
                    "fuzz target {name} took {took:?} on {} (a hang)",
                    p.display()
                );
                ran += 1;
            }
        }
    }
    assert!(
        ran >= rkbuild::fuzzcheck::TARGETS.len(),
        "only {ran} inputs"
    );
}

//! kill -9 anywhere: `rkbuild build` on the bundled example tree (real rustc 1.85, real `core`,
//! real bindgen) is killed 50 times, half at random moments of its first 2.5 s (or of the time
//! the last run that got to the end took, if shorter) and half right
//! after a step reported it finished (a run that finishes first does not count), each run
//! taking up where the last one was killed; whenever a run gets
//! to the end, some outputs are deleted so that the next ones have work to be killed in. A
//! last run then finishes the build, and every output equals a clean build's in the same
//! folder, byte for byte: nothing half-written was taken as up to date.
//!
//! And `rkbuild config`, rewriting its files for two configurations in turn while readers read
//! them: no reader ever sees a partial `rustc_cfg`, target spec, flags argfile or `rkbuild.mk`.

mod common;

use std::collections::BTreeMap;
use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn config() -> PathBuf {
    common::minikernel().join("configs/x86_64.config")
}

fn rkbuild(obj: &Path, args: &[&str]) -> Command {
    let mut c = common::rkbuild_185();
    c.args(args)
        .arg("-S")
        .arg(common::minikernel())
        .arg("-O")
        .arg(obj)
        .arg("--config")
        .arg(config())
        .env("NO_COLOR", "1");
    c
}

/// What a build leaves that a build is compared on: every file but rkbuild's own records
/// (fingerprints, the tools' answers, the timings), by path, with its bytes.
fn outputs(obj: &Path) -> BTreeMap<String, Vec<u8>> {
    common::side_by_side::files_below(obj)
        .into_iter()
        .filter(|rel| {
            let name = rel.rsplit('/').next().unwrap();
            !(name.ends_with(".rkbuild") || name.starts_with(".rkbuild"))
        })
        .map(|rel| {
            let bytes = std::fs::read(obj.join(&rel)).unwrap();
            (rel, bytes)
        })
        .collect()
}

/// A small deterministic generator (xorshift), so that a failing sequence can be rerun.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// How one killed run ended.
enum Ended {
    Killed,
    /// After this long.
    Finished(Duration),
}

/// Starts a build and kills it (SIGKILL) after `delay` (`-j 2`: several steps in flight), or
/// right after the `steps`-th step it reports built (`-j 1`: between two steps, the next one
/// just started); a run that ends first is `Finished`.
fn killed_run(obj: &Path, delay: Option<Duration>, steps: usize) -> Ended {
    let started = Instant::now();
    let jobs = if delay.is_some() { "2" } else { "1" };
    let mut child = rkbuild(obj, &["build", "-j", jobs, "--message-format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    if let Some(d) = delay {
        // Drain stdout so the build never blocks on a full pipe.
        let drain = std::thread::spawn(move || for _ in BufReader::new(stdout).lines() {});
        while started.elapsed() < d {
            if child.try_wait().unwrap().is_some() {
                drain.join().unwrap();
                return Ended::Finished(started.elapsed());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        drain.join().unwrap();
        return Ended::Killed;
    }
    let mut seen = 0;
    for l in BufReader::new(stdout).lines() {
        let l = l.unwrap();
        if l.contains("\"reason\":\"step\"") && l.contains("\"status\":\"built\"") {
            seen += 1;
            if seen == steps {
                child.kill().unwrap();
                child.wait().unwrap();
                return Ended::Killed;
            }
        }
    }
    child.wait().unwrap();
    Ended::Finished(started.elapsed())
}

#[test]
fn killed_fifty_times_then_built_equals_a_clean_build() {
    let d = tempfile::tempdir().unwrap();
    let obj = d.path().join("o");
    let t = Instant::now();
    let st = rkbuild(&obj, &["build", "-j", "2"])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success(), "the clean build failed");
    let clean_s = t.elapsed();
    let clean = outputs(&obj);
    assert!(clean.contains_key("rust/kernel.o") && clean.contains_key("rust/core.o"));
    std::fs::remove_dir_all(&obj).unwrap();

    let seed = std::env::var("RKBUILD_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_1234_u64);
    let mut rng = Rng(seed);
    let (mut killed, mut finished, mut deleted) = (0, 0, 0);
    // A timed kill lands within the time the last finished run took (at most 2.5 s): on a fast
    // machine, rebuilding what was deleted takes less than 2.5 s, and a kill drawn later than
    // that would mostly find the run already done.
    let mut window_ms = 2500;
    // Until 50 runs were killed: a run that finishes first does not count.
    for _ in 0..400 {
        if killed == 50 {
            break;
        }
        let ended = if killed % 2 == 0 {
            // Anywhere in the window (at most the first 2.5 s): the configuration, the plan,
            // the generated files, the first compiles and their post-steps.
            let ms = rng.below(window_ms);
            killed_run(&obj, Some(Duration::from_millis(ms)), 0)
        } else {
            // At a step boundary: just after the 1st, 2nd or 3rd step of this run finished.
            killed_run(&obj, None, 1 + rng.below(3) as usize)
        };
        match ended {
            Ended::Killed => killed += 1,
            Ended::Finished(took) => {
                finished += 1;
                window_ms = (took.as_millis() as u64).clamp(50, 2500);
                // Give the next runs work: delete a third of the objects and metadata (not
                // core's: the first runs were killed in its compile often enough, and it is
                // most of a build's time).
                for rel in clean.keys() {
                    let compiled = [".o", ".rmeta", ".so", ".rlib", ".rs"]
                        .iter()
                        .any(|e| rel.ends_with(e))
                        && !rel.starts_with("rust/core.")
                        && !rel.starts_with("rust/libcore.");
                    if compiled && rng.below(3) == 0 && obj.join(rel).exists() {
                        std::fs::remove_file(obj.join(rel)).unwrap();
                        deleted += 1;
                    }
                }
            }
        }
    }
    let st = rkbuild(&obj, &["build", "-j", "2"])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success(), "the build after the kills failed");
    let after = outputs(&obj);
    let missing: Vec<&String> = clean.keys().filter(|k| !after.contains_key(*k)).collect();
    let extra: Vec<&String> = after.keys().filter(|k| !clean.contains_key(*k)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}, left over {extra:?}"
    );
    let differ: Vec<&String> = clean
        .iter()
        .filter(|(k, v)| after[*k] != **v)
        .map(|(k, _)| k)
        .collect();
    assert!(
        differ.is_empty(),
        "differ from the clean build: {differ:?} (seed {seed:#x})"
    );
    eprintln!(
        "  {killed} runs killed, {finished} finished (then {deleted} outputs deleted); {} files equal to a clean build's (seed {seed:#x}, clean build {:.1} s)",
        clean.len(),
        clean_s.as_secs_f64()
    );
    assert_eq!(killed, 50, "only {killed} runs were killed");
}

#[test]
fn config_readers_never_see_a_partial_file() {
    let d = tempfile::tempdir().unwrap();
    let obj = d.path().join("o");
    // Two configurations whose files differ (debug assertions on and off).
    let base = common::read(&config());
    let other = if base.contains("CONFIG_RUST_DEBUG_ASSERTIONS=y") {
        base.replace(
            "CONFIG_RUST_DEBUG_ASSERTIONS=y",
            "# CONFIG_RUST_DEBUG_ASSERTIONS is not set",
        )
    } else {
        format!("{base}\nCONFIG_RUST_DEBUG_ASSERTIONS=y\n")
    };
    let configs = [d.path().join("a.config"), d.path().join("b.config")];
    std::fs::write(&configs[0], &base).unwrap();
    std::fs::write(&configs[1], &other).unwrap();
    let config_run = |c: &Path| {
        let mut cmd = common::rkbuild_185();
        cmd.arg("config")
            .arg("-S")
            .arg(common::minikernel())
            .arg("-O")
            .arg(&obj)
            .arg("--config")
            .arg(c)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        assert!(cmd.status().unwrap().success(), "rkbuild config failed");
    };
    // Every version each file can have, complete.
    let mut versions: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
    for c in &configs {
        config_run(c);
        for rel in common::side_by_side::files_below(&obj) {
            if rel.rsplit('/').next().unwrap().starts_with(".rkbuild") {
                continue;
            }
            versions
                .entry(rel.clone())
                .or_default()
                .push(std::fs::read(obj.join(&rel)).unwrap());
        }
    }
    let changing: Vec<String> = versions
        .iter()
        .filter(|(_, v)| v[0] != v[1])
        .map(|(k, _)| k.clone())
        .collect();
    assert!(
        changing.iter().any(|f| f.ends_with("rustc_cfg")),
        "the two configurations give the same rustc_cfg: {changing:?}"
    );
    let stop = AtomicBool::new(false);
    let reads = std::thread::scope(|s| {
        let readers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut n = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        for f in &changing {
                            // A file is always there, and always one whole version.
                            let bytes = std::fs::read(obj.join(f))
                                .unwrap_or_else(|e| panic!("{f} could not be read: {e}"));
                            assert!(
                                versions[f].contains(&bytes),
                                "{f} was read partial or unknown ({} bytes)",
                                bytes.len()
                            );
                            n += 1;
                        }
                    }
                    n
                })
            })
            .collect();
        for i in 0..30 {
            config_run(&configs[i % 2]);
        }
        stop.store(true, Ordering::Relaxed);
        readers.into_iter().map(|r| r.join().unwrap()).sum::<u64>()
    });
    eprintln!(
        "  30 config runs, {reads} reads of {} changing files: each a whole version",
        changing.len()
    );
    assert!(reads > 100, "only {reads} reads");
}

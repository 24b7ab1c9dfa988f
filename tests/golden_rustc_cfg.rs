//! Golden test: rustc_cfg from the real kernel's `.config` equals the kernel's own rustc_cfg.

mod common;

use std::collections::BTreeSet;

use rkbuild::kconfig::{rustc_cfg, DotConfig};

fn check(vintage: &str, lines: usize) {
    let dir = format!("linux-{vintage}/x86_64-defconfig-rust");
    let cfg = DotConfig::load(&common::oracle(&format!("{dir}/config"))).unwrap();
    let ours = rustc_cfg::render(&cfg, &|_| None).unwrap();
    let theirs = common::read(&common::oracle(&format!("{dir}/rustc_cfg")));
    let a: BTreeSet<&str> = ours.lines().collect();
    let b: BTreeSet<&str> = theirs.lines().collect();
    let missing: Vec<_> = b.difference(&a).take(10).collect();
    let extra: Vec<_> = a.difference(&b).take(10).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{vintage}: missing {missing:?}, extra {extra:?}"
    );
    assert_eq!(ours.lines().count(), lines, "{vintage}: no duplicate lines");
    assert_eq!(theirs.lines().count(), lines);
}

#[test]
fn linux_6_12_x86_64_defconfig() {
    check("6.12", 3286);
}

#[test]
fn linux_7_3_x86_64_defconfig() {
    check("7.3", 3471);
}

#[test]
fn auto_conf_gives_the_same_set() {
    // auto.conf writes strings raw; reading it must give the same rustc_cfg.
    for v in ["6.12", "7.3"] {
        let dir = format!("linux-{v}/x86_64-defconfig-rust");
        let auto = DotConfig::load(&common::oracle(&format!("{dir}/auto.conf"))).unwrap();
        let ours = rustc_cfg::render(&auto, &|_| None).unwrap();
        let theirs = common::read(&common::oracle(&format!("{dir}/rustc_cfg")));
        let a: BTreeSet<&str> = ours.lines().collect();
        let b: BTreeSet<&str> = theirs.lines().collect();
        assert_eq!(a, b, "{v}");
    }
}

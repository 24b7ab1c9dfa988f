//! Booting a kernel under qemu (TCG) with a busybox initramfs that loads and unloads modules,
//! for the tests that prove a module rkbuild built runs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The machine qemu emulates.
pub struct Machine<'a> {
    pub arch: &'a str,
    pub qemu: &'a str,
    /// Debian package that has `qemu`.
    pub qemu_package: &'a str,
    /// The machine and TCG: `-accel tcg -cpu max` (KVM is tried first where the host can).
    pub machine: &'a [&'a str],
    pub console: &'a str,
    pub memory_mb: u32,
    /// A static busybox for the arch.
    pub busybox: PathBuf,
}

/// A `newc` cpio archive (what the kernel unpacks as its initramfs) of `files`:
/// (path in the archive, mode, contents); folders have no contents.
pub fn cpio(files: &[(&str, u32, Vec<u8>)]) -> Vec<u8> {
    let mut out = vec![];
    let pad = |out: &mut Vec<u8>| {
        while out.len() % 4 != 0 {
            out.push(0);
        }
    };
    let trailer = ("TRAILER!!!", 0u32, vec![]);
    for (i, (name, mode, data)) in files.iter().chain(std::iter::once(&trailer)).enumerate() {
        let fields = [
            i as u32 + 1,
            *mode,
            0,
            0,
            1,
            0,
            data.len() as u32,
            0,
            0,
            0,
            0,
            name.len() as u32 + 1,
            0,
        ];
        out.extend_from_slice(b"070701");
        for f in fields {
            out.extend_from_slice(format!("{f:08X}").as_bytes());
        }
        out.extend_from_slice(name.as_bytes());
        out.push(0);
        pad(&mut out);
        out.extend_from_slice(data);
        pad(&mut out);
    }
    out
}

/// Boots `image` with `modules` (name, .ko) in its initramfs; each is loaded, then `after_load`
/// runs (shell lines, `$m` the module's name), then it is unloaded. Returns the serial
/// console's text.
pub fn boot(m: &Machine, image: &Path, modules: &[(&str, PathBuf)], after_load: &str) -> String {
    let busybox = std::fs::read(&m.busybox).unwrap_or_else(|e| {
        panic!(
            "{} is needed (Debian busybox-static for {}; scripts/install-deps.sh): {e}",
            m.busybox.display(),
            m.arch
        )
    });
    let mut init = String::from(
        "#!/bin/busybox sh\n/bin/busybox mount -t proc proc /proc\n/bin/busybox echo RKBUILD-BOOT up\n/bin/busybox echo RKBUILD-TAINT boot $(/bin/busybox cat /proc/sys/kernel/tainted)\n",
    );
    let mut files: Vec<(&str, u32, Vec<u8>)> = vec![
        ("bin", 0o40755, vec![]),
        ("proc", 0o40755, vec![]),
        ("dev", 0o40755, vec![]),
        ("bin/busybox", 0o100755, busybox),
    ];
    let names: Vec<String> = modules.iter().map(|(n, _)| format!("{n}.ko")).collect();
    for ((name, ko), file) in modules.iter().zip(&names) {
        init.push_str(&format!(
            "m={name}\n/bin/busybox insmod /{file}\n{after_load}/bin/busybox rmmod {name}\n"
        ));
        files.push((file, 0o100644, std::fs::read(ko).unwrap()));
    }
    init.push_str("/bin/busybox echo RKBUILD-BOOT done\n/bin/busybox reboot -f\n");
    files.push(("init", 0o100755, init.into_bytes()));
    let d = tempfile::tempdir().unwrap();
    let initrd = d.path().join("initrd.cpio");
    std::fs::write(&initrd, cpio(&files)).unwrap();
    let run = |accel: &[&str], timeout: &str| {
        let started = Instant::now();
        let o = Command::new("timeout")
            .arg(timeout)
            .arg(m.qemu)
            .args(accel)
            .args(["-m", &m.memory_mb.to_string(), "-nographic", "-no-reboot"])
            .arg("-kernel")
            .arg(image)
            .arg("-initrd")
            .arg(&initrd)
            .args(["-append", &format!("console={} panic=-1", m.console)])
            .output()
            .unwrap_or_else(|e| panic!("{} is needed (Debian {}): {e}", m.qemu, m.qemu_package));
        (o, started.elapsed().as_secs_f64())
    };
    // KVM where it works (the guest is the host's arch and /dev/kvm opens), TCG otherwise: on
    // some machines KVM stops at once ("failed to set MSR"), and TCG boots these kernels in
    // seconds.
    let kvm = m.arch == std::env::consts::ARCH
        && std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/kvm")
            .is_ok();
    if kvm {
        let accel: Vec<&str> = m
            .machine
            .iter()
            .map(|a| match *a {
                "tcg" => "kvm",
                "max" => "host",
                a => a,
            })
            .collect();
        let (o, secs) = run(&accel, "120");
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        if text.contains("RKBUILD-BOOT done") {
            eprintln!(
                "  {}: boot, load and unload {} modules under qemu (KVM): {secs:.1} s",
                m.arch,
                modules.len()
            );
            return text;
        }
        let why = String::from_utf8_lossy(&o.stderr);
        eprintln!(
            "  {}: KVM did not boot it ({}), TCG instead",
            m.arch,
            why.lines().next().unwrap_or("no console output").trim()
        );
    }
    let (o, secs) = run(m.machine, "300");
    eprintln!(
        "  {}: boot, load and unload {} modules under qemu (TCG): {secs:.1} s",
        m.arch,
        modules.len()
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

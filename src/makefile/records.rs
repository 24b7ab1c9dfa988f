//! Kbuild's record files, read as text: a `.cmd` file's `savedcmd_<target> := <command>`
//! line, the link command `vmlinux.o` was made with, and the tool variables
//! `include/config/auto.conf.cmd` compares (`ifneq "$(RUSTC)" "…"`). Pure, so they are
//! fuzzed (`fuzz/`) like the other readers.

/// The command of a `.cmd` file (its first `savedcmd_… := ` line).
pub fn savedcmd(text: &str) -> Option<&str> {
    text.lines().find_map(|l| {
        l.split_once(" := ")
            .filter(|(k, _)| k.starts_with("savedcmd_"))
            .map(|(_, v)| v)
    })
}

/// The linker and its flags from `.vmlinux.o.cmd` (`$(LD) $(KBUILD_LDFLAGS) -r -o vmlinux.o …`).
pub fn recorded_ld(text: &str) -> Option<(String, Vec<String>)> {
    let cmd = text.lines().next()?.split_once(" := ")?.1;
    let words = shlex::split(cmd)?;
    let r = words.iter().position(|w| w == "-r")?;
    let (ld, flags) = words[..r].split_first()?;
    Some((ld.clone(), flags.to_vec()))
}

/// `ARCH`, `RUSTC` and `BINDGEN` as `auto.conf.cmd` recorded them.
pub fn recorded_vars(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("ifneq \"$(")?;
            let (name, rest) = rest.split_once(")\" \"")?;
            let value = rest.strip_suffix('"')?;
            ["ARCH", "RUSTC", "BINDGEN"]
                .contains(&name)
                .then(|| (name.to_string(), value.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_kbuild_writes() {
        let cmd = "savedcmd_vmlinux.o := ld.lld-22 -m elf_x86_64 -z noexecstack -r -o vmlinux.o --whole-archive vmlinux.a\n";
        assert_eq!(
            savedcmd(&format!("\n{cmd}")),
            Some(
                "ld.lld-22 -m elf_x86_64 -z noexecstack -r -o vmlinux.o --whole-archive vmlinux.a"
            )
        );
        let (ld, flags) = recorded_ld(cmd).unwrap();
        assert_eq!(ld, "ld.lld-22");
        assert_eq!(flags, ["-m", "elf_x86_64", "-z", "noexecstack"]);
        let vars = recorded_vars("ifneq \"$(ARCH)\" \"x86\"\nifneq \"$(CC)\" \"gcc\"\nifneq \"$(RUSTC)\" \"/usr/bin/rustc\"\n");
        assert_eq!(
            vars,
            [
                ("ARCH".to_string(), "x86".to_string()),
                ("RUSTC".to_string(), "/usr/bin/rustc".to_string())
            ]
        );
    }
}

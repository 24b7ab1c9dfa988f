//! Action keys, as pure functions. A step's key is made in two levels, as ccache's direct mode
//! does, because what a compile reads is known only after it ran (rustc's dep-info):
//!
//! * the **command key** covers what is known before: the command line and post-steps (with
//!   the object tree's path replaced by `$O`), the tools' identity (`rustc -vV`, bindgen and
//!   libclang, objcopy), the bytes of the inputs the plan declares (the crate root, the target
//!   spec) and of the argument files the command names (`@file`), and a salt for what else the
//!   outputs depend on (the object tree's path itself when the configuration writes debug info,
//!   which names it);
//! * the **action key** adds every input a past run read (from its depfile: sources, the extern
//!   crates' metadata, headers), each with its bytes' digest, and the value of every `CONFIG_`
//!   symbol those inputs mention (Kbuild's fixdep idea: the configuration counts through the
//!   symbols a step uses, not the whole `rustc_cfg`, so changing one driver's symbol does not
//!   rebuild `core`).
//!
//! The cache keeps, per command key, the input lists past runs read; a lookup hashes the
//! files of each list as they are now and asks for that action key.

use sha2::{Digest, Sha256};

/// The SHA-256 of bytes, in hex.
pub fn digest(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// Replaces the object tree's absolute path with `$O`, so that trees at different paths share
/// keys (and lists).
pub fn normalize(text: &str, objtree: &str) -> String {
    if objtree.is_empty() || objtree == "/" {
        return text.to_string();
    }
    text.replace(objtree, "$O")
}

/// [`normalize`] on bytes (a crate's metadata, a proc macro): the object tree's path as `$O`.
pub fn normalize_bytes<'a>(bytes: &'a [u8], objtree: &str) -> std::borrow::Cow<'a, [u8]> {
    if objtree.is_empty() || objtree == "/" {
        return bytes.into();
    }
    let finder = memchr::memmem::Finder::new(objtree.as_bytes());
    let mut hits = finder.find_iter(bytes).peekable();
    if hits.peek().is_none() {
        return bytes.into();
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut last = 0;
    for at in hits {
        out.extend_from_slice(&bytes[last..at]);
        out.extend_from_slice(b"$O");
        last = at + objtree.len();
    }
    out.extend_from_slice(&bytes[last..]);
    out.into()
}

/// The inverse of [`normalize`] for one tree.
pub fn denormalize(text: &str, objtree: &str) -> String {
    text.replace("$O", objtree)
}

/// The command key: `command` and `tool` already normalized; `declared` is (path, digest) of
/// each declared input and argument file; `salt` whatever else the outputs depend on.
pub fn command_key(command: &str, tool: &str, declared: &[(String, String)], salt: &str) -> String {
    let mut text = format!("rkbuild-command v1\n{command}\n--tool\n{tool}\n--salt\n{salt}\n");
    for (p, d) in declared {
        text.push_str(&format!("--in {p} {d}\n"));
    }
    digest(text.as_bytes())
}

/// The action key: the command key, every input read (path as normalized, digest) and the
/// `CONFIG_` symbols they mention with their values.
pub fn action_key(
    command_key: &str,
    inputs: &[(String, String)],
    config: &[(String, String)],
) -> String {
    let mut text = format!("rkbuild-action v1\n{command_key}\n");
    for (p, d) in inputs {
        text.push_str(&format!("--in {p} {d}\n"));
    }
    for (s, v) in config {
        text.push_str(&format!("--config {s}={v}\n"));
    }
    digest(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(d: &str) -> Vec<(String, String)> {
        vec![("$O/rust/libcore.rmeta".into(), d.into())]
    }

    #[test]
    fn bytes_are_normalized_like_text() {
        let b = b"\x00lib at /tmp/o/rust/x.rs and /tmp/o/y\xff";
        assert_eq!(
            &normalize_bytes(b, "/tmp/o")[..],
            b"\x00lib at $O/rust/x.rs and $O/y\xff"
        );
        assert!(matches!(
            normalize_bytes(b"nothing", "/tmp/o"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn every_part_of_a_key_changes_it() {
        let base = command_key("rustc a.rs", "rustc 1.85", &inputs("1"), "");
        assert_eq!(
            base,
            command_key("rustc a.rs", "rustc 1.85", &inputs("1"), "")
        );
        for other in [
            command_key("rustc -O a.rs", "rustc 1.85", &inputs("1"), ""),
            command_key("rustc a.rs", "rustc 1.95", &inputs("1"), ""),
            command_key("rustc a.rs", "rustc 1.85", &inputs("2"), ""),
            command_key("rustc a.rs", "rustc 1.85", &inputs("1"), "/o"),
        ] {
            assert_ne!(base, other);
        }
        let a = action_key(&base, &inputs("1"), &[("X".into(), "y".into())]);
        assert_ne!(
            a,
            action_key(&base, &inputs("2"), &[("X".into(), "y".into())])
        );
        assert_ne!(
            a,
            action_key(&base, &inputs("1"), &[("X".into(), "n".into())])
        );
        assert_ne!(a, action_key(&base, &inputs("1"), &[]));
    }

    #[test]
    fn the_object_tree_path_is_normalized_both_ways() {
        let t = "OBJTREE=/b/o1 rustc -L /b/o1/rust/ x.rs";
        let n = normalize(t, "/b/o1");
        assert_eq!(n, "OBJTREE=$O rustc -L $O/rust/ x.rs");
        assert_eq!(normalize(t, "/b/o2"), t);
        assert_eq!(
            denormalize(&n, "/c/o2"),
            "OBJTREE=/c/o2 rustc -L /c/o2/rust/ x.rs"
        );
    }
}

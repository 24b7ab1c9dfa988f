//! `rust-project.json`, one to one: the serde types here mirror rust-analyzer's
//! `project_json.rs` (`ProjectJsonData`, `CrateData`, `Dep`, `CrateSource`), field for field, so
//! that what we write is exactly what rust-analyzer reads and what the kernel's
//! `scripts/generate_rust_analyzer.py` writes can be read back for comparison.
//!
//! The format is "spiritually a serialization of the crate graph": a flat list of crates, each
//! naming its dependencies by their index in the list (always an earlier one). Nothing here
//! knows about the kernel; [`super::graph`] converts rkbuild's crate graph into these types.
//!
//! Rendering follows the kernel's `json.dump(sort_keys=True, indent=4)`: keys sorted at every
//! level, 4-space indent, non-ASCII escaped as `\uXXXX`, no trailing newline — so a file we
//! write for the same crates is byte-identical to the kernel's.
//!
//! Out of scope: the fields the kernel never writes (`cfg_groups`, `runnables`, `build`,
//! `target`, ...) are accepted when reading but only written when set.

use std::collections::BTreeMap;
use std::io;

use serde::{Deserialize, Serialize};

/// The whole file (rust-analyzer's `ProjectJsonData`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectJson {
    /// The rustc sysroot (`rustc --print sysroot`); rust-analyzer finds the sysroot crates and
    /// the proc-macro server there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sysroot: Option<String>,
    /// The library sources; the 2021 layout names only this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sysroot_src: Option<String>,
    pub crates: Vec<CrateData>,
}

/// One crate (rust-analyzer's `CrateData`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrateData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    pub root_module: String,
    pub edition: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub deps: Vec<Dep>,
    /// `NAME` or `NAME="value"`, as rustc's `--cfg` takes them.
    #[serde(default)]
    pub cfg: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Attributes the build adds to the crate root (rustc's `-Zcrate-attr`), e.g. `no_std`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crate_attrs: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proc_macro_dylib_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_workspace_member: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<CrateSource>,
    /// rust-analyzer defaults a missing key to `false`; 6.12 writes it on every crate, 7.3 only
    /// on proc macros, so it is kept optional to write either.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_proc_macro: Option<bool>,
}

/// A dependency: the index of an earlier crate and the name it is imported under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dep {
    #[serde(rename = "crate")]
    pub krate: usize,
    pub name: String,
}

/// Folders that belong to a crate besides its root module's (rust-analyzer's `CrateSource`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrateSource {
    pub include_dirs: Vec<String>,
    pub exclude_dirs: Vec<String>,
}

impl ProjectJson {
    /// Reads a file's text.
    pub fn parse(text: &str) -> serde_json::Result<ProjectJson> {
        serde_json::from_str(text)
    }

    /// Renders as the kernel's script does (see the module docs).
    pub fn render(&self) -> String {
        let value = sort_keys(serde_json::to_value(self).expect("plain data serializes"));
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, AsciiPretty::new());
        value.serialize(&mut ser).expect("writing to memory");
        String::from_utf8(out).expect("ASCII output")
    }
}

/// Rebuilds every object with its keys in order (serde_json keeps insertion order here, since
/// the workspace enables `preserve_order`).
fn sort_keys(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            let mut entries: Vec<_> = m.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, sort_keys(v)))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.into_iter().map(sort_keys).collect()),
        v => v,
    }
}

/// serde_json's pretty printer with a 4-space indent and Python's `ensure_ascii` escaping.
struct AsciiPretty<'a>(serde_json::ser::PrettyFormatter<'a>);

impl AsciiPretty<'_> {
    fn new() -> Self {
        AsciiPretty(serde_json::ser::PrettyFormatter::with_indent(b"    "))
    }
}

impl serde_json::ser::Formatter for AsciiPretty<'_> {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        for c in fragment.chars() {
            // Python escapes DEL too (everything outside ' '..='~').
            if c.is_ascii() && c != '\x7f' {
                w.write_all(&[c as u8])?;
            } else {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    write!(w, "\\u{u:04x}")?;
                }
            }
        }
        Ok(())
    }
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_like_pythons_json_dump() {
        let mut env = BTreeMap::new();
        env.insert(
            "RUST_MODFILE".into(),
            "This is only for rust-analyzer".into(),
        );
        let p = ProjectJson {
            sysroot: Some("/usr".into()),
            sysroot_src: None,
            crates: vec![CrateData {
                display_name: Some("core".into()),
                root_module: "/l/core/src/lib.rs".into(),
                edition: "2021".into(),
                deps: vec![],
                cfg: vec!["no_fp_fmt_parse".into(), "CONFIG_S=\"é\"".into()],
                env,
                is_workspace_member: Some(false),
                is_proc_macro: Some(false),
                ..CrateData::default()
            }],
        };
        // What `json.dump(sort_keys=True, indent=4)` prints for the same data.
        let expected = r#"{
    "crates": [
        {
            "cfg": [
                "no_fp_fmt_parse",
                "CONFIG_S=\"\u00e9\""
            ],
            "deps": [],
            "display_name": "core",
            "edition": "2021",
            "env": {
                "RUST_MODFILE": "This is only for rust-analyzer"
            },
            "is_proc_macro": false,
            "is_workspace_member": false,
            "root_module": "/l/core/src/lib.rs"
        }
    ],
    "sysroot": "/usr"
}"#;
        assert_eq!(p.render(), expected);
        assert_eq!(ProjectJson::parse(expected).unwrap(), p);
    }

    #[test]
    fn astral_characters_become_surrogate_pairs() {
        let p = ProjectJson {
            sysroot: Some("/a/😀".into()),
            ..ProjectJson::default()
        };
        assert!(
            p.render().contains(r#""/a/\ud83d\ude00""#),
            "{}",
            p.render()
        );
    }
}

//! Every difference in rustc's target-spec schema that rkbuild knows, with the rustc (or LLVM)
//! version it depends on, in ONE table ([`CHANGES`]). Emitting a spec for a rustc
//! ([`lower`]) and upgrading an old spec ([`upgrade_static`]) both walk it, so supporting a
//! new rustc is one more row.
//!
//! Facts measured with Debian rustc 1.85.0 (LLVM 19), rustup 1.95.0 (LLVM 22) and nightly
//! 1.97.0 (2026-05-19); pull requests named where the change was made.

use serde_json::{Map, Value};

use super::SpecError;
use crate::toolchain::RustcInfo;

/// A spec as keys and JSON values (written sorted, so the order here never matters). It is
/// defined here, with the schema, so that the table and the spec builder (`spec`) read one way.
pub type Spec = Map<String, Value>;

/// The oldest rustc whose schema rkbuild knows (Linux 6.12's minimum).
pub const OLDEST: (u64, u64, u64) = (1, 78, 0);

/// What a version gate looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    /// rustc release (major, minor, patch); nightlies count as their release number.
    Rustc(u64, u64, u64),
    /// LLVM major version (`LLVM version:` in `rustc -vV`).
    Llvm(u64),
}

impl Gate {
    /// Whether `rustc` is at or past this gate. Without a known LLVM version, LLVM gates are
    /// taken as passed (every rustc since 1.78 ships LLVM >= 17, newer in practice).
    pub fn passed(self, rustc: &RustcInfo) -> bool {
        match self {
            Gate::Rustc(a, b, c) => rustc.at_least(a, b, c),
            Gate::Llvm(m) => rustc.llvm.as_ref().is_none_or(|v| v.major >= m),
        }
    }
}

impl std::fmt::Display for Gate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Gate::Rustc(a, b, c) => write!(f, "rustc {a}.{b}.{c}"),
            Gate::Llvm(m) => write!(f, "LLVM {m}"),
        }
    }
}

/// One schema change.
#[derive(Clone, Copy, Debug)]
pub enum Change {
    /// `from` was replaced by `to`; `map` turns the old value into the new one.
    Renamed {
        from: &'static str,
        to: &'static str,
        map: fn(&Value) -> Option<Value>,
    },
    /// The key is rejected (or unused, then unknown) from the gate on.
    Removed(&'static str),
    /// The key exists from the gate on (older rustc warns "unused field").
    Added(&'static str),
    /// The key takes an integer from the gate on and a string before.
    Integer(&'static str),
    /// `rustc-abi` for soft-float specs of `arch` is `value` from the gate on (the last passed
    /// row wins; no passed row: the key is left out).
    RustcAbi {
        arch: &'static str,
        value: &'static str,
    },
    /// The default data layout of `arch` gained `part` with this LLVM.
    DataLayout {
        arch: &'static str,
        part: &'static str,
        /// Where LLVM puts it: right after this part (`""`: at the end).
        after: &'static str,
    },
    /// LLVM dropped these features (they then print "not a recognized feature").
    FeaturesGone {
        arch: &'static str,
        features: &'static [&'static str],
    },
    /// The key may not hold an empty string (then it is dropped: rustc's default applies).
    NotEmpty(&'static str),
    /// 32-bit ARM specs must say their float ABI (`llvm-floatabi`) and a matching `abi`.
    ArmFloatAbi,
    /// RISC-V specs must name their ABI (`llvm-abiname`, from the float features).
    RiscvAbiName,
    /// Little-endian powerpc64 specs must name the ELFv2 ABI (`llvm-abiname`, `abi`).
    Ppc64Elfv2,
    /// Unknown keys and mistyped values are hard errors (serde parser), not warnings.
    StrictParser,
    /// `--print target-spec-json-schema` exists.
    SchemaPrint,
    /// Custom targets need `-Zunstable-options` (and RUSTC_BOOTSTRAP=1 on stable).
    UnstableOptions,
}

/// A row: the change, from when, and why (said to users by `check` and `upgrade`).
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub since: Gate,
    pub change: Change,
    pub why: &'static str,
}

fn frame_pointer(v: &Value) -> Option<Value> {
    // eliminate-frame-pointer: false meant "always keep frame pointers".
    Some(Value::from(match v.as_bool()? {
        true => "may-omit",
        false => "always",
    }))
}

fn same(v: &Value) -> Option<Value> {
    Some(v.clone())
}

const fn r(a: u64, b: u64, c: u64) -> Gate {
    Gate::Rustc(a, b, c)
}

/// THE table. Keep it sorted by version.
pub const CHANGES: &[Row] = &[
    Row { since: r(1, 78, 0), change: Change::NotEmpty("vendor"), why: "rustc refuses `\"vendor\": \"\"` (measured on 1.85 and 1.95); the default is \"unknown\"" },
    Row { since: r(1, 78, 0), change: Change::RiscvAbiName, why: "rustc checks the RISC-V ABI name (measured: 1.85 and 1.95 refuse an empty one); ilp32/lp64 is the soft-float ABI, f/d suffix when +f/+d" },
    Row { since: r(1, 78, 0), change: Change::Ppc64Elfv2, why: "little-endian powerpc64 only supports ELFv2 and rustc >= 1.95 insists on saying so (older rustc accept the keys)" },
    Row { since: r(1, 55, 0), change: Change::Renamed { from: "eliminate-frame-pointer", to: "frame-pointer", map: frame_pointer }, why: "rust#86652 replaced the boolean with always/non-leaf/may-omit" },
    Row { since: r(1, 55, 0), change: Change::Removed("is-builtin"), why: "rust#86062: custom targets may not claim to be built in (the field is gone since 1.84)" },
    Row { since: r(1, 72, 0), change: Change::Removed("needs-plt"), why: "rust#109982 renamed it to plt-by-default; the kernel links statically, so it has no effect" },
    Row { since: r(1, 76, 0), change: Change::Renamed { from: "has-elf-tls", to: "has-thread-local", map: same }, why: "rust#117873 renamed has-elf-tls" },
    Row { since: r(1, 85, 0), change: Change::ArmFloatAbi, why: "ARM targets must set llvm-floatabi (soft for *eabi, hard for *eabihf) with a matching abi" },
    Row { since: r(1, 85, 0), change: Change::Added("llvm-floatabi"), why: "ARM's float ABI became a spec key (older rustc derives it from llvm-target)" },
    Row { since: r(1, 86, 0), change: Change::Added("rustc-abi"), why: "rust#136146: soft-float specs must say rustc-abi" },
    Row { since: r(1, 86, 0), change: Change::RustcAbi { arch: "x86", value: "x86-softfloat" }, why: "rust#136146: x86 +soft-float needs rustc-abi x86-softfloat (kernel rule)" },
    Row { since: r(1, 86, 0), change: Change::RustcAbi { arch: "x86_64", value: "x86-softfloat" }, why: "rust#136146: x86 +soft-float needs rustc-abi x86-softfloat (kernel rule)" },
    Row { since: r(1, 88, 0), change: Change::Renamed { from: "is-like-osx", to: "is-like-darwin", map: same }, why: "rust#138949 renamed is-like-osx" },
    Row { since: r(1, 90, 0), change: Change::StrictParser, why: "rust#144218: serde parser; unknown keys and wrong types are errors" },
    Row { since: r(1, 90, 0), change: Change::Integer("target-c-int-width"), why: "rust#142352/#144218: target-c-int-width is a number" },
    Row { since: r(1, 91, 0), change: Change::Integer("target-pointer-width"), why: "rust#144443: target-pointer-width is a number (kernel gates on 1.91)" },
    Row { since: r(1, 91, 0), change: Change::SchemaPrint, why: "rust#144498: rustc prints its own target-spec JSON schema" },
    Row { since: r(1, 95, 0), change: Change::UnstableOptions, why: "rust#150151/#151534: custom targets are unstable and need -Zunstable-options" },
    Row { since: r(1, 97, 0), change: Change::RustcAbi { arch: "aarch64", value: "softfloat" }, why: "aarch64 target_abi softfloat needs rustc-abi softfloat (1.95 rejects it, 1.97 requires it)" },
    Row { since: r(1, 98, 0), change: Change::RustcAbi { arch: "x86", value: "softfloat" }, why: "rust#157151 removed the x86-softfloat alias (kernel rule)" },
    Row { since: r(1, 98, 0), change: Change::RustcAbi { arch: "x86_64", value: "softfloat" }, why: "rust#157151 removed the x86-softfloat alias (kernel rule)" },
    Row { since: Gate::Llvm(18), change: Change::DataLayout { arch: "x86_64", part: "-i128:128", after: "-i64:64" }, why: "LLVM 18 aligns i128 to 16 bytes on x86 (rust#116672)" },
    Row { since: Gate::Llvm(19), change: Change::DataLayout { arch: "aarch64", part: "-Fn32", after: "" }, why: "LLVM 19 states aarch64's function pointer alignment (measured: rustc 1.85 with LLVM 19 refuses a layout without it)" },
    Row { since: Gate::Llvm(20), change: Change::DataLayout { arch: "aarch64", part: "-p270:32:32-p271:32:32-p272:64:64", after: "-m:e" }, why: "LLVM 20 gave aarch64 x86's 32/64-bit pointer address spaces (for Arm64EC); measured: LLVM 19 (rustc 1.85) has none, LLVM 22 (rustc 1.95) refuses a layout without them" },
    Row { since: Gate::Llvm(19), change: Change::FeaturesGone { arch: "x86_64", features: &["3dnow", "3dnowa"] }, why: "LLVM 19 removed 3DNow!" },
];

/// Whether a change is in effect for `rustc`.
pub fn has(rustc: &RustcInfo, want: fn(&Change) -> bool) -> bool {
    CHANGES
        .iter()
        .any(|row| want(&row.change) && row.since.passed(rustc))
}

/// Whether custom targets need `-Zunstable-options` with this rustc.
pub fn needs_unstable_options(rustc: &RustcInfo) -> bool {
    has(rustc, |c| matches!(c, Change::UnstableOptions))
}

/// Whether this rustc can print its schema.
pub fn prints_schema(rustc: &RustcInfo) -> bool {
    has(rustc, |c| matches!(c, Change::SchemaPrint))
}

/// Whether unknown keys are errors (else warnings).
pub fn strict(rustc: &RustcInfo) -> bool {
    has(rustc, |c| matches!(c, Change::StrictParser))
}

/// Refuses a rustc older than any schema in the table.
pub fn check_known(rustc: &RustcInfo) -> Result<(), SpecError> {
    let (a, b, c) = OLDEST;
    if rustc.at_least(a, b, c) {
        return Ok(());
    }
    Err(SpecError::Unsupported(format!(
        "rustc {} is older than any target-spec schema rkbuild knows (oldest: {a}.{b}.{c})\n  fix: install rustc {a}.{b}.{c} or newer (`apt-get install rustc-web`, or `rustup toolchain install stable`), or pass --rustc PATH",
        rustc.version
    )))
}

/// What the emitter or the upgrader did to one key, and why.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Note {
    pub key: String,
    pub action: String,
    pub why: String,
}

fn note(key: &str, action: impl Into<String>, why: impl Into<String>) -> Note {
    Note {
        key: key.to_string(),
        action: action.into(),
        why: why.into(),
    }
}

/// The `rustc-abi` value a soft-float spec of `arch` needs with `rustc` (None: leave it out).
pub fn rustc_abi(arch: &str, rustc: &RustcInfo) -> Option<(&'static str, &'static str)> {
    CHANGES
        .iter()
        .rev()
        .filter(|row| row.since.passed(rustc))
        .filter_map(|row| match row.change {
            Change::RustcAbi { arch: a, value } if a == arch => Some((value, row.why)),
            _ => None,
        })
        .next()
}

fn arch_of(spec: &Spec) -> String {
    spec.get("arch")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

/// Lowers a spec written in the newest schema (the templates) to what `rustc` accepts.
pub fn lower(mut spec: Spec, rustc: &RustcInfo) -> Result<(Spec, Vec<Note>), SpecError> {
    check_known(rustc)?;
    let mut notes = vec![];
    let arch = arch_of(&spec);
    for row in CHANGES {
        let on = row.since.passed(rustc);
        match row.change {
            Change::Added(key) if !on && spec.remove(key).is_some() => notes.push(note(
                key,
                format!("left out (exists from {})", row.since),
                row.why,
            )),
            Change::Integer(key) if !on => {
                if let Some(n) = spec.get(key).and_then(Value::as_u64) {
                    spec.insert(key.into(), Value::from(n.to_string()));
                    notes.push(note(
                        key,
                        format!("written as a string (a number from {})", row.since),
                        row.why,
                    ));
                }
            }
            Change::DataLayout { arch: a, part, .. } if !on && a == arch => {
                if let Some(dl) = spec.get("data-layout").and_then(Value::as_str) {
                    let new = dl.replace(part, "");
                    spec.insert("data-layout".into(), Value::from(new));
                    notes.push(note(
                        "data-layout",
                        format!("without `{part}` (LLVM before {})", row.since),
                        row.why,
                    ));
                }
            }
            _ => {}
        }
    }
    if spec.contains_key("rustc-abi") {
        match rustc_abi(&arch, rustc) {
            Some((v, why)) => {
                spec.insert("rustc-abi".into(), Value::from(v));
                notes.push(note("rustc-abi", format!("`{v}`"), why));
            }
            None => {
                spec.remove("rustc-abi");
                notes.push(note(
                    "rustc-abi",
                    "left out",
                    "this rustc needs no rustc-abi for this arch",
                ));
            }
        }
    }
    Ok((spec, notes))
}

/// The upgrades the table alone can make to any spec (renames, removals, retyping, rustc-abi,
/// data layout, features). Rules that need rustc's own knowledge (its schema, its messages) are
/// in [`super::check`].
pub fn upgrade_static(spec: &mut Spec, rustc: &RustcInfo) -> Vec<Note> {
    let mut notes = vec![];
    let arch = arch_of(spec);
    for row in CHANGES {
        let on = row.since.passed(rustc);
        match row.change {
            Change::Renamed { from, to, map } if on => {
                if let Some(old) = spec.remove(from) {
                    match (spec.contains_key(to), map(&old)) {
                        (false, Some(new)) => {
                            notes.push(note(from, format!("renamed to `{to}` = {new}"), row.why));
                            spec.insert(to.into(), new);
                        }
                        _ => notes.push(note(from, "removed", row.why)),
                    }
                }
            }
            Change::Removed(key) if on && spec.remove(key).is_some() => {
                notes.push(note(key, "removed", row.why))
            }
            Change::Added(key) if !on && spec.remove(key).is_some() => notes.push(note(
                key,
                format!("removed (exists from {})", row.since),
                row.why,
            )),
            Change::Integer(key) => {
                let v = spec.get(key).cloned();
                let new = match (&v, on) {
                    (Some(Value::String(s)), true) => s.parse::<u64>().ok().map(Value::from),
                    (Some(Value::Number(n)), false) => Some(Value::from(n.to_string())),
                    _ => None,
                };
                if let Some(new) = new {
                    notes.push(note(key, format!("{} → {new}", v.unwrap()), row.why));
                    spec.insert(key.into(), new);
                }
            }
            Change::DataLayout {
                arch: a,
                part,
                after,
            } if a == arch => {
                if let Some(dl) = spec.get("data-layout").and_then(Value::as_str) {
                    let new = data_layout_with(dl, part, after, on);
                    if new != dl {
                        notes.push(note(
                            "data-layout",
                            format!("{} `{part}`", if on { "added" } else { "removed" }),
                            row.why,
                        ));
                        spec.insert("data-layout".into(), Value::from(new));
                    }
                }
            }
            Change::NotEmpty(key) if on && spec.get(key).and_then(Value::as_str) == Some("") => {
                spec.remove(key);
                notes.push(note(key, "removed (was empty)", row.why));
            }
            Change::ArmFloatAbi if on && arch == "arm" => {
                let target = spec
                    .get("llvm-target")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let hard = target.ends_with("hf");
                if !spec.contains_key("llvm-floatabi") {
                    let v = if hard { "hard" } else { "soft" };
                    notes.push(note(
                        "llvm-floatabi",
                        format!("set to `{v}` (from llvm-target `{target}`)"),
                        row.why,
                    ));
                    spec.insert("llvm-floatabi".into(), Value::from(v));
                }
                if !spec.contains_key("abi") && target.contains("eabi") {
                    let v = if hard { "eabihf" } else { "eabi" };
                    notes.push(note("abi", format!("set to `{v}`"), row.why));
                    spec.insert("abi".into(), Value::from(v));
                }
            }
            Change::RiscvAbiName
                if on && arch.starts_with("riscv") && !spec.contains_key("llvm-abiname") =>
            {
                let f = spec.get("features").and_then(Value::as_str).unwrap_or("");
                let base = if arch == "riscv64" { "lp64" } else { "ilp32" };
                let suffix = if f.split(',').any(|x| x == "+d") {
                    "d"
                } else if f.split(',').any(|x| x == "+f") {
                    "f"
                } else {
                    ""
                };
                let v = format!("{base}{suffix}");
                notes.push(note("llvm-abiname", format!("set to `{v}`"), row.why));
                spec.insert("llvm-abiname".into(), Value::from(v));
            }
            Change::Ppc64Elfv2 if on && arch == "powerpc64" => {
                let le = spec
                    .get("llvm-target")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t.starts_with("powerpc64le"))
                    || spec
                        .get("data-layout")
                        .and_then(Value::as_str)
                        .is_some_and(|d| d.starts_with('e'));
                for k in ["llvm-abiname", "abi"] {
                    if le && spec.get(k).and_then(Value::as_str) != Some("elfv2") {
                        notes.push(note(k, "set to `elfv2`", row.why));
                        spec.insert(k.into(), Value::from("elfv2"));
                    }
                }
            }
            Change::FeaturesGone { arch: a, features } if on && a == arch => {
                if let Some(f) = spec.get("features").and_then(Value::as_str) {
                    let kept: Vec<&str> = f
                        .split(',')
                        .filter(|x| !features.contains(&x.trim_start_matches(['+', '-'])))
                        .collect();
                    let new = kept.join(",");
                    if new != f {
                        notes.push(note(
                            "features",
                            format!("dropped {}", features.join(", ")),
                            row.why,
                        ));
                        spec.insert("features".into(), Value::from(new));
                    }
                }
            }
            _ => {}
        }
    }
    // Soft-float x86 needs rustc-abi from 1.86 on (and must not have it before).
    let soft = spec
        .get("features")
        .and_then(Value::as_str)
        .is_some_and(|f| f.split(',').any(|x| x == "+soft-float"));
    if soft && (arch == "x86_64" || arch == "x86") {
        let want = rustc_abi(&arch, rustc);
        let have = spec
            .get("rustc-abi")
            .and_then(Value::as_str)
            .map(String::from);
        match (want, have) {
            (Some((v, why)), h) if h.as_deref() != Some(v) => {
                notes.push(note("rustc-abi", format!("set to `{v}`"), why));
                spec.insert("rustc-abi".into(), Value::from(v));
            }
            (None, Some(_)) => {
                spec.remove("rustc-abi");
                notes.push(note(
                    "rustc-abi",
                    "removed",
                    "this rustc predates rustc-abi (rust#136146, 1.86)",
                ));
            }
            _ => {}
        }
    }
    notes
}

/// Adds `part` to a data layout after the `-i64:64` component LLVM puts it behind, or removes it.
fn data_layout_with(dl: &str, part: &str, after: &str, add: bool) -> String {
    if !add {
        return dl.replace(part, "");
    }
    if dl.contains(part) {
        return dl.to_string();
    }
    if after.is_empty() {
        return format!("{dl}{part}");
    }
    match dl.find(after) {
        Some(i) => {
            let at = i + after.len();
            format!("{}{part}{}", &dl[..at], &dl[at..])
        }
        None => dl.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(v: &str, llvm: Option<&str>) -> RustcInfo {
        let mut i = RustcInfo::synthetic(v);
        i.llvm = llvm.map(|l| semver::Version::parse(l).unwrap());
        i
    }

    fn x86() -> Spec {
        serde_json::from_str(
            r#"{"arch":"x86_64","rustc-abi":"softfloat","target-pointer-width":64,
            "data-layout":"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
            "llvm-floatabi":"soft","features":"+soft-float"}"#,
        )
        .unwrap()
    }

    #[test]
    fn lowering_follows_the_table() {
        let (s, _) = lower(x86(), &info("1.85.0", Some("19.1.7"))).unwrap();
        assert_eq!(s["target-pointer-width"], "64");
        assert!(!s.contains_key("rustc-abi"));
        assert!(s.contains_key("llvm-floatabi"));
        let (s, _) = lower(x86(), &info("1.95.0", Some("22.1.2"))).unwrap();
        assert_eq!(s["target-pointer-width"], 64);
        assert_eq!(s["rustc-abi"], "x86-softfloat");
        let (s, _) = lower(x86(), &info("1.98.0", None)).unwrap();
        assert_eq!(s["rustc-abi"], "softfloat");
        let (s, _) = lower(x86(), &info("1.80.0", Some("17.0.6"))).unwrap();
        assert!(!s["data-layout"].as_str().unwrap().contains("i128"));
        assert!(!s.contains_key("llvm-floatabi"));
        let e = lower(x86(), &info("1.60.0", None)).unwrap_err().to_string();
        assert!(e.contains("older than any target-spec schema") && e.contains("fix:"));
    }

    #[test]
    fn gates_for_flags() {
        assert!(!needs_unstable_options(&info("1.94.1", None)));
        assert!(needs_unstable_options(&info("1.95.0", None)));
        assert!(needs_unstable_options(&info("1.97.0-nightly", None)));
        assert!(!prints_schema(&info("1.85.0", None)));
        assert!(strict(&info("1.90.0", None)));
    }

    #[test]
    fn upgrade_renames_retypes_and_fixes_layout() {
        let mut s: Spec = serde_json::from_str(
            r#"{"arch":"x86_64","eliminate-frame-pointer":false,"is-builtin":true,"needs-plt":true,
            "target-pointer-width":"64","target-c-int-width":"32",
            "data-layout":"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128",
            "features":"-mmx,-sse,-3dnow,-3dnowa,+soft-float"}"#,
        )
        .unwrap();
        let notes = upgrade_static(&mut s, &info("1.95.0", Some("22.1.2")));
        assert_eq!(s["frame-pointer"], "always");
        assert!(!s.contains_key("is-builtin") && !s.contains_key("needs-plt"));
        assert_eq!(s["target-pointer-width"], 64);
        assert_eq!(s["target-c-int-width"], 32);
        assert_eq!(
            s["data-layout"],
            "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
        );
        assert_eq!(s["features"], "-mmx,-sse,+soft-float");
        assert_eq!(s["rustc-abi"], "x86-softfloat");
        assert!(notes.iter().all(|n| !n.why.is_empty()));
        let mut old = s.clone();
        upgrade_static(&mut old, &info("1.85.0", Some("19.1.7")));
        assert_eq!(old["target-pointer-width"], "64");
        assert!(!old.contains_key("rustc-abi"));
    }
}

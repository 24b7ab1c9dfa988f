//! Asking the real rustc about a spec: `check` (does it load, cleanly?) and `upgrade` (rewrite an
//! old spec until it does). rustc is the authority: where it can describe its own schema
//! (`--print target-spec-json-schema`) its key list and types are used; older rustc is asked with
//! a trial `--print cfg` and its "unused fields" warning read.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use super::schema::{self, Note, Spec};
use super::spec;
use crate::process::Process;
use crate::toolchain::RustcInfo;

/// What rustc said about a spec.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Probe {
    pub accepted: bool,
    /// rustc's stderr (warnings included); empty when the spec is clean.
    pub stderr: String,
    /// The command, for messages.
    pub command: String,
}

impl Probe {
    pub fn clean(&self) -> bool {
        self.accepted && self.stderr.trim().is_empty()
    }
}

/// The `rustc` arguments a custom spec needs besides `--target` (and the environment).
pub fn spec_args(rustc: &RustcInfo) -> Vec<&'static str> {
    if schema::needs_unstable_options(rustc) {
        vec!["-Zunstable-options"]
    } else {
        vec![]
    }
}

/// Runs `rustc --print cfg --target FILE` (RUSTC_BOOTSTRAP=1, `-Zunstable-options` where needed).
pub fn probe(rustc_path: &Path, rustc: &RustcInfo, file: &Path) -> anyhow::Result<Probe> {
    let p = Process::new(rustc_path)
        .env("RUSTC_BOOTSTRAP", "1")
        .args(spec_args(rustc))
        .args(["--print", "cfg", "--target"])
        .arg(file);
    let out = p.output()?;
    Ok(Probe {
        accepted: out.success(),
        stderr: out.stderr,
        command: p.to_string(),
    })
}

/// Probes spec text by writing it to a scratch `target.json`.
pub fn probe_text(rustc_path: &Path, rustc: &RustcInfo, text: &str) -> anyhow::Result<Probe> {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("target.json");
    std::fs::write(&file, text)?;
    probe(rustc_path, rustc, &file)
}

/// The key names this rustc's schema allows, with their JSON types (from
/// `--print target-spec-json-schema`), or None when this rustc cannot print it.
#[derive(Clone, Debug, Default)]
pub struct RustcSchema {
    pub keys: BTreeSet<String>,
    /// Key → its `type` where the schema states a plain one (`integer`, `string`, `boolean`...).
    pub types: std::collections::BTreeMap<String, String>,
}

pub fn rustc_schema(rustc_path: &Path, rustc: &RustcInfo) -> Option<RustcSchema> {
    if !schema::prints_schema(rustc) {
        return None;
    }
    let out = Process::new(rustc_path)
        .env("RUSTC_BOOTSTRAP", "1")
        .args(["-Zunstable-options", "--print", "target-spec-json-schema"])
        .output()
        .ok()?;
    if !out.success() {
        return None;
    }
    parse_schema(&out.stdout)
}

/// Reads the properties (and their plain types) out of rustc's JSON schema.
pub fn parse_schema(text: &str) -> Option<RustcSchema> {
    let v: Value = serde_json::from_str(text).ok()?;
    let props = v.get("properties")?.as_object()?;
    let mut s = RustcSchema::default();
    for (k, p) in props {
        s.keys.insert(k.clone());
        if let Some(t) = p.get("type").and_then(Value::as_str) {
            s.types.insert(k.clone(), t.to_string());
        }
    }
    Some(s)
}

/// The keys named in a pre-serde rustc's `target json file contains unused fields: a, b` warning.
pub fn unused_fields(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|l| l.split_once("contains unused fields:"))
        .flat_map(|(_, rest)| rest.split(',').map(|k| k.trim().to_string()))
        .filter(|k| !k.is_empty())
        .collect()
}

/// The key rustc >= 1.90 names in `error loading target specification: KEY: unknown field ...`.
pub fn unknown_field(stderr: &str) -> Option<String> {
    let i = stderr.find("unknown field `")?;
    let rest = &stderr[i + "unknown field `".len()..];
    Some(rest[..rest.find('`')?].to_string())
}

/// LLVM's own layout from `data-layout for target ... differs from LLVM target's ... default
/// layout, `LAYOUT``.
pub fn llvm_layout(stderr: &str) -> Option<String> {
    let i = stderr.find("default layout, `")?;
    let rest = &stderr[i + "default layout, `".len()..];
    Some(rest[..rest.find('`')?].to_string())
}

/// LLVM features this rustc's LLVM does not know (`'-3dnow' is not a recognized feature`).
pub fn unknown_features(stderr: &str) -> BTreeSet<String> {
    stderr
        .lines()
        .filter(|l| l.contains("is not a recognized feature"))
        .filter_map(|l| l.split('\'').nth(1))
        .map(|f| f.trim_start_matches(['+', '-']).to_string())
        .collect()
}

/// Plain words for rustc's verdict.
pub fn explain(p: &Probe, rustc: &RustcInfo) -> Vec<String> {
    let mut out = vec![];
    let err = &p.stderr;
    if let Some(k) = unknown_field(err) {
        out.push(format!(
            "rustc {} does not know the key `{k}` (removed or renamed); `rkbuild target upgrade` rewrites it",
            rustc.version
        ));
    }
    for k in unused_fields(err) {
        out.push(format!("rustc {} ignores the key `{k}`", rustc.version));
    }
    if err.contains("require `-Zunstable-options`") {
        out.push(
            "custom targets need -Zunstable-options with this rustc (rkbuild passes it)".into(),
        );
    }
    if let Some(l) = llvm_layout(err) {
        out.push(format!(
            "data-layout differs from LLVM's for this llvm-target, which is `{l}`"
        ));
    }
    if err.contains("invalid type") {
        out.push(
            "a value has the wrong JSON type (e.g. a width as a string where rustc wants a number)"
                .into(),
        );
    }
    if err.contains("is required") && err.contains("target-pointer-width") {
        out.push(format!(
            "rustc {} wants target-pointer-width as a string such as \"64\"",
            rustc.version
        ));
    }
    for f in unknown_features(err) {
        out.push(format!("LLVM does not know the feature `{f}`"));
    }
    if err.contains("incompatible with the ABI") || err.contains("required by the ABI") {
        out.push(
            "the features and the ABI disagree: a soft-float spec needs rustc-abi (1.86+)".into(),
        );
    }
    if !p.accepted && out.is_empty() {
        out.push("rustc refuses the spec (its message follows)".into());
    }
    out
}

/// The result of `check`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CheckReport {
    pub ok: bool,
    pub probe: Probe,
    pub reasons: Vec<String>,
    /// Keys the table says this rustc renamed, removed or retyped (even where rustc only warns).
    pub findings: Vec<Note>,
}

/// Checks spec text against `rustc`: clean load, plus what the table would change.
pub fn check(rustc_path: &Path, rustc: &RustcInfo, text: &str) -> anyhow::Result<CheckReport> {
    let probe = probe_text(rustc_path, rustc, text)?;
    let mut findings = vec![];
    let mut outside_schema = 0;
    let mut reasons = explain(&probe, rustc);
    match serde_json::from_str::<Spec>(text) {
        Ok(mut spec) => {
            findings = schema::upgrade_static(&mut spec, rustc);
            if let Some(s) = rustc_schema(rustc_path, rustc) {
                let original: Spec = serde_json::from_str(text)?;
                for k in original.keys().filter(|k| !s.keys.contains(*k)) {
                    outside_schema += 1;
                    reasons.push(format!(
                        "`{k}` is not in rustc {}'s target-spec schema",
                        rustc.version
                    ));
                }
            }
        }
        Err(e) => reasons.push(format!("not valid JSON: {e}")),
    }
    reasons.dedup();
    Ok(CheckReport {
        ok: probe.clean() && findings.is_empty() && outside_schema == 0,
        probe,
        reasons,
        findings,
    })
}

/// The result of `upgrade`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct UpgradeReport {
    pub text: String,
    pub changes: Vec<Note>,
    pub probe: Probe,
}

/// Rewrites a spec for `rustc`: the table's rules first, then keys outside rustc's schema (or
/// named unused by older rustc), LLVM's data layout and unknown features from rustc's own
/// messages, until rustc loads it cleanly (or stops telling us anything new).
pub fn upgrade(rustc_path: &Path, rustc: &RustcInfo, text: &str) -> anyhow::Result<UpgradeReport> {
    schema::check_known(rustc)?;
    let mut spec: Spec = serde_json::from_str(text).map_err(|e| {
        anyhow::anyhow!("not a JSON object: {e}\n  fix: pass a rustc target spec (.json)")
    })?;
    let mut changes = schema::upgrade_static(&mut spec, rustc);
    if let Some(s) = rustc_schema(rustc_path, rustc) {
        let unknown: Vec<String> = spec
            .keys()
            .filter(|k| !s.keys.contains(*k))
            .cloned()
            .collect();
        for k in unknown {
            spec.remove(&k);
            changes.push(Note {
                why: format!(
                    "not in rustc {}'s target-spec schema{}",
                    rustc.version,
                    typo_hint(&k)
                ),
                key: k,
                action: "removed".into(),
            });
        }
        for (k, t) in &s.types {
            let fixed = match (spec.get(k), t.as_str()) {
                (Some(Value::String(v)), "integer") => v.parse::<u64>().ok().map(Value::from),
                (Some(Value::String(v)), "boolean") => v.parse::<bool>().ok().map(Value::from),
                _ => None,
            };
            if let Some(v) = fixed {
                changes.push(Note {
                    key: k.clone(),
                    action: format!("{} → {v}", spec[k]),
                    why: format!("rustc {}'s schema says {t}", rustc.version),
                });
                spec.insert(k.clone(), v);
            }
        }
    }
    let mut last = String::new();
    for _ in 0..8 {
        let text = spec::render(&spec);
        let p = probe_text(rustc_path, rustc, &text)?;
        if p.clean() || p.stderr == last {
            return Ok(UpgradeReport {
                text,
                changes,
                probe: p,
            });
        }
        last = p.stderr.clone();
        let mut fixed = false;
        let mut drop = unused_fields(&p.stderr);
        drop.extend(unknown_field(&p.stderr));
        for k in drop {
            if spec.remove(&k).is_some() {
                fixed = true;
                changes.push(Note {
                    why: format!("rustc {} does not use it{}", rustc.version, typo_hint(&k)),
                    key: k,
                    action: "removed".into(),
                });
            }
        }
        if let Some(l) = llvm_layout(&p.stderr) {
            changes.push(Note {
                key: "data-layout".into(),
                action: format!("set to `{l}`"),
                why: "must equal LLVM's default layout for the llvm-target (rust#120062)".into(),
            });
            spec.insert("data-layout".into(), Value::from(l));
            fixed = true;
        }
        let gone = unknown_features(&p.stderr);
        if let (false, Some(f)) = (
            gone.is_empty(),
            spec.get("features").and_then(Value::as_str),
        ) {
            let kept: Vec<&str> = f
                .split(',')
                .filter(|x| !gone.contains(x.trim_start_matches(['+', '-'])))
                .collect();
            changes.push(Note {
                key: "features".into(),
                action: format!(
                    "dropped {}",
                    gone.iter().cloned().collect::<Vec<_>>().join(", ")
                ),
                why: "this rustc's LLVM does not know them".into(),
            });
            spec.insert("features".into(), Value::from(kept.join(",")));
            fixed = true;
        }
        if !fixed {
            return Ok(UpgradeReport {
                text,
                changes,
                probe: p,
            });
        }
    }
    let text = spec::render(&spec);
    let probe = probe_text(rustc_path, rustc, &text)?;
    Ok(UpgradeReport {
        text,
        changes,
        probe,
    })
}

fn typo_hint(k: &str) -> &'static str {
    match k {
        "code-mode" => {
            " (a typo of code-model that rustc never read; dropped so codegen stays as it was)"
        }
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rustc_messages() {
        let w = "warning: target json file contains unused fields: eliminate-frame-pointer, is-builtin, needs-plt\n";
        assert_eq!(
            unused_fields(w),
            ["eliminate-frame-pointer", "is-builtin", "needs-plt"]
        );
        let e = "error: error loading target specification: eliminate-frame-pointer: unknown field `eliminate-frame-pointer`, expected one of `llvm-target`";
        assert_eq!(unknown_field(e).as_deref(), Some("eliminate-frame-pointer"));
        let d = "error: data-layout for target `t-1`, `e-m:e`, differs from LLVM target's `x86_64-elf` default layout, `e-m:e-i128:128`\n";
        assert_eq!(llvm_layout(d).as_deref(), Some("e-m:e-i128:128"));
        let f = "'-3dnow' is not a recognized feature for this target (ignoring feature)\n'-3dnowa' is not a recognized feature for this target (ignoring feature)\n";
        assert_eq!(
            unknown_features(f).into_iter().collect::<Vec<_>>(),
            ["3dnow", "3dnowa"]
        );
    }

    #[test]
    fn reads_a_schema() {
        let s = parse_schema(
            r#"{"properties":{"arch":{"type":"string"},"target-pointer-width":{"type":"integer"},"rustc-abi":{"anyOf":[]}}}"#,
        )
        .unwrap();
        assert_eq!(s.keys.len(), 3);
        assert_eq!(s.types["target-pointer-width"], "integer");
        assert!(!s.types.contains_key("rustc-abi"));
    }
}

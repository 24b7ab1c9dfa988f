//! A plan's steps in the content-addressed cache ([`crate::cache`]): what goes into a step's
//! keys, restoring a hit into this object tree, and storing what a run made.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Context as _;

use super::fingerprint;
use super::{command_key, tool_key};
use crate::cache::{key, ActionResult, Cache, OutputFile};
use crate::kconfig::DotConfig;
use crate::plan::{Plan, Step};

fn objtree_text(plan: &Plan) -> String {
    crate::fsutil::canonical(&plan.objtree)
        .display()
        .to_string()
}

/// A path as a step names it, for a key: the object tree's absolute path as `$O`.
fn shown(p: &str, objtree: &str) -> String {
    key::normalize(p, objtree)
}

/// The command key of a step, or `None` when the step is not cached (no command, or a
/// declared input is missing).
pub(super) fn command_key_of(plan: &Plan, step: &Step, cfg: &DotConfig) -> Option<String> {
    let c = step.command.as_ref()?;
    let o = objtree_text(plan);
    let mut declared = vec![];
    let argfiles = c.args.iter().filter_map(|a| a.strip_prefix('@'));
    for p in step.inputs.iter().map(String::as_str).chain(argfiles) {
        // `rustc_cfg` counts through the symbols the inputs mention (see `key`).
        if p.ends_with("include/generated/rustc_cfg") {
            continue;
        }
        let bytes = std::fs::read(fingerprint::resolve(&plan.objtree, p)).ok()?;
        declared.push((shown(p, &o), key::digest(&bytes)));
    }
    // Debug info names the object tree: then the tree is part of what the outputs depend on.
    let salt = if cfg.enabled("DEBUG_INFO") {
        o.clone()
    } else {
        String::new()
    };
    Some(key::command_key(
        &key::normalize(&command_key(plan, step), &o),
        &tool_key(plan, step),
        &declared,
        &salt,
    ))
}

/// The action key for one input list (normalized paths), from the files as they are now;
/// `None` when one is missing.
fn action_key_of(plan: &Plan, ck: &str, list: &[String], cfg: &DotConfig) -> Option<String> {
    let o = objtree_text(plan);
    let mut inputs = vec![];
    let mut syms = BTreeSet::new();
    for p in list {
        let path = fingerprint::resolve(&plan.objtree, &key::denormalize(p, &o));
        let bytes = std::fs::read(&path).ok()?;
        if p.ends_with(".rs") || p.ends_with(".h") || p.ends_with(".c") {
            fingerprint::config_symbols(&String::from_utf8_lossy(&bytes), &mut syms);
        }
        inputs.push((p.clone(), key::digest(&bytes)));
    }
    let config: Vec<(String, String)> = syms
        .into_iter()
        .map(|s| {
            let v = fingerprint::config_value(cfg, &s);
            (s, v)
        })
        .collect();
    Some(key::action_key(ck, &inputs, &config))
}

/// The files a step wrote: its outputs and its depfile.
fn written(step: &Step) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = step.outputs.iter().map(|o| (o.clone(), false)).collect();
    if let Some(d) = &step.depfile {
        out.push((d.clone(), true));
    }
    out
}

/// Restores a step from the cache; `Some(log)` on a hit (the outputs are in place).
pub(super) fn restore(
    cache: &Cache,
    plan: &Plan,
    step: &Step,
    cfg: &DotConfig,
) -> anyhow::Result<Option<String>> {
    let Some(ck) = command_key_of(plan, step, cfg) else {
        return Ok(None);
    };
    let o = objtree_text(plan);
    for list in cache.lists(&ck) {
        let Some(ak) = action_key_of(plan, &ck, &list, cfg) else {
            continue;
        };
        let Some(r) = cache.action(&ak) else {
            continue;
        };
        // Every blob first: a hit with a missing or corrupt blob is a miss, and nothing is
        // written.
        let mut files = vec![];
        for f in &r.outputs {
            let Some(bytes) = cache.blob(&f.digest) else {
                return Ok(None);
            };
            let bytes = if f.normalized {
                key::denormalize(&String::from_utf8_lossy(&bytes), &o).into_bytes()
            } else {
                bytes
            };
            files.push((key::denormalize(&f.path, &o), bytes));
        }
        for (p, bytes) in files {
            let path = fingerprint::resolve(&plan.objtree, &p);
            if let Some(d) = path.parent() {
                std::fs::create_dir_all(d)?;
            }
            write_fresh(&path, &bytes)?;
        }
        return Ok(Some(r.log));
    }
    Ok(None)
}

/// Writes a restored file with a new modification time even when its bytes are the same, so
/// that make and the fingerprints see it as made now.
fn write_fresh(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    crate::fsutil::write_if_changed(path, bytes)?;
    let f = std::fs::File::options()
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open `{}`", path.display()))?;
    f.set_modified(std::time::SystemTime::now())?;
    Ok(())
}

/// Stores what a step just made (after its post-steps), with the inputs its depfile lists.
pub(super) fn store(
    cache: &Cache,
    plan: &Plan,
    step: &Step,
    cfg: &DotConfig,
    log: &str,
) -> anyhow::Result<()> {
    let Some(ck) = command_key_of(plan, step, cfg) else {
        return Ok(());
    };
    let o = objtree_text(plan);
    let mut list: Vec<String> = vec![];
    if let Some(d) = &step.depfile {
        let text = std::fs::read_to_string(plan.objtree.join(d))?;
        list.extend(fingerprint::parse_depfile(&text));
    }
    for i in &step.inputs {
        if !list.contains(i) {
            list.push(i.clone());
        }
    }
    let list: Vec<String> = list.iter().map(|p| shown(p, &o)).collect();
    let Some(ak) = action_key_of(plan, &ck, &list, cfg) else {
        return Ok(());
    };
    let mut outputs = vec![];
    for (p, text) in written(step) {
        let bytes = std::fs::read(fingerprint::resolve(&plan.objtree, &p))
            .with_context(|| format!("`{}` did not write `{p}`", step.id))?;
        let bytes = if text {
            key::normalize(&String::from_utf8_lossy(&bytes), &o).into_bytes()
        } else {
            bytes
        };
        outputs.push(OutputFile {
            path: shown(&p, &o),
            digest: cache.put_blob(&bytes)?,
            normalized: text,
        });
    }
    cache.put_action(
        &ak,
        &ActionResult {
            outputs,
            log: log.to_string(),
        },
    )?;
    cache.add_list(&ck, list)
}

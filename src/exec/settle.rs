//! make decides by times: a target older than one of its prerequisites is rebuilt. Pipelined, a
//! step can finish before a dependency whose metadata it used has written its object (`core.o`
//! lands seconds after `compiler_builtins.o` and `kernel.o`), and a kernel `make` in the tree
//! would then rebuild everything below it. So after a build each step that ran gets its output
//! files' times raised to the newest of its dependencies' outputs (in plan order, so a raise
//! carries down), and every fingerprint that stamped a raised file is stamped again, so that
//! rkbuild's own next run still finds everything up to date. Contents are not touched.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::SystemTime;

use super::fingerprint;
use crate::plan::Plan;

/// `ran[i]`: step `i` was built or taken from the cache in this run; `index`: each step's
/// place in the plan. Returns the files raised.
pub(super) fn settle(
    plan: &Plan,
    index: &HashMap<&str, usize>,
    ran: &[bool],
) -> anyhow::Result<usize> {
    if !ran.iter().any(|r| *r) {
        return Ok(0);
    }
    let mut newest: Vec<Option<SystemTime>> = vec![None; plan.steps.len()];
    let mut raised: HashSet<PathBuf> = HashSet::new();
    for (i, s) in plan.steps.iter().enumerate() {
        let floor = s
            .deps
            .iter()
            .filter_map(|d| index.get(d.as_str()).and_then(|&j| newest[j]))
            .max();
        for o in &s.outputs {
            let p = plan.objtree.join(o);
            let Ok(m) = std::fs::metadata(&p) else {
                continue;
            };
            if !m.is_file() {
                continue;
            }
            let mut t = m.modified()?;
            if let (true, Some(f)) = (ran[i], floor) {
                if t < f {
                    crate::fsutil::raise_mtime(&p, f)?;
                    raised.insert(p);
                    t = f;
                }
            }
            newest[i] = newest[i].max(Some(t));
        }
    }
    if raised.is_empty() {
        return Ok(0);
    }
    for (i, s) in plan.steps.iter().enumerate() {
        if !ran[i] {
            continue;
        }
        let fp_path = fingerprint::path_for(&plan.objtree, &s.id);
        let Some(mut fp) = fingerprint::load(&fp_path) else {
            continue;
        };
        let mut changed = false;
        for f in fp.inputs.iter_mut().chain(fp.outputs.iter_mut()) {
            let p = fingerprint::resolve(&plan.objtree, &f.path);
            if raised.contains(&p) {
                if let Some(now) = fingerprint::stamp(&p, &f.path) {
                    *f = now;
                    changed = true;
                }
            }
        }
        if changed {
            fingerprint::save(&fp_path, &fp)?;
        }
    }
    Ok(raised.len())
}

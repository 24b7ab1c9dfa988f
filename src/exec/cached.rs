//! Steps in the content-addressed cache ([`crate::cache`]): what goes into a step's keys,
//! restoring a hit into an object tree, and storing what a run made. A step is described as an
//! [`Action`], made from a plan's step here (`rkbuild build`) or from a compiler's command
//! line (the `RUSTC` wrapper inside the kernel's make).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

use anyhow::Context as _;

use super::fingerprint;
use super::{command_key, tool_key};
use crate::cache::{key, ActionResult, Cache, OutputFile};
use crate::kconfig::DotConfig;
use crate::plan::{Plan, Step};

/// One step, as the cache sees it.
#[derive(Clone, Debug)]
pub struct Action {
    /// Where the step runs: relative paths resolve here, and its absolute path is written
    /// `$O` in keys (the object tree).
    pub workdir: PathBuf,
    /// The command's identity: its line, environment and post-steps.
    pub command: String,
    /// The tools' identity.
    pub tool: String,
    /// Inputs known before it runs (the crate root, the target spec, argument files).
    pub declared: Vec<String>,
    /// The depfile it writes (the inputs it read).
    pub depfile: Option<String>,
    pub outputs: Vec<String>,
    /// Whether its outputs name the object tree beyond what `$O` covers (debug info).
    pub names_workdir: bool,
    /// Whether inputs that name their tree are counted with it as `$O`, restored ones as their
    /// maker counted them ([`names_its_tree`]). That needs one process across steps (the
    /// digests of restored files live in its memory): `rkbuild build`, not the wrapper.
    pub tree_paths_as_o: bool,
}

impl Action {
    /// A plan's step (`None` for a step without a command: rkbuild's own, cheap).
    pub fn of_step(plan: &Plan, step: &Step, cfg: &DotConfig) -> Option<Action> {
        // Documentation is a folder rustdoc shares between crates, not a step's own outputs;
        // and a step that reads what another's depfile lists has inputs no key would hold.
        if step.kind == crate::plan::StepKind::Doc || step.inputs_from.is_some() {
            return None;
        }
        let c = step.command.as_ref()?;
        let argfiles = c.args.iter().filter_map(|a| a.strip_prefix('@'));
        Some(Action {
            workdir: plan.objtree.clone(),
            command: command_key(plan, step),
            tool: tool_key(plan, step),
            declared: step
                .inputs
                .iter()
                .map(String::as_str)
                .chain(argfiles)
                .map(String::from)
                .collect(),
            depfile: step.depfile.clone(),
            outputs: step.outputs.clone(),
            names_workdir: cfg.enabled("DEBUG_INFO"),
            tree_paths_as_o: true,
        })
    }

    fn workdir_text(&self) -> String {
        crate::fsutil::canonical(&self.workdir)
            .display()
            .to_string()
    }

    fn resolve(&self, p: &str) -> PathBuf {
        fingerprint::resolve(&self.workdir, p)
    }

    /// The tree whose path [`file_digest`] writes `$O` in inputs (none: raw bytes).
    fn tree_for_digests(&self) -> String {
        if self.tree_paths_as_o {
            self.workdir_text()
        } else {
            String::new()
        }
    }
}

/// File digests already taken in this process, by path, size and modification time (and
/// whether the object tree's path was normalized first): a crate's metadata (`libcore.rmeta`
/// is 50 MB) is an input of every later step.
type Stat = (PathBuf, u64, SystemTime);

fn digests() -> &'static Mutex<HashMap<(Stat, bool), String>> {
    static D: OnceLock<Mutex<HashMap<(Stat, bool), String>>> = OnceLock::new();
    D.get_or_init(Default::default)
}

/// Whether an input names the object tree it was built in: a crate's metadata records the
/// paths of the generated files it includes through `OBJTREE`, a proc macro its build folder.
/// Its digest is taken with that path written `$O`, so two trees that built the same crate at
/// once (a matrix, two machines) agree on the keys of everything that uses it.
fn names_its_tree(path: &Path, objtree: &str) -> bool {
    !objtree.is_empty()
        && path.starts_with(objtree)
        && path
            .extension()
            .is_some_and(|e| e == "rmeta" || e == "rlib" || e == "so")
}

fn stat(path: &Path) -> Option<Stat> {
    let m = std::fs::metadata(path).ok()?;
    Some((path.to_path_buf(), m.len(), m.modified().ok()?))
}

/// The digest of a file's bytes, as a key counts them (see [`names_its_tree`]), and the
/// bytes, when they had to be read.
fn file_digest(path: &Path, objtree: &str) -> Option<(String, Option<Vec<u8>>)> {
    let st = stat(path)?;
    let norm = names_its_tree(path, objtree);
    let memo = (st, norm);
    if let Some(d) = digests().lock().ok()?.get(&memo) {
        return Some((d.clone(), None));
    }
    let bytes = std::fs::read(path).ok()?;
    let d = if norm {
        key::digest(&key::normalize_bytes(&bytes, objtree))
    } else {
        key::digest(&bytes)
    };
    digests().lock().ok()?.insert(memo, d.clone());
    Some((d, Some(bytes)))
}

/// A path as a step names it, for a key: the object tree's absolute path as `$O`.
fn shown(p: &str, objtree: &str) -> String {
    key::normalize(p, objtree)
}

/// The configuration's `rustc_cfg` is in no key as a whole: it counts through the `CONFIG_`
/// symbols each step's inputs mention (see [`key`]), so one driver's symbol reruns one driver.
fn counts_through_symbols(path: &str) -> bool {
    path.ends_with("include/generated/rustc_cfg")
}

/// The command key of an action, or `None` when a declared input is missing.
fn command_key_of(a: &Action) -> Option<String> {
    let o = a.workdir_text();
    let mut declared = vec![];
    for p in &a.declared {
        if counts_through_symbols(p) {
            continue;
        }
        let (d, _) = file_digest(&a.resolve(p), &a.tree_for_digests())?;
        declared.push((shown(p, &o), d));
    }
    // Debug info names the object tree: then the tree is part of what the outputs depend on.
    let salt = if a.names_workdir {
        o.clone()
    } else {
        String::new()
    };
    Some(key::command_key(
        &key::normalize(&a.command, &o),
        &a.tool,
        &declared,
        &salt,
    ))
}

/// The action key for one input list (normalized paths), from the files as they are now;
/// `None` when one is missing.
fn action_key_of(a: &Action, ck: &str, list: &[String], cfg: &DotConfig) -> Option<String> {
    let o = a.workdir_text();
    let mut inputs = vec![];
    let mut syms = BTreeSet::new();
    for p in list {
        let path = a.resolve(&key::denormalize(p, &o));
        let (d, bytes) = file_digest(&path, &a.tree_for_digests())?;
        if p.ends_with(".rs") || p.ends_with(".h") || p.ends_with(".c") {
            let text = match bytes {
                Some(b) => String::from_utf8_lossy(&b).into_owned(),
                None => std::fs::read_to_string(&path).ok()?,
            };
            fingerprint::config_symbols(&text, &mut syms);
        }
        inputs.push((p.clone(), d));
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

/// The files an action wrote: its outputs and its depfile (text naming the tree).
fn written(a: &Action) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = a
        .outputs
        .iter()
        .filter(|o| Some(*o) != a.depfile.as_ref())
        .map(|o| (o.clone(), false))
        .collect();
    if let Some(d) = &a.depfile {
        out.push((d.clone(), true));
    }
    out
}

/// Waits until no other process makes the same step (the same command key) and holds that
/// until dropped; `None` when the cache cannot lock (the step is simply built).
pub fn in_flight(
    cache: &Cache,
    plan: &Plan,
    step: &Step,
    cfg: &DotConfig,
) -> Option<crate::fsutil::FileLock> {
    let a = Action::of_step(plan, step, cfg)?;
    let ck = command_key_of(&a)?;
    let dir = cache.dir().join("flight");
    std::fs::create_dir_all(&dir).ok()?;
    crate::fsutil::lock_file(&dir.join(format!("{ck}.lock")), true, |_| {}).ok()
}

/// Restores an action from the cache; `Some(log)` on a hit (the outputs are in place).
pub fn restore(cache: &Cache, a: &Action, cfg: &DotConfig) -> anyhow::Result<Option<String>> {
    let Some(ck) = command_key_of(a) else {
        return Ok(None);
    };
    let o = a.workdir_text();
    for list in cache.lists(&ck) {
        let Some(ak) = action_key_of(a, &ck, &list, cfg) else {
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
        for ((p, bytes), f) in files.into_iter().zip(&r.outputs) {
            let path = a.resolve(&p);
            if let Some(d) = path.parent() {
                std::fs::create_dir_all(d)?;
            }
            write_fresh(&path, &bytes)?;
            // Later steps read it: its digest is known.
            if let (false, Some(st), Ok(mut m)) = (f.normalized, stat(&path), digests().lock()) {
                m.insert((st.clone(), false), f.digest.clone());
                // As the tree that made it counted it: its bytes name that tree, not this one.
                if let Some(k) = &f.key_digest {
                    m.insert((st, true), k.clone());
                }
            }
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

/// Stores what an action just made (after its post-steps), with the inputs its depfile lists.
pub fn store(cache: &Cache, a: &Action, cfg: &DotConfig, log: &str) -> anyhow::Result<()> {
    let Some(ck) = command_key_of(a) else {
        return Ok(());
    };
    let o = a.workdir_text();
    let mut list: Vec<String> = vec![];
    if let Some(d) = &a.depfile {
        let text = std::fs::read_to_string(a.resolve(d))?;
        list.extend(fingerprint::parse_depfile(&text));
    }
    for i in &a.declared {
        if !list.contains(i) && !counts_through_symbols(i) {
            list.push(i.clone());
        }
    }
    let list: Vec<String> = list.iter().map(|p| shown(p, &o)).collect();
    let Some(ak) = action_key_of(a, &ck, &list, cfg) else {
        return Ok(());
    };
    let mut outputs = vec![];
    for (p, text) in written(a) {
        let bytes =
            std::fs::read(a.resolve(&p)).with_context(|| format!("`{p}` was not written"))?;
        let bytes = if text {
            key::normalize(&String::from_utf8_lossy(&bytes), &o).into_bytes()
        } else {
            bytes
        };
        let path = a.resolve(&p);
        let tree = a.tree_for_digests();
        let key_digest =
            names_its_tree(&path, &tree).then(|| key::digest(&key::normalize_bytes(&bytes, &tree)));
        outputs.push(OutputFile {
            path: shown(&p, &o),
            digest: cache.put_blob(&bytes)?,
            normalized: text,
            key_digest,
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

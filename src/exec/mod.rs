//! Stage 5: running a plan — in dependency order, up to `-j N` steps at a time, each step only
//! when it is out of date ([`fingerprint`]), with each step's output kept together.
//!
//! The scheduler is a loop on the main thread: it starts ready steps on worker threads, and a
//! step becomes ready when every step it depends on is done. A step whose dependency was rebuilt
//! in this run is rebuilt too (its inputs changed). When a step fails, no new step starts; the
//! running ones finish and keep their outputs, so the next run resumes where this one stopped.

pub mod cached;
pub mod fingerprint;
pub mod pipeline;
pub mod post;
pub mod remote_exec;
pub mod retouch;
mod settle;

use std::collections::BTreeSet;
use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::kconfig::DotConfig;
use crate::output::{Message, Out, StepRef};
use crate::plan::{Plan, Step, StepKind};
use fingerprint::Fingerprint;

/// How to run.
#[derive(Clone, Debug)]
pub struct Options<'a> {
    pub jobs: usize,
    pub out: Out,
    pub cfg: &'a DotConfig,
    /// llvm-objcopy (or the `OBJCOPY` the user named).
    pub objcopy: PathBuf,
    /// The content-addressed step cache, when it is on.
    pub cache: Option<&'a crate::cache::Cache>,
    /// Start a crate as soon as the metadata of the crates it uses is written
    /// ([`pipeline`]), not when their objects are.
    pub pipeline: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Fresh,
    Built,
    /// Its outputs came from the cache.
    Cached,
    Failed,
    /// Not started because another step failed.
    Skipped,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct StepReport {
    pub id: String,
    pub tag: String,
    /// It runs a tool (rustc, bindgen, the C compiler); the rest are rkbuild's own (exports).
    pub tool: bool,
    pub status: Status,
    /// Why it ran (or why not).
    pub why: String,
    pub duration_ms: u64,
    /// Milliseconds from the start of the build.
    pub start_ms: u64,
    /// When its last dependency was done (it waited `start_ms - ready_ms` for a free job).
    pub ready_ms: u64,
    /// The steps it waited for (ids).
    pub deps: Vec<String>,
    /// Pipelined: milliseconds after its start when its metadata was written and the crates
    /// using it could start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata_ms: Option<u64>,
}

impl StepReport {
    fn new(step: &Step, status: Status, why: String, start_ms: u64) -> StepReport {
        StepReport {
            id: step.id.clone(),
            tag: step.tag.clone(),
            tool: step.command.is_some(),
            status,
            why,
            duration_ms: 0,
            start_ms,
            ready_ms: 0,
            deps: step.deps.clone(),
            metadata_ms: None,
        }
    }
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    pub steps: Vec<StepReport>,
    pub built: usize,
    pub fresh: usize,
    /// Steps whose outputs came from the cache.
    pub cached: usize,
    pub wall_ms: u64,
    /// The sum of the durations of the steps that ran.
    pub sum_ms: u64,
    /// The longest chain of dependent steps that ran (the best `-j ∞` could do).
    pub critical_path_ms: u64,
    /// That chain's steps, first to last.
    pub critical_path: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
#[error("the build stopped: {failed} failed ({done} steps done, {not_run} not started; finished outputs are kept){fix}")]
pub struct BuildFailed {
    pub failed: String,
    /// `\n  fix: …` where the failure says how to fix it (a full disk), else empty.
    pub fix: String,
    pub done: usize,
    pub not_run: usize,
    pub summary: Box<Summary>,
    /// The exit status of the test run that failed, to be passed on (`rkbuild test`).
    pub exit_code: Option<i32>,
}

/// A test run (an `always` step) that exited with a failure.
#[derive(Debug, thiserror::Error)]
#[error("{log}")]
pub struct TestFailed {
    /// Its exit status (128 + the signal for a test killed by one, as a shell says).
    pub code: i32,
    pub log: String,
}

/// A worker's result.
struct Finished {
    index: usize,
    result: anyhow::Result<String>,
    duration: Duration,
    /// Another build made the same step while this one waited for it (see
    /// [`cached::in_flight`]): its outputs came from the cache.
    from_cache: bool,
}

/// The identity of a step's command: the command line and its post-steps, with the objcopy
/// they run (llvm-objcopy and GNU objcopy do not write the same bytes).
fn command_key(plan: &Plan, step: &Step) -> String {
    let cmd = step
        .command
        .as_ref()
        .map(|c| c.display())
        .unwrap_or_else(|| format!("rkbuild {:?}", step.kind));
    let objcopy = step.post.iter().any(|p| {
        matches!(
            p,
            crate::plan::PostStep::RedirectIntrinsics { .. }
                | crate::plan::PostStep::WeakenSymbols { .. }
        )
    });
    let tool = match plan.tools.get(OBJCOPY_KEY) {
        Some(id) if objcopy => format!("\nobjcopy: {id}"),
        _ => String::new(),
    };
    format!(
        "{cmd}\npost: {}{tool}",
        serde_json::to_string(&step.post).unwrap_or_default()
    )
}

/// The key of objcopy's identity in [`Plan::tools`].
pub const OBJCOPY_KEY: &str = "objcopy";

fn tool_key(plan: &Plan, step: &Step) -> String {
    match &step.command {
        Some(c) => plan
            .tools
            .get(&c.program)
            .cloned()
            .unwrap_or_else(|| c.program.clone()),
        None => format!("rkbuild {}", env!("CARGO_PKG_VERSION")),
    }
}

/// Whether a step must run, and why.
pub fn check(
    plan: &Plan,
    step: &Step,
    cfg: &DotConfig,
    mut seen: Option<&mut fingerprint::Seen>,
) -> Option<String> {
    if step.always {
        return Some("tests run every time".into());
    }
    let fp_path = fingerprint::path_for(&plan.objtree, &step.id);
    let bytes = match seen.as_deref_mut().and_then(|s| s.take_record(&fp_path)) {
        Some(b) => Some(b),
        None => fingerprint::read(&fp_path),
    };
    let mut viewed = bytes.as_deref().and_then(fingerprint::view);
    // An earlier rkbuild's fingerprint (JSON) is read whole.
    let legacy = match (&viewed, &bytes) {
        (None, Some(_)) => fingerprint::load(&fp_path),
        _ => None,
    };
    if let Some(fp) = &legacy {
        viewed = Some(fp.as_stored());
    }
    let Some(old) = viewed else {
        return Some(if plan.objtree.join(&step.id).exists() {
            "no record of a finished build (interrupted?)".into()
        } else {
            "not built yet".into()
        });
    };
    fingerprint::stale_reason(
        &old,
        &command_key(plan, step),
        &tool_key(plan, step),
        &plan.objtree,
        cfg,
        seen,
    )
}

/// Runs one step on a worker thread; returns its collected output.
fn run_step(
    plan: &Plan,
    step: &Step,
    objcopy: &Path,
    cfg_syms: &DotConfig,
    verbose: bool,
) -> anyhow::Result<String> {
    let objtree = &plan.objtree;
    let fp_path = fingerprint::path_for(objtree, &step.id);
    match std::fs::remove_file(&fp_path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot remove `{}`", fp_path.display())),
    }
    for o in &step.outputs {
        if let Some(dir) = objtree.join(o).parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create `{}`", dir.display()))?;
        }
    }
    if let Some(dir) = &step.empties {
        let dir = objtree.join(dir);
        match std::fs::remove_dir_all(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("cannot empty `{}`", dir.display())),
        }
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create `{}`", dir.display()))?;
    }
    let mut log = String::new();
    if let Some(cmd) = &step.command {
        let mut p = cmd.process(objtree);
        for (k, v) in plan
            .vintage
            .exported_env(&plan.srctree.display().to_string())
        {
            p = p.env(k, v);
        }
        let out = p.output()?;
        // Kbuild sends some tools' standard output to /dev/null unless V=1.
        if cmd.stdout.is_none() && (verbose || !step.quiet_stdout) {
            log.push_str(&out.stdout);
        }
        log.push_str(&out.stderr);
        if !out.success() {
            let log = log.trim_end().to_string();
            if step.always {
                use std::os::unix::process::ExitStatusExt as _;
                let code = out
                    .status
                    .code()
                    .unwrap_or_else(|| 128 + out.status.signal().unwrap_or(0));
                return Err(TestFailed { code, log }.into());
            }
            return Err(anyhow::anyhow!("{log}"));
        }
        if let Some(to) = &cmd.stdout {
            crate::fsutil::write_if_changed(&objtree.join(to), out.stdout.as_bytes())?;
        }
    }
    if step.kind == StepKind::Exports {
        let obj = objtree.join(&step.inputs[0]);
        let syms = post::defined_symbols(&obj)?;
        let e = &plan.vintage.exports;
        let skip: Vec<&str> = e.skip.iter().map(String::as_str).collect();
        let (letters, skip) = (e.letters.as_str(), skip.as_slice());
        crate::fsutil::write_if_changed(
            &objtree.join(&step.id),
            post::exports_header(&syms, letters, skip).as_bytes(),
        )?;
    }
    let main = objtree.join(&step.id);
    for p in &step.post {
        if let Some(warning) = post::run(p, &main, objcopy, objtree)? {
            log.push_str(&warning);
            log.push('\n');
        }
    }
    if !step.always {
        write_fingerprint(plan, step, cfg_syms)?;
    }
    Ok(log)
}

/// Records that a step is done, once everything is in place (see [`fingerprint`]).
fn write_fingerprint(plan: &Plan, step: &Step, cfg_syms: &DotConfig) -> anyhow::Result<()> {
    let objtree = &plan.objtree;
    let fp_path = fingerprint::path_for(objtree, &step.id);
    let mut inputs: Vec<String> = vec![];
    if let Some(d) = &step.depfile {
        let text = std::fs::read_to_string(objtree.join(d))
            .with_context(|| format!("`{}` did not write its depfile `{d}`", step.id))?;
        inputs.extend(fingerprint::parse_depfile(&text));
    }
    if let Some(d) = &step.inputs_from {
        let text = std::fs::read_to_string(objtree.join(d))
            .with_context(|| format!("`{}` reads what `{d}` lists, and it is missing", step.id))?;
        inputs.extend(fingerprint::parse_depfile(&text));
    }
    for i in &step.inputs {
        if !inputs.contains(i) {
            inputs.push(i.clone());
        }
    }
    let mut syms = BTreeSet::new();
    let mut stamps = vec![];
    for i in &inputs {
        let path = fingerprint::resolve(objtree, i);
        if let Some(s) = fingerprint::stamp(&path, i) {
            stamps.push(s);
        }
        if i.ends_with(".rs") || i.ends_with(".h") || i.ends_with(".c") {
            if let Ok(text) = std::fs::read_to_string(&path) {
                fingerprint::config_symbols(&text, &mut syms);
            }
        }
    }
    let outputs = step
        .outputs
        .iter()
        .filter_map(|o| fingerprint::stamp(&objtree.join(o), o))
        .collect();
    let fp = Fingerprint {
        command: command_key(plan, step),
        tool: tool_key(plan, step),
        inputs: stamps,
        outputs,
        config: syms
            .into_iter()
            .map(|s| {
                let v = fingerprint::config_value(cfg_syms, &s);
                (s, v)
            })
            .collect(),
    };
    fingerprint::save(&fp_path, &fp)?;
    Ok(())
}

/// A one-line progress indicator on a terminal (stderr), cleared before normal output.
struct Progress {
    on: bool,
}

impl Progress {
    fn clear(&self) {
        if self.on {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r\x1b[K");
            let _ = e.flush();
        }
    }

    fn show(&self, done: usize, total: usize, running: &[&str]) {
        if self.on {
            let mut e = std::io::stderr().lock();
            let mut names = running.join(", ");
            if names.len() > 60 {
                names.truncate(57);
                names.push_str("...");
            }
            let _ = write!(e, "\r\x1b[K[{done}/{total}] {names}");
            let _ = e.flush();
        }
    }
}

/// A hit restored and recorded as done.
fn restore_from(
    cache: &crate::cache::Cache,
    plan: &Plan,
    step: &Step,
    cfg: &DotConfig,
) -> anyhow::Result<Option<String>> {
    let Some(action) = cached::Action::of_step(plan, step, cfg) else {
        return Ok(None);
    };
    let Some(log) = cached::restore(cache, &action, cfg)? else {
        return Ok(None);
    };
    write_fingerprint(plan, step, cfg)?;
    Ok(Some(log))
}

/// Whether a folder entry is what a killed step leaves behind: rustc's metadata folder
/// (`rmeta` and six random characters: it writes `lib.rmeta` there, then renames it into
/// place) or rkbuild's own temporary files (`fsutil`'s atomic writes, the objcopy post-step).
pub fn is_leftover(name: &str, is_dir: bool) -> bool {
    if is_dir {
        name.len() == 11
            && name.starts_with("rmeta")
            && name[5..].bytes().all(|b| b.is_ascii_alphanumeric())
    } else {
        name.starts_with(".tmp_rkbuild_") || name.starts_with(".tmp_objcopy_")
    }
}

/// Removes what a killed build left in the object tree and the folders its steps write to
/// (see [`is_leftover`]).
/// Safe only while no step runs there: the caller holds the object tree's lock, and a
/// `make` running in the same object tree at the same time is not supported.
fn sweep_leftovers(plan: &Plan) {
    // The object tree itself too: rustc runs there, and puts some metadata folders there.
    let dirs: BTreeSet<PathBuf> = plan
        .steps
        .iter()
        .flat_map(|s| &s.outputs)
        .filter_map(|o| {
            fingerprint::resolve(&plan.objtree, o)
                .parent()
                .map(Path::to_path_buf)
        })
        .chain([plan.objtree.clone()])
        .collect();
    for d in dirs {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            if is_leftover(&e.file_name().to_string_lossy(), is_dir) {
                let _ = if is_dir {
                    std::fs::remove_dir_all(e.path())
                } else {
                    std::fs::remove_file(e.path())
                };
            }
        }
    }
}

/// A step is done, or wrote its metadata: `users` wait for one step less, and those that wait
/// for none are ready (rebuilt too when `rebuilt`). Whether any became ready.
fn let_go<'a>(
    users: impl IntoIterator<Item = &'a usize>,
    rebuilt: bool,
    waiting: &mut [usize],
    ready: &mut std::collections::VecDeque<usize>,
    dep_rebuilt: &mut [bool],
) -> bool {
    let mut any = false;
    for &u in users {
        dep_rebuilt[u] |= rebuilt;
        waiting[u] -= 1;
        if waiting[u] == 0 {
            ready.push_back(u);
            any = true;
        }
    }
    any
}

/// Runs the plan.
pub fn run(plan: &Plan, opts: &Options) -> Result<Summary, BuildFailed> {
    sweep_leftovers(plan);
    let out = opts.out;
    let n = plan.steps.len();
    let index: std::collections::HashMap<&str, usize> = plan
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.as_str(), i))
        .collect();
    let mut users: Vec<Vec<usize>> = vec![vec![]; n];
    // The users that start from a step's metadata, not its end (pipelining).
    let mut meta_users: Vec<Vec<usize>> = vec![vec![]; n];
    let mut waiting: Vec<usize> = vec![0; n];
    for (i, s) in plan.steps.iter().enumerate() {
        waiting[i] = s.deps.len();
        for d in &s.deps {
            let j = index[d.as_str()];
            if opts.pipeline && pipeline::metadata_edge(s, &plan.steps[j]) {
                meta_users[j].push(i);
            } else {
                users[j].push(i);
            }
        }
    }
    // Its metadata users were let go (they do not wait for its end too).
    let mut released = vec![false; n];
    let mut ready: std::collections::VecDeque<usize> =
        (0..n).filter(|&i| waiting[i] == 0).collect();
    let mut dep_rebuilt = vec![false; n];
    // Stamps shared by the checks until the first step writes anything.
    let checked: Vec<&str> = plan
        .steps
        .iter()
        .filter(|s| !s.always)
        .map(|s| s.id.as_str())
        .collect();
    let mut seen = Some(fingerprint::Seen::for_build(&plan.objtree, &checked));
    let mut reports: Vec<Option<StepReport>> = vec![None; n];
    let mut starts: Vec<Duration> = vec![Duration::ZERO; n];
    let mut running: Vec<usize> = vec![];
    let mut failed: Option<String> = None;
    let mut fix = String::new();
    let mut exit_code: Option<i32> = None;
    let progress = Progress {
        on: !out.json() && !out.quiet && !out.verbose && std::io::stderr().is_terminal(),
    };
    let t0 = Instant::now();
    let (tx, rx) = mpsc::channel::<Finished>();
    // A running step whose metadata users wait: its `.rmeta` and that file's identity when
    // the step started.
    let mut watched: Vec<(usize, PathBuf, Option<pipeline::FileId>)> = vec![];
    // What the progress line last showed: steps done, steps running.
    let mut shown = (usize::MAX, 0);
    // Under make's jobserver its tokens bound the parallelism, not `-j`: a step beyond the
    // first takes a token, held until it ends (the first runs on rkbuild's own).
    let jobserver = crate::process::jobserver();
    let jobs = if jobserver.is_some() {
        usize::MAX
    } else {
        opts.jobs.max(1)
    };
    let mut tokens: Vec<Option<jobserver::Acquired>> = (0..n).map(|_| None).collect();
    let mut starved = false;
    // The step waiting for a token, with why it runs.
    let mut held: Option<(usize, String)> = None;

    std::thread::scope(|scope| loop {
        while failed.is_none() && running.len() < jobs {
            // Test runs one at a time, so each one's output follows its own header line.
            let testing = running.iter().any(|&r| plan.steps[r].always);
            let Some(at) = ready
                .iter()
                .position(|&i| !(testing && plan.steps[i].always))
            else {
                break;
            };
            let i = ready.remove(at).expect("found above");
            let step = &plan.steps[i];
            // A step that waited for a token was checked (and looked up in the cache) already.
            let resumed = held.as_ref().is_some_and(|(j, _)| *j == i);
            let why = if resumed {
                held.take().map(|(_, why)| why)
            } else if dep_rebuilt[i] {
                Some("a dependency was rebuilt".to_string())
            } else {
                check(plan, step, opts.cfg, seen.as_mut())
            };
            let Some(why) = why else {
                reports[i] = Some(StepReport::new(
                    step,
                    Status::Fresh,
                    "up to date".into(),
                    t0.elapsed().as_millis() as u64,
                ));
                let all = users[i].iter().chain(&meta_users[i]);
                let_go(all, false, &mut waiting, &mut ready, &mut dep_rebuilt);
                continue;
            };
            seen = None;
            if let Some(cache) = opts.cache.filter(|_| !step.always && !resumed) {
                match restore_from(cache, plan, step, opts.cfg) {
                    Ok(Some(log)) => {
                        progress.clear();
                        out.say(Message::Cached {
                            id: &step.id,
                            tag: &step.tag,
                            why: &why,
                            output: &log,
                        });
                        reports[i] = Some(StepReport::new(
                            step,
                            Status::Cached,
                            why,
                            t0.elapsed().as_millis() as u64,
                        ));
                        let all = users[i].iter().chain(&meta_users[i]);
                        let_go(all, true, &mut waiting, &mut ready, &mut dep_rebuilt);
                        continue;
                    }
                    Ok(None) => {}
                    Err(e) => {
                        let text = format!("cache: {}: {e:#} (building it)", step.id);
                        out.say(Message::Warning {
                            text: &text,
                            at: None,
                        });
                    }
                }
            }
            // It runs: a token of make's first, beyond the first running step; none free:
            // it waits at the front (for one, or for a step to end).
            let token = match jobserver.filter(|_| !running.is_empty()) {
                Some(j) => match j.try_acquire() {
                    Ok(Some(t)) => Some(t),
                    Ok(None) => {
                        starved = true;
                        held = Some((i, why));
                        ready.push_front(i);
                        break;
                    }
                    // No non-blocking read on this jobserver: wait for a token.
                    Err(_) => j.acquire().ok(),
                },
                None => None,
            };
            starved = false;
            progress.clear();
            if let Some(m) = pipeline::metadata_file(step).filter(|_| !meta_users[i].is_empty()) {
                let path = plan.objtree.join(m);
                let before = pipeline::file_id(&path);
                watched.push((i, path, before));
            }
            let command = step.command.as_ref().map(|c| c.display());
            out.say(Message::Started {
                step: StepRef {
                    id: &step.id,
                    tag: &step.tag,
                    command: command.as_deref(),
                },
            });
            starts[i] = t0.elapsed();
            reports[i] = Some(StepReport::new(
                step,
                Status::Built,
                why,
                starts[i].as_millis() as u64,
            ));
            running.push(i);
            tokens[i] = token;
            let tx = tx.clone();
            let objcopy = opts.objcopy.clone();
            let cfg = opts.cfg;
            let cache = opts.cache.filter(|_| !plan.steps[i].always);
            scope.spawn(move || {
                let t = Instant::now();
                let step = &plan.steps[i];
                // One build at a time makes a step (another object tree, another cell of a
                // matrix): whoever waited takes it from the cache, so every tree gets the same
                // outputs, and so the same keys downstream.
                let _flight = cache.and_then(|c| cached::in_flight(c, plan, step, cfg));
                if let Some(c) = cache.filter(|_| _flight.is_some()) {
                    if let Ok(Some(log)) = restore_from(c, plan, step, cfg) {
                        let _ = tx.send(Finished {
                            index: i,
                            result: Ok(log),
                            duration: t.elapsed(),
                            from_cache: true,
                        });
                        return;
                    }
                }
                let result = run_step(plan, step, &objcopy, cfg, out.verbose).map(|mut log| {
                    // A cache that cannot take the outputs never fails the build.
                    let action =
                        cache.and_then(|c| Some((c, cached::Action::of_step(plan, step, cfg)?)));
                    if let Some((cache, action)) = action {
                        if let Err(e) = cached::store(cache, &action, cfg, &log) {
                            log.push_str(&format!("warning: cache: not stored: {e:#}\n"));
                        }
                    }
                    log
                });
                let _ = tx.send(Finished {
                    index: i,
                    result,
                    duration: t.elapsed(),
                    from_cache: false,
                });
            });
        }
        if running.is_empty() {
            break;
        }
        let names: Vec<&str> = running.iter().map(|&i| plan.steps[i].id.as_str()).collect();
        let done = reports.iter().filter(|r| r.is_some()).count() - running.len();
        // Drawn again only when it changed (the loop also wakes to look for metadata).
        if shown != (done, running.len()) {
            progress.show(done, n, &names);
            shown = (done, running.len());
        }
        // Waiting for a token too: look again soon, as another job of make's may end first.
        // A step whose metadata is now in place lets its metadata users go, while its code
        // is generated.
        let mut let_go_now = false;
        watched.retain(|(i, path, before)| {
            if !pipeline::written(path, *before) {
                return true;
            }
            released[*i] = true;
            if let Some(r) = reports[*i].as_mut() {
                r.metadata_ms = Some((t0.elapsed() - starts[*i]).as_millis() as u64);
            }
            let_go_now |= let_go(
                &meta_users[*i],
                true,
                &mut waiting,
                &mut ready,
                &mut dep_rebuilt,
            );
            false
        });
        if let_go_now {
            continue;
        }
        // Waiting for a token or for metadata too: look again soon.
        let poll = if starved {
            Some(Duration::from_millis(20))
        } else if !watched.is_empty() {
            Some(pipeline::POLL)
        } else {
            None
        };
        let f = match poll {
            Some(d) => match rx.recv_timeout(d) {
                Ok(f) => f,
                Err(_) => continue,
            },
            None => rx.recv().expect("a worker always reports"),
        };
        tokens[f.index] = None;
        running.retain(|&i| i != f.index);
        let step = &plan.steps[f.index];
        let report = reports[f.index].as_mut().expect("started");
        report.duration_ms = f.duration.as_millis() as u64;
        progress.clear();
        watched.retain(|(i, _, _)| *i != f.index);
        let command = step.command.as_ref().map(|c| c.display());
        let step_ref = StepRef {
            id: &step.id,
            tag: &step.tag,
            command: command.as_deref(),
        };
        match f.result {
            Ok(log) => {
                if f.from_cache {
                    report.status = Status::Cached;
                    out.say(Message::Cached {
                        id: &step.id,
                        tag: &step.tag,
                        why: &report.why,
                        output: &log,
                    });
                } else {
                    out.say(Message::Built {
                        step: step_ref,
                        why: &report.why,
                        duration_ms: report.duration_ms,
                        output: &log,
                    });
                }
                let meta = if released[f.index] {
                    &[][..]
                } else {
                    &meta_users[f.index][..]
                };
                let all = users[f.index].iter().chain(meta);
                let_go(all, true, &mut waiting, &mut ready, &mut dep_rebuilt);
            }
            Err(e) => {
                report.status = Status::Failed;
                out.say(Message::Failed {
                    step: step_ref,
                    why: &report.why,
                    duration_ms: report.duration_ms,
                    error: &format!("{e:#}"),
                });
                if failed.is_none() {
                    failed = Some(format!("`{}`", step.id));
                    fix = crate::output::storage_fix(&format!("{e:#}"))
                        .map(|f| format!("\n  fix: {f}"))
                        .unwrap_or_default();
                    exit_code = e.downcast_ref::<TestFailed>().map(|t| t.code);
                }
            }
        }
    });
    progress.clear();

    let wall = t0.elapsed();
    let steps: Vec<StepReport> = plan
        .steps
        .iter()
        .zip(reports)
        .map(|(s, r)| {
            r.unwrap_or_else(|| {
                StepReport::new(
                    s,
                    Status::Skipped,
                    "not started: an earlier step failed".into(),
                    0,
                )
            })
        })
        .collect();
    let mut steps = steps;
    if failed.is_none() {
        let ran: Vec<bool> = steps
            .iter()
            .map(|s| matches!(s.status, Status::Built | Status::Cached))
            .collect();
        if let Err(e) = settle::settle(plan, &index, &ran) {
            failed = Some(format!("setting the outputs' times for make ({e:#})"));
        }
    }
    // When a step's dependency let it go: at its end, or at its metadata when pipelined.
    let let_go_after = |steps: &[StepReport], j: usize, user: usize| -> u64 {
        match steps[j].metadata_ms {
            Some(m) if meta_users[j].contains(&user) => m,
            _ => steps[j].duration_ms,
        }
    };
    for (i, s) in plan.steps.iter().enumerate() {
        steps[i].ready_ms = s
            .deps
            .iter()
            .map(|d| {
                let j = index[d.as_str()];
                steps[j].start_ms + let_go_after(&steps, j, i)
            })
            .max()
            .unwrap_or(0)
            .min(steps[i].start_ms);
    }
    // Critical path over the steps that ran: longest chain of durations through deps.
    let mut finish = vec![0u64; n];
    for (i, s) in plan.steps.iter().enumerate() {
        let before = s
            .deps
            .iter()
            .map(|d| {
                let j = index[d.as_str()];
                let gen = steps[j]
                    .duration_ms
                    .saturating_sub(let_go_after(&steps, j, i));
                finish[j].saturating_sub(gen)
            })
            .max()
            .unwrap_or(0);
        let own = if steps[i].status == Status::Built {
            steps[i].duration_ms
        } else {
            0
        };
        finish[i] = before + own;
    }
    // The chain itself: from the step that finishes last, back through the dependency that
    // finished last.
    let mut critical_path = vec![];
    let mut at = (0..n).filter(|&i| finish[i] > 0).max_by_key(|&i| finish[i]);
    while let Some(i) = at {
        critical_path.push(plan.steps[i].id.clone());
        at = plan.steps[i]
            .deps
            .iter()
            .map(|d| index[d.as_str()])
            .filter(|&j| finish[j] > 0)
            .max_by_key(|&j| finish[j]);
    }
    critical_path.reverse();
    let summary = Summary {
        built: steps.iter().filter(|s| s.status == Status::Built).count(),
        fresh: steps.iter().filter(|s| s.status == Status::Fresh).count(),
        cached: steps.iter().filter(|s| s.status == Status::Cached).count(),
        wall_ms: wall.as_millis() as u64,
        sum_ms: steps
            .iter()
            .filter(|s| s.status == Status::Built)
            .map(|s| s.duration_ms)
            .sum(),
        critical_path_ms: finish.into_iter().max().unwrap_or(0),
        critical_path,
        steps,
    };
    if let Some(failed) = failed {
        let not_run = summary
            .steps
            .iter()
            .filter(|s| s.status == Status::Skipped)
            .count();
        return Err(BuildFailed {
            failed,
            fix,
            done: summary.built + summary.fresh + summary.cached,
            not_run,
            summary: Box::new(summary),
            exit_code,
        });
    }
    for s in summary.steps.iter().filter(|s| s.status == Status::Fresh) {
        out.say(Message::Fresh {
            id: &s.id,
            tag: &s.tag,
        });
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftovers_are_only_temporaries() {
        assert!(is_leftover("rmetaAb12Xz", true));
        assert!(!is_leftover("rmetaAb12Xz", false));
        assert!(!is_leftover("rmeta", true));
        assert!(!is_leftover("rmeta_a12Xzq", true));
        assert!(is_leftover(".tmp_objcopy_7ghKnX", false));
        assert!(is_leftover(".tmp_rkbuild_x1", false));
        assert!(!is_leftover("core.o", false));
        assert!(!is_leftover(".core.o.rkbuild", false));
    }
}

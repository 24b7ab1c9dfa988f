//! The one place where rkbuild starts child processes (cargo's `ProcessBuilder` idea): the
//! program, its arguments, environment and working folder in one value that can also be shown
//! (`-v`) and named in errors.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Mutex;

use anyhow::Context as _;

/// GNU make's jobserver, when rkbuild runs under `make -jN` (MAKEFLAGS' `--jobserver-auth`,
/// pipe or fifo): its tokens bound how many steps run at once, and every child gets it too
/// (rustc and make take their share from it).
static JOBSERVER: std::sync::OnceLock<Option<jobserver::Client>> = std::sync::OnceLock::new();

/// Dies quietly on a closed pipe (`rkbuild config --explain | head`), like other Unix tools;
/// children start with the default disposition too. Call it before any thread starts.
pub fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: resetting a signal disposition to its default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Connects to make's jobserver, if the environment names one. Call it first thing, before
/// any file is opened (the jobserver's descriptors are inherited numbers).
pub fn init_jobserver() {
    // SAFETY: called at start-up, when the descriptors MAKEFLAGS names are still make's.
    JOBSERVER.get_or_init(|| unsafe { jobserver::Client::from_env() });
}

/// make's jobserver, once [`init_jobserver`] found one.
pub fn jobserver() -> Option<&'static jobserver::Client> {
    JOBSERVER.get().and_then(Option::as_ref)
}

#[derive(Clone, Debug, Default)]
pub struct Process {
    program: OsString,
    args: Vec<OsString>,
    env: Vec<(OsString, Option<OsString>)>,
    cwd: Option<PathBuf>,
    stdin: Option<Vec<u8>>,
}

/// What a finished process left behind.
#[derive(Clone, Debug)]
pub struct Output {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    pub fn success(&self) -> bool {
        self.status.success()
    }

    /// The last `n` lines of what it printed (stdout, then stderr): for error messages.
    pub fn tail(&self, n: usize) -> String {
        let text = format!("{}{}", self.stdout, self.stderr);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(n)..].join("\n")
    }
}

impl Process {
    pub fn new(program: impl AsRef<OsStr>) -> Process {
        Process {
            program: program.as_ref().to_owned(),
            ..Process::default()
        }
    }

    pub fn arg(mut self, a: impl AsRef<OsStr>) -> Process {
        self.args.push(a.as_ref().to_owned());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Process
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    pub fn env(mut self, k: impl AsRef<OsStr>, v: impl AsRef<OsStr>) -> Process {
        self.env
            .push((k.as_ref().to_owned(), Some(v.as_ref().to_owned())));
        self
    }

    pub fn env_remove(mut self, k: impl AsRef<OsStr>) -> Process {
        self.env.push((k.as_ref().to_owned(), None));
        self
    }

    pub fn cwd(mut self, dir: impl AsRef<Path>) -> Process {
        self.cwd = Some(dir.as_ref().to_owned());
        self
    }

    pub fn stdin_bytes(mut self, input: impl Into<Vec<u8>>) -> Process {
        self.stdin = Some(input.into());
        self
    }

    pub fn program(&self) -> &OsStr {
        &self.program
    }

    pub fn get_args(&self) -> &[OsString] {
        &self.args
    }

    fn command(&self) -> Command {
        let mut c = Command::new(&self.program);
        c.args(&self.args);
        for (k, v) in &self.env {
            match v {
                Some(v) => c.env(k, v),
                None => c.env_remove(k),
            };
        }
        if let Some(d) = &self.cwd {
            c.current_dir(d);
        }
        if let Some(j) = jobserver() {
            j.configure(&mut c);
        }
        c
    }

    /// Runs to completion, capturing stdout and stderr (LC_ALL=C, as Kbuild's probes do, so
    /// version lines parse the same everywhere).
    pub fn output(&self) -> anyhow::Result<Output> {
        let mut c = self.command();
        c.env("LC_ALL", "C")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        dies_with_parent(&mut c);
        let mut child = c
            .spawn()
            .with_context(|| format!("cannot run `{}`", self.program.to_string_lossy()))?;
        if let Some(input) = &self.stdin {
            let mut sin = child.stdin.take().expect("piped");
            // A child that exits without reading its stdin is not an error here.
            let _ = sin.write_all(input);
        }
        let out = child
            .wait_with_output()
            .with_context(|| format!("waiting for `{self}`"))?;
        Ok(Output {
            status: out.status,
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }

    /// [`Process::output`] of a probe whose answer depends only on the files it names (a
    /// tool's `--version`, a kernel script run on a tool): kept across runs in the cache
    /// folder ([`remembered`]), keyed by the command, its environment, PATH and the identity
    /// (path, size, modification time) of the program and of every argument that names a file
    /// or a program on PATH. A warm `rkbuild config` so starts no process. Rustup's proxies
    /// choose their toolchain when run: one run as the program is always run.
    pub fn output_remembered(&self) -> anyhow::Result<Output> {
        let Some(key) = self.memo_key() else {
            return self.output();
        };
        if let Some(o) = remembered::get(&key) {
            return Ok(o);
        }
        let o = self.output()?;
        remembered::put(key, &o);
        Ok(o)
    }

    fn memo_key(&self) -> Option<String> {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut key = format!("PATH={}\n", path.to_string_lossy());
        for (k, v) in &self.env {
            let v = v.as_ref().map(|v| v.to_string_lossy());
            key.push_str(&format!("{}={v:?}\n", k.to_string_lossy()));
        }
        if let Some(d) = &self.cwd {
            key.push_str(&format!("cwd {}\n", d.display()));
        }
        if let Some(i) = &self.stdin {
            key.push_str(&format!("stdin {}\n", crate::cache::key::digest(i)));
        }
        for (i, w) in std::iter::once(&self.program).chain(&self.args).enumerate() {
            key.push_str(&w.to_string_lossy());
            match named_file(w) {
                Named::Nothing => {}
                // The program itself a rustup proxy: not remembered. (A proxy named as an
                // argument, as in `min-tool-version.sh rustc`, is only a name there.)
                Named::File { proxy: true, .. } if i == 0 => return None,
                Named::File { identity, .. } => key.push_str(&format!(" [{}]", identity?)),
            }
            key.push('\n');
        }
        Some(key)
    }

    /// Runs with inherited stdio (for the wrapper and for `make`), returning the status.
    pub fn status_inherit(&self) -> anyhow::Result<ExitStatus> {
        self.command()
            .status()
            .with_context(|| format!("cannot run `{}`", self.program.to_string_lossy()))
    }

    /// As [`Process::status_inherit`], but this process ignores SIGINT and SIGQUIT while it
    /// waits, as `system(3)` does: a Ctrl-C reaches the whole foreground process group, and
    /// the caller must outlive the child to finish its work (the wrapper's log line). The
    /// child starts with the dispositions this process had.
    #[cfg(unix)]
    pub fn status_inherit_shielded(&self) -> anyhow::Result<ExitStatus> {
        use std::os::unix::process::CommandExt as _;
        const SIGNALS: [libc::c_int; 2] = [libc::SIGINT, libc::SIGQUIT];
        // SAFETY: signal(2) only swaps dispositions; it is async-signal-safe, so the child may
        // call it between fork and exec.
        let old = SIGNALS.map(|s| unsafe { libc::signal(s, libc::SIG_IGN) });
        let mut c = self.command();
        unsafe {
            c.pre_exec(move || {
                for (s, h) in SIGNALS.iter().zip(old) {
                    libc::signal(*s, h);
                }
                Ok(())
            });
        }
        let r = c.status();
        for (s, h) in SIGNALS.iter().zip(old) {
            // SAFETY: as above.
            unsafe { libc::signal(*s, h) };
        }
        r.with_context(|| format!("cannot run `{}`", self.program.to_string_lossy()))
    }

    /// Replaces the current process image (Unix `exec`); returns only on failure.
    #[cfg(unix)]
    pub fn exec_replace(&self) -> std::io::Error {
        use std::os::unix::process::CommandExt as _;
        self.command().exec()
    }
}

/// A child that dies with this process: a killed rkbuild leaves no compiler behind still
/// writing into the object tree (and racing the next build for rustc's temporary files).
/// Linux's parent-death signal; the child runs on the thread that waits for it, so it is the
/// process's end, not a thread's, that sends it.
#[cfg(target_os = "linux")]
fn dies_with_parent(c: &mut Command) {
    use std::os::unix::process::CommandExt as _;
    // SAFETY: getpid is async-signal-safe.
    let parent = unsafe { libc::getpid() };
    // SAFETY: prctl, getppid and _exit are async-signal-safe, as pre_exec requires.
    unsafe {
        c.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent may have died before the signal was set.
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn dies_with_parent(_: &mut Command) {}

/// Shell-style display, quoting words that need it (for `-v` and error messages).
impl fmt::Display for Process {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.env {
            if let Some(v) = v {
                write!(
                    f,
                    "{}={} ",
                    k.to_string_lossy(),
                    shell_quote(&v.to_string_lossy())
                )?;
            }
        }
        write!(f, "{}", shell_quote(&self.program.to_string_lossy()))?;
        for a in &self.args {
            write!(f, " {}", shell_quote(&a.to_string_lossy()))?;
        }
        Ok(())
    }
}

/// Quotes a word for a POSIX shell when it holds anything but safe characters.
pub fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,@+%^".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// `name` found in PATH (searched as from `/`), looked up once per process: a warm
/// `config -S` asked for the same few names (`sh`, `rustc`, `gcc` …) some 300 times, each a
/// stat per PATH folder.
pub fn which(name: &OsStr) -> Option<PathBuf> {
    static FOUND: Mutex<Option<HashMap<OsString, Option<PathBuf>>>> = Mutex::new(None);
    let mut found = FOUND.lock().unwrap_or_else(|e| e.into_inner());
    found
        .get_or_insert_with(HashMap::new)
        .entry(name.to_os_string())
        .or_insert_with(|| {
            let path = std::env::var_os("PATH").unwrap_or_default();
            which::which_in(name, Some(path), "/").ok()
        })
        .clone()
}

/// What a word of a probe's command names, for its key.
#[derive(Clone)]
enum Named {
    Nothing,
    /// A file (as given with a `/`, else found in PATH): whether it is a rustup proxy, and its
    /// identity (`None`: it changed while being read; the probe is then not remembered).
    File {
        proxy: bool,
        identity: Option<String>,
    },
}

/// [`Named`] for `w`, once per process.
fn named_file(w: &OsStr) -> Named {
    static SEEN: Mutex<Option<HashMap<OsString, Named>>> = Mutex::new(None);
    let seen = || SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = seen().as_ref().and_then(|s| s.get(w).cloned()) {
        return n;
    }
    let named = Path::new(w);
    let file = if w.to_string_lossy().contains('/') {
        named.is_file().then(|| named.to_path_buf())
    } else {
        which(w)
    };
    let n = match file {
        None => Named::Nothing,
        Some(f) => match std::fs::canonicalize(&f) {
            Ok(real) => Named::File {
                proxy: is_rustup_proxy(&f, &real),
                identity: crate::fsutil::identity(&real),
            },
            Err(_) => Named::File {
                proxy: false,
                identity: None,
            },
        },
    };
    seen()
        .get_or_insert_with(HashMap::new)
        .insert(w.to_os_string(), n.clone());
    n
}

/// Whether `path` (resolving to `real`) is a rustup proxy, which picks its toolchain each
/// time it runs: its answers are never kept.
pub fn is_rustup_proxy(path: &Path, real: &Path) -> bool {
    path.to_string_lossy().contains("/.cargo/bin/")
        || real.file_name().is_some_and(|n| n == "rustup")
}
/// The answers [`Process::output_remembered`] keeps: `probe-answers.json` in the cache folder,
/// read once per run and written (atomically) when an answer is added. Several rkbuilds at
/// once may each drop the other's new answers; that only means asking again.
mod remembered {
    use std::collections::BTreeMap;
    use std::sync::Mutex;

    use super::Output;

    #[derive(Clone, serde::Serialize, serde::Deserialize)]
    struct Answer {
        status: i32,
        stdout: String,
        stderr: String,
    }

    /// Past this many answers the file starts again (old tools' answers pile up otherwise).
    const MOST: usize = 4096;

    static ANSWERS: Mutex<Option<BTreeMap<String, Answer>>> = Mutex::new(None);

    fn file() -> Option<std::path::PathBuf> {
        crate::fsutil::cache_dir().map(|d| d.join("probe-answers.json"))
    }

    fn with<T>(f: impl FnOnce(&mut BTreeMap<String, Answer>) -> T) -> T {
        let mut g = ANSWERS.lock().unwrap_or_else(|e| e.into_inner());
        let map = g.get_or_insert_with(|| {
            file()
                .and_then(|f| std::fs::read(f).ok())
                .and_then(|b| serde_json::from_slice(&b).ok())
                .unwrap_or_default()
        });
        f(map)
    }

    pub(super) fn get(key: &str) -> Option<Output> {
        use std::os::unix::process::ExitStatusExt as _;
        with(|m| m.get(key).cloned()).map(|a| Output {
            status: std::process::ExitStatus::from_raw(a.status),
            stdout: a.stdout,
            stderr: a.stderr,
        })
    }

    pub(super) fn put(key: String, o: &Output) {
        use std::os::unix::process::ExitStatusExt as _;
        let bytes = with(|m| {
            if m.len() >= MOST {
                m.clear();
            }
            m.insert(
                key,
                Answer {
                    status: o.status.into_raw(),
                    stdout: o.stdout.clone(),
                    stderr: o.stderr.clone(),
                },
            );
            serde_json::to_vec(m).ok()
        });
        if let (Some(f), Some(b)) = (file(), bytes) {
            // Best effort: an answer not kept is asked again next time.
            let _ = crate::fsutil::write_if_changed(&f, &b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_captures() {
        let o = Process::new("sh")
            .args(["-c", "cat; echo err >&2; exit 3"])
            .stdin_bytes("in")
            .output()
            .unwrap();
        assert_eq!(o.stdout, "in");
        assert_eq!(o.stderr, "err\n");
        assert_eq!(o.status.code(), Some(3));
    }

    #[test]
    fn display_quotes_what_needs_it() {
        let p = Process::new("rustc")
            .env("RUST_MODFILE", "a b")
            .args(["-Cx=y", "it's"]);
        assert_eq!(p.to_string(), r"RUST_MODFILE='a b' rustc -Cx=y 'it'\''s'");
    }

    #[test]
    fn missing_program_is_named() {
        let e = Process::new("/nonexistent/tool").output().unwrap_err();
        assert!(format!("{e:#}").contains("/nonexistent/tool"));
    }
}

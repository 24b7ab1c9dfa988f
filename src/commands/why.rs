//! `rkbuild why CONFIG_X`: why a symbol has its value or cannot be enabled, from the tree's
//! Kconfig, the `.config` and the detected toolchain.

use anyhow::bail;

use super::{BuildContext, Tree, TreeOpts};
use crate::kconfig::eval::Eval;
use crate::kconfig::explain::Why;
use crate::kconfig::session::Session;
use crate::kconfig::tree::has_kconfig;

#[derive(Debug, serde::Serialize)]
pub struct WhyReport {
    pub why: Why,
    /// Kconfig files read, symbols defined, parse time.
    pub files: usize,
    pub symbols: usize,
    pub parse_ms: u128,
    /// Probes run now (the rest came from the cache).
    pub probes_run: usize,
}

/// Strips `CONFIG_` and checks the name.
pub fn symbol_name(arg: &str) -> anyhow::Result<String> {
    let name = arg.strip_prefix("CONFIG_").unwrap_or(arg);
    if !crate::kconfig::dotconfig::is_symbol_name(name) {
        bail!(
            "`{arg}` is not a Kconfig symbol name\n  fix: pass a name such as CONFIG_RUST or RUST"
        );
    }
    Ok(name.to_string())
}

/// What `rkbuild why --all` found: every value kconfig would write to auto.conf.
#[derive(Debug, serde::Serialize)]
pub struct AllReport {
    pub values: Vec<(String, String)>,
    /// The tree came from the parse cache.
    pub parse_cached: bool,
    pub files: usize,
    pub symbols: usize,
    pub parse_ms: u128,
    pub eval_ms: u128,
    pub probes_run: usize,
}

fn open(opts: &TreeOpts) -> anyhow::Result<(Tree, Session)> {
    let mut bc = BuildContext::open(opts)?;
    let Some(srctree) = bc.tree.srctree.clone().filter(|s| has_kconfig(s)) else {
        bail!(
            "`rkbuild why` needs the kernel source tree to read its Kconfig\n  fix: pass --srctree (-S) pointing at the top of the kernel tree"
        );
    };
    let session = bc.kconfig(&srctree)?;
    Ok((bc.tree, session))
}

/// Evaluates the whole tree for the `.config` (what `make olddefconfig` computes).
pub fn run_all(opts: &TreeOpts) -> anyhow::Result<AllReport> {
    let (tree, session) = open(opts)?;
    let start = std::time::Instant::now();
    session.x.prefetch(|| {
        Eval::new(&session.kc, &tree.cfg, &session.x).auto_conf();
    });
    let ev = Eval::new(&session.kc, &tree.cfg, &session.x);
    let values = ev.auto_conf();
    let eval_ms = start.elapsed().as_millis();
    drop(ev);
    let report = AllReport {
        values,
        parse_cached: session.kc.cached,
        files: session.kc.files,
        symbols: session.kc.defined_symbols(),
        parse_ms: session.kc.parse_time.as_millis(),
        eval_ms,
        probes_run: *session.x.ran.borrow(),
    };
    session.finish();
    Ok(report)
}

pub fn run(opts: &TreeOpts, symbol: &str) -> anyhow::Result<WhyReport> {
    let name = symbol_name(symbol)?;
    let (tree, session) = open(opts)?;
    session.x.prefetch(|| {
        Eval::new(&session.kc, &tree.cfg, &session.x).why(&name, 0);
    });
    let ev = Eval::new(&session.kc, &tree.cfg, &session.x);
    let why = ev.why(&name, 0);
    drop(ev);
    let report = WhyReport {
        why,
        files: session.kc.files,
        symbols: session.kc.defined_symbols(),
        parse_ms: session.kc.parse_time.as_millis(),
        probes_run: *session.x.ran.borrow(),
    };
    session.finish();
    Ok(report)
}

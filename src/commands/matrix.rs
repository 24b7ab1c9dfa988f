//! `rkbuild matrix`: several configurations × architectures × compilers in one command, each
//! cell built in its own object tree under one root, all sharing the step cache, several
//! cells at once within `-j`. A failing cell does not stop the others; the report says, per
//! cell, how it ended, how many steps ran and came from the cache, and its wall time.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use super::build::{self, BuildOpts};
use super::TreeOpts;
use crate::output::Out;

/// One cell: a configuration, maybe an arch, maybe a compiler (`PATH` or `PATH=LIB_SRC`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Cell {
    pub name: String,
    pub config: PathBuf,
    pub arch: Option<String>,
    pub rustc: Option<String>,
    pub objtree: PathBuf,
}

/// How a cell ended.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CellReport {
    pub cell: Cell,
    pub ok: bool,
    /// The first line of the error, for a failed cell.
    pub error: Option<String>,
    pub built: usize,
    /// Of the steps built, those that ran a tool (rustc, bindgen, the C compiler); the rest
    /// are rkbuild's own (exports headers).
    pub compiled: usize,
    pub cached: usize,
    pub fresh: usize,
    pub wall_ms: u64,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct MatrixReport {
    pub cells: Vec<CellReport>,
    pub wall_ms: u64,
    /// Steps from the cache over the steps that ran a tool or came from the cache.
    pub hit_rate: f64,
}

/// The cells of configs × arches × rustcs (an empty list of arches or rustcs: the default).
pub fn cells(root: &Path, configs: &[PathBuf], arches: &[String], rustcs: &[String]) -> Vec<Cell> {
    let opt = |v: &[String]| -> Vec<Option<String>> {
        if v.is_empty() {
            vec![None]
        } else {
            v.iter().cloned().map(Some).collect()
        }
    };
    let mut out = vec![];
    for c in configs {
        let stem = c
            .file_name()
            .map(|n| n.to_string_lossy().replace(".config", ""))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "config".into());
        for a in opt(arches) {
            for (i, r) in opt(rustcs).into_iter().enumerate() {
                let mut name = stem.clone();
                if let Some(a) = &a {
                    name.push_str(&format!("-{a}"));
                }
                if r.is_some() && rustcs.len() > 1 {
                    name.push_str(&format!("-rustc{i}"));
                }
                // Two configurations of the same file name stay apart.
                while out.iter().any(|c: &Cell| c.name == name) {
                    name.push('_');
                }
                out.push(Cell {
                    objtree: root.join(&name),
                    name,
                    config: c.clone(),
                    arch: a.clone(),
                    rustc: r,
                });
            }
        }
    }
    out
}

/// Builds every cell; `jobs` is shared: as many cells run at once, one step each.
pub fn run(base: &BuildOpts, cells: Vec<Cell>, jobs: usize) -> MatrixReport {
    let t0 = Instant::now();
    let queue = Mutex::new(cells.into_iter().enumerate().collect::<Vec<_>>());
    let done: Mutex<Vec<(usize, CellReport)>> = Mutex::new(vec![]);
    let workers = jobs.max(1);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let Some((i, cell)) = queue.lock().expect("queue").pop() else {
                    break;
                };
                let r = build_cell(base, cell);
                done.lock().expect("reports").push((i, r));
            });
        }
    });
    let mut cells: Vec<(usize, CellReport)> = done.into_inner().expect("reports");
    cells.sort_by_key(|(i, _)| *i);
    let cells: Vec<CellReport> = cells.into_iter().map(|(_, r)| r).collect();
    let (hits, ran): (usize, usize) = cells
        .iter()
        .map(|c| (c.cached, c.cached + c.compiled))
        .fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
    MatrixReport {
        hit_rate: if ran == 0 {
            0.0
        } else {
            hits as f64 / ran as f64
        },
        cells,
        wall_ms: t0.elapsed().as_millis() as u64,
    }
}

fn build_cell(base: &BuildOpts, cell: Cell) -> CellReport {
    let t = Instant::now();
    let mut tree: TreeOpts = base.tree.clone();
    tree.config = Some(cell.config.clone());
    tree.objtree = Some(cell.objtree.clone());
    tree.arch = cell.arch.clone().or(tree.arch);
    if let Some(r) = &cell.rustc {
        let (rustc, lib) = match r.split_once('=') {
            Some((r, l)) => (r.to_string(), Some(PathBuf::from(l))),
            None => (r.clone(), None),
        };
        tree.tools.rustc = Some(rustc);
        if lib.is_some() {
            tree.tools.rust_lib_src = lib;
        }
    }
    let opts = BuildOpts {
        tree,
        jobs: Some(1),
        prepare_c: true,
        ..base.clone()
    };
    let quiet = Out {
        quiet: true,
        ..Out::default()
    };
    let result = std::fs::create_dir_all(&cell.objtree)
        .map_err(anyhow::Error::from)
        .and_then(|()| build::run(&opts, quiet));
    let wall_ms = t.elapsed().as_millis() as u64;
    match result {
        Ok(s) => CellReport {
            cell,
            ok: true,
            error: None,
            compiled: s
                .steps
                .iter()
                .filter(|r| r.status == crate::exec::Status::Built && r.tool)
                .count(),
            built: s.built,
            cached: s.cached,
            fresh: s.fresh,
            wall_ms,
        },
        Err(e) => CellReport {
            cell,
            ok: false,
            error: Some(
                format!("{e:#}")
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            ),
            built: 0,
            compiled: 0,
            cached: 0,
            fresh: 0,
            wall_ms,
        },
    }
}

/// The human table.
pub fn print(r: &MatrixReport) {
    println!(
        "{:<28} {:<7} {:>8} {:>7} {:>6} {:>8}",
        "cell", "result", "compiled", "cached", "fresh", "wall"
    );
    for c in &r.cells {
        println!(
            "{:<28} {:<7} {:>8} {:>7} {:>6} {:>7.1}s",
            c.cell.name,
            if c.ok { "ok" } else { "FAILED" },
            c.compiled,
            c.cached,
            c.fresh,
            c.wall_ms as f64 / 1000.0
        );
        if let Some(e) = &c.error {
            println!("    {e}");
        }
    }
    println!(
        "{} cells, {} failed; cache hit rate {:.0}%; wall {:.1}s",
        r.cells.len(),
        r.cells.iter().filter(|c| !c.ok).count(),
        r.hit_rate * 100.0,
        r.wall_ms as f64 / 1000.0
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_the_product_with_their_own_folders() {
        let c = cells(
            Path::new("/m"),
            &[
                PathBuf::from("a/x86_64.config"),
                PathBuf::from("b/x86_64.config"),
            ],
            &["x86_64".into(), "arm64".into()],
            &[],
        );
        let names: Vec<&str> = c.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "x86_64-x86_64",
                "x86_64-arm64",
                "x86_64-x86_64_",
                "x86_64-arm64_"
            ]
        );
        assert_eq!(c[1].objtree, Path::new("/m/x86_64-arm64"));
        assert!(c.iter().all(|c| c.rustc.is_none()));
    }
}

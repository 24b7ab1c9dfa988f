//! The step graph: externs resolved to the steps that make those crates, checked (unknown
//! crates with a suggestion, cycles shown) and ordered so every step follows what it needs.

use std::collections::HashMap;

use super::{Plan, PlanError, Step, StepKind};

impl Plan {
    /// Resolves externs to steps, checks the graph and orders the steps.
    pub fn finish(mut self) -> Result<Plan, PlanError> {
        let mut by_crate: HashMap<String, String> = HashMap::new();
        let mut ids = std::collections::HashSet::new();
        for s in &self.steps {
            if !ids.insert(s.id.clone()) {
                return Err(PlanError::Duplicate(s.id.clone()));
            }
            if let (Some(name), StepKind::Library | StepKind::ProcMacro | StepKind::HostLibrary) =
                (&s.crate_name, s.kind)
            {
                by_crate.insert(name.clone(), s.id.clone());
            }
        }
        for s in &mut self.steps {
            for e in &s.externs {
                // Sysroot crates the compiler provides itself.
                if matches!(e.as_str(), "proc_macro" | "core" | "alloc") && s.host {
                    continue;
                }
                if self.prebuilt.contains(e) {
                    continue;
                }
                match by_crate.get(e) {
                    Some(id) => {
                        if !s.deps.contains(id) {
                            s.deps.push(id.clone());
                        }
                    }
                    None => {
                        let hint = closest(e, by_crate.keys().map(String::as_str))
                            .map(|c| format!(" (did you mean `{c}`?)"))
                            .unwrap_or_default();
                        return Err(PlanError::UnknownExtern {
                            step: s.id.clone(),
                            name: e.clone(),
                            hint,
                        });
                    }
                }
            }
            for d in &s.deps {
                if !ids.contains(d) {
                    return Err(PlanError::UnknownExtern {
                        step: s.id.clone(),
                        name: d.clone(),
                        hint: String::new(),
                    });
                }
            }
        }
        self.steps = topo_order(std::mem::take(&mut self.steps))?;
        Ok(self)
    }

    /// The plan cut down to `targets` and the steps they need (`rkbuild build rust/kernel.o`).
    pub fn only(mut self, targets: &[String]) -> Result<Plan, PlanError> {
        let mut keep: std::collections::HashSet<String> = Default::default();
        let mut todo: Vec<String> = vec![];
        for t in targets {
            let t = t.trim_start_matches("./");
            // A folder (`rust/`), as Kbuild's `make rust/`: every step whose output is in it.
            if t.ends_with('/') {
                let inside: Vec<String> = self
                    .steps
                    .iter()
                    .filter(|s| s.id.starts_with(t))
                    .map(|s| s.id.clone())
                    .collect();
                if inside.is_empty() {
                    return Err(PlanError::Unsupported(format!(
                        "no step makes anything in `{t}`\n  fix: `rkbuild plan` lists the steps and what they make"
                    )));
                }
                todo.extend(inside);
                continue;
            }
            if self.step(t).is_none() {
                let hint = closest(t, self.steps.iter().map(|s| s.id.as_str()))
                    .map(|c| format!(" (did you mean `{c}`?)"))
                    .unwrap_or_default();
                return Err(PlanError::Unsupported(format!(
                    "no step makes `{t}`{hint}\n  fix: `rkbuild plan` lists the steps and what they make"
                )));
            }
            todo.push(t.to_string());
        }
        while let Some(id) = todo.pop() {
            if keep.insert(id.clone()) {
                if let Some(s) = self.step(&id) {
                    todo.extend(s.deps.iter().cloned());
                }
            }
        }
        self.steps.retain(|s| keep.contains(&s.id));
        Ok(self)
    }

    pub fn step(&self, id: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.id == id)
    }
}

/// Kahn's algorithm, keeping the given order among ready steps; a leftover is a cycle.
fn topo_order(steps: Vec<Step>) -> Result<Vec<Step>, PlanError> {
    let index: HashMap<&str, usize> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.as_str(), i))
        .collect();
    let mut missing: Vec<usize> = steps.iter().map(|s| s.deps.len()).collect();
    let mut users: Vec<Vec<usize>> = vec![vec![]; steps.len()];
    for (i, s) in steps.iter().enumerate() {
        for d in &s.deps {
            users[index[d.as_str()]].push(i);
        }
    }
    let mut order = vec![];
    let mut ready: std::collections::BTreeSet<usize> =
        (0..steps.len()).filter(|&i| missing[i] == 0).collect();
    while let Some(i) = ready.pop_first() {
        order.push(i);
        for &u in &users[i] {
            missing[u] -= 1;
            if missing[u] == 0 {
                ready.insert(u);
            }
        }
    }
    if order.len() != steps.len() {
        // Walk the dependencies of a step left over until one repeats: that is the cycle.
        let left: Vec<usize> = (0..steps.len()).filter(|i| missing[*i] > 0).collect();
        let mut path = vec![left[0]];
        loop {
            let cur = *path.last().unwrap();
            let next = steps[cur]
                .deps
                .iter()
                .map(|d| index[d.as_str()])
                .find(|d| missing[*d] > 0)
                .expect("a step in a cycle waits on another");
            if let Some(p) = path.iter().position(|&x| x == next) {
                let names: Vec<String> = path[p..]
                    .iter()
                    .chain(std::iter::once(&next))
                    .map(|&i| {
                        steps[i]
                            .crate_name
                            .clone()
                            .unwrap_or_else(|| steps[i].id.clone())
                    })
                    .collect();
                return Err(PlanError::Cycle(names.join(" → ")));
            }
            path.push(next);
        }
    }
    let mut slots: Vec<Option<Step>> = steps.into_iter().map(Some).collect();
    Ok(order
        .into_iter()
        .map(|i| slots[i].take().expect("each once"))
        .collect())
}

/// The known name closest to a misspelt one (edit distance ≤ 2).
pub fn closest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    fn dist(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut cur = vec![i + 1];
            for (j, cb) in b.iter().enumerate() {
                cur.push(
                    (prev[j] + usize::from(ca != *cb))
                        .min(prev[j + 1] + 1)
                        .min(cur[j] + 1),
                );
            }
            prev = cur;
        }
        prev[b.len()]
    }
    known
        .map(|k| (dist(name, k), k))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, k)| k)
}

//! The C parts of composite Rust modules (`rust_print-y := rust_print_main.o
//! rust_print_events.o`), compiled with the kernel's C compiler as `cmd_cc_o_c` does: the
//! kernel's C flags as make recorded them, then the folder's and the object's own
//! ([`super::kbuild::folder_c_flags`]), the sanitizers of a kernel object, `-I$(src) -I$(obj)`,
//! and KBUILD_CFLAGS_KERNEL or _MODULE. A composite that is a C subsystem with a Rust file in
//! it (drm with `drm_panic_qr.o`) is left to the kernel's make, and the plan says so.

use super::kbuild::{folder_c_flags, Composite, PartLang, Skipped, Spelling};
use super::rust_dir::{base_vars, kernel_object_c_flags, objtool};
use super::{Command, Inputs, Step, StepKind};
use crate::layout::{expand, CPartDesc};
use crate::makefile::filter_out;
use crate::mapping::ObjKind;

/// The steps for a composite's C parts, and the parts left to make (with why).
pub(super) fn steps(inp: &Inputs, comp: &Composite) -> anyhow::Result<(Vec<Step>, Vec<Skipped>)> {
    let ctx = inp.ctx;
    let rust = comp
        .parts
        .iter()
        .filter(|p| p.lang == PartLang::Rust)
        .count();
    let others: Vec<_> = comp
        .parts
        .iter()
        .filter(|p| p.lang != PartLang::Rust)
        .collect();
    if others.is_empty() {
        return Ok((vec![], vec![]));
    }
    let skip = |obj: &str, why: String| Skipped {
        obj: obj.to_string(),
        symbol: comp.symbol.clone().unwrap_or_default(),
        listed_at: comp.listed_at.clone(),
        why: Some(why),
    };
    let c = others.iter().filter(|p| p.lang == PartLang::C).count();
    let desc = match &ctx.vintage.c_part {
        Some(d) => d,
        None => {
            let why = format!(
                "its {} C part(s) are left to the kernel's make: the {} layout compiles no C parts",
                others.len(),
                ctx.vintage
            );
            return Ok((vec![], vec![skip(&comp.obj, why)]));
        }
    };
    if c > desc.max_c_per_rust * rust {
        let why = format!(
            "a C object with {rust} Rust part(s) and {c} C parts: its C parts are the kernel's C side, built by make"
        );
        return Ok((vec![], vec![skip(&comp.obj, why)]));
    }
    let cc = match &inp.cc {
        Some(cc) => cc,
        None => {
            let why = "its C parts wait for the kernel's C flags (make prepares the C side first)";
            return Ok((vec![], vec![skip(&comp.obj, why.into())]));
        }
    };
    if let Some(s) = desc.refuse_config.iter().find(|s| ctx.cfg.enabled(s)) {
        let why = format!(
            "CONFIG_{s} adds per-object C flags rkbuild does not know yet: its C parts are left to the kernel's make"
        );
        return Ok((vec![], vec![skip(&comp.obj, why)]));
    }
    let (mut out, mut skipped) = (vec![], vec![]);
    for p in others {
        match (&p.lang, &p.src) {
            (PartLang::C, Some(src)) => {
                match c_step(inp, desc, cc, comp, &tree_place(inp, desc, &p.obj, src)) {
                    Ok(s) => out.push(s),
                    Err(why) => skipped.push(skip(&p.obj, why)),
                }
            }
            _ => skipped.push(skip(
                &p.obj,
                "not C (assembly, or made by a rule): left to the kernel's make".into(),
            )),
        }
    }
    Ok((out, skipped))
}

/// Kbuild's `name-fix-token`: `-` and `,` become `_`.
fn name_fix(s: &str) -> String {
    s.replace(['-', ','], "_")
}

/// The kernel's recorded C flags, split around the folder's `-I` pair the recording had:
/// KBUILD_CPPFLAGS and KBUILD_CFLAGS before, KBUILD_CFLAGS_KERNEL after.
fn split_recorded<'a>(flags: &'a [String], srctree: &str) -> (&'a [String], &'a [String]) {
    let folder = format!("-I{srctree}/rust");
    match flags.iter().position(|f| *f == folder) {
        Some(i) => {
            let after = if flags.get(i + 1).map(String::as_str) == Some("-Irust") {
                i + 2
            } else {
                i + 1
            };
            (&flags[..i], &flags[after..])
        }
        None => (flags, &[]),
    }
}

/// Where a C part is, and how its command spells it.
pub(super) struct CPlace {
    /// The root the makefiles were read from (the source tree, or an external module's folder).
    pub root: std::path::PathBuf,
    /// The part's folder under the root, with a `/` (`samples/rust/`; empty for the root).
    pub folder: String,
    /// The root's own makefile counts (an external module's folder).
    pub root_is_folder: bool,
    /// The object and the C file, as the command spells them.
    pub obj: String,
    pub input: String,
    /// `$(obj)` of the part's folder, as the command spells it.
    pub obj_dir: String,
    /// `$(src)` of a folder (relative to the root, no `/`; empty for the root), as the
    /// command spells it.
    pub src_of: Box<dyn Fn(&str) -> String>,
    /// Whether Makefile.lib adds `-I$(src) -I$(obj)` (an `O=` build of the tree itself).
    pub src_obj_includes: bool,
    /// Recorded flags this place's commands lack.
    pub remove: Vec<String>,
    /// What `./` in the recorded flags' `-I./…` becomes (an external module built in its own
    /// folder sees the object tree by its absolute path).
    pub objtree: Option<String>,
}

/// A part of the tree itself, as `make O=` spells it.
fn tree_place(inp: &Inputs, desc: &CPartDesc, obj: &str, src: &str) -> CPlace {
    let ctx = inp.ctx;
    let dir = obj.rsplit_once('/').map(|(d, _)| d).unwrap_or(".");
    let mut v = base_vars(inp);
    v.set("srctree", ctx.srctree.clone());
    let template = desc.src.clone();
    CPlace {
        root: inp.srctree.to_path_buf(),
        folder: format!("{dir}/"),
        root_is_folder: false,
        obj: obj.to_string(),
        input: format!("{}/{}", ctx.srctree, src),
        obj_dir: dir.to_string(),
        src_of: Box::new(move |d: &str| {
            let mut w = v.clone();
            w.set("dir", d);
            w.fill(&template).unwrap_or_default()
        }),
        src_obj_includes: ctx.out_of_srctree,
        remove: vec![],
        objtree: None,
    }
}

pub(super) fn c_step(
    inp: &Inputs,
    desc: &CPartDesc,
    cc: &str,
    comp: &Composite,
    at: &CPlace,
) -> Result<Step, String> {
    let ctx = inp.ctx;
    let obj = at.obj.as_str();
    let file = obj.rsplit('/').next().unwrap_or(obj);
    let dir = at.obj_dir.as_str();
    let stem = file.strip_suffix(".o").unwrap_or(file);
    let module = comp.kind == ObjKind::Module;
    let mut v = base_vars(inp);
    v.set("srctree", ctx.srctree.clone()).set("dir", dir);
    let spell = Spelling {
        root_is_folder: at.root_is_folder,
        srctree: &ctx.srctree,
        src: &at.src_of,
    };
    let folder = folder_c_flags(
        &at.root,
        ctx.cfg,
        &at.folder,
        stem,
        &spell,
        &desc.sanitize_var,
    )?;
    let (base, kernel_tail) = split_recorded(&inp.bindgen_c_flags, &ctx.srctree);
    let mut flags: Vec<String> = match &at.objtree {
        Some(o) => base
            .iter()
            .map(|f| match f.strip_prefix("-I./") {
                Some(rest) => format!("-I{o}/{rest}"),
                None => f.clone(),
            })
            .collect(),
        None => base.to_vec(),
    };
    filter_out(&mut flags, &at.remove);
    flags.extend(folder.subdir);
    flags.extend(folder.ccflags);
    filter_out(&mut flags, &folder.ccflags_remove);
    flags.extend(folder.obj);
    filter_out(&mut flags, &folder.obj_remove);
    if folder.sanitize {
        flags.extend(kernel_object_c_flags(ctx));
    }
    if at.src_obj_includes {
        flags.push(format!(
            "-I{}",
            (at.src_of)(at.folder.trim_end_matches('/'))
        ));
        flags.push(format!("-I{dir}"));
    }
    if module {
        flags.extend(desc.module_c_flags.iter().cloned());
        flags.extend(inp.module_c_flags.iter().cloned());
    } else {
        flags.extend(kernel_tail.iter().cloned());
    }
    let modfile = comp.modfile.clone();
    let composite_stem = modfile.rsplit('/').next().unwrap_or(&modfile).to_string();
    v.set("modfile", modfile);
    let modfile_flag = if module {
        vec![]
    } else {
        desc.modfile_flag
            .iter()
            .map(|w| v.fill(w))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("c_part: {e}"))?
    };
    v.set("out_stem", name_fix(stem))
        .set("modname", name_fix(&composite_stem))
        .set("output", obj);
    let depfile = {
        let mut w = v.clone();
        w.set("out_stem", stem);
        w.fill(&desc.depfile).map_err(|e| format!("c_part: {e}"))?
    };
    let input = at.input.clone();
    v.set("input", input.clone())
        .list("c_flags", flags)
        .list("modfile_flag", modfile_flag)
        .list("depfile_flag", vec![format!("-Wp,-MMD,{depfile}")]);
    let args = expand(&desc.args, &v).map_err(|e| format!("c_part: {e}"))?;
    let tag = if module { "CC [M]" } else { "CC" };
    let mut s = Step::new(obj, StepKind::C, tag);
    s.root = Some(input.clone());
    s.outputs = vec![obj.to_string()];
    s.depfile = Some(depfile);
    s.inputs = vec![input];
    s.module = module;
    s.config = comp.symbol.clone();
    s.post.extend(objtool(inp, module, false));
    s.command = Some(Command {
        env: vec![],
        program: cc.to_string(),
        args,
        stdout: None,
    });
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_flags_split_around_the_folder_pair() {
        let f: Vec<String> = [
            "-nostdinc",
            "-O2",
            "-I/s/rust",
            "-Irust",
            "-ffunction-sections",
        ]
        .map(String::from)
        .to_vec();
        let (a, b) = split_recorded(&f, "/s");
        assert_eq!(a, ["-nostdinc", "-O2"]);
        assert_eq!(b, ["-ffunction-sections"]);
        assert_eq!(name_fix("a-b,c"), "a_b_c");
    }
}

//! One architecture's description, `templates/arch/<name>.toml`: the serde types mirror the file
//! one to one, and [`ArchDesc::parse`] checks what serde cannot (gate values, placeholders, a
//! reason for every flag) so a bad file fails when loaded, naming the file and the entry.
//!
//! Reading the flags against a configuration (gates, placeholders, the `why` text) is the
//! mapping's (`targetspec::arch_flags`); this file only says what a description may hold.

use serde::Deserialize;

use crate::layout::{When, X86_CPU};

/// What an architecture's Makefile and rkbuild's target choice say about it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchDesc {
    /// rkbuild's name (`powerpc64le`): reports, plans and `--arch` errors show it.
    pub name: String,
    /// How lists of architectures show it, when not just the name (`x86 (UML)`).
    #[serde(default)]
    pub label: Option<String>,
    /// Kbuild's SRCARCH (the folder under `arch/`).
    pub srcarch: String,
    /// 32 or 64.
    pub bits: u32,
    /// `--arch` spellings that name exactly this architecture.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// `--arch` spellings (kernel ARCH names) that leave the width to the `.config`.
    #[serde(default)]
    pub loose_aliases: Vec<String>,
    /// `BINDGEN_TARGET_$(SRCARCH)`: the clang target bindgen is given.
    pub bindgen_target: String,
    pub select: Select,
    pub target: TargetFacts,
    pub builtin_style: BuiltinStyle,
    /// What `arch/$(SRCARCH)/Makefile` adds to KBUILD_RUSTFLAGS, in order.
    #[serde(default)]
    pub flags: Vec<ArchFlag>,
    /// KBUILD_RUSTFLAGS_KERNEL: objects built into the kernel image.
    #[serde(default)]
    pub kernel_flags: Vec<ArchFlag>,
    /// KBUILD_RUSTFLAGS_MODULE: objects of modules.
    #[serde(default)]
    pub module_flags: Vec<ArchFlag>,
    /// KBUILD_CFLAGS_MODULE: what the Makefile adds to the C flags of module objects (the C
    /// parts of composite Rust modules), in order.
    #[serde(default)]
    pub module_c_flags: Vec<ArchFlag>,
}

/// How a `.config` says it is for this architecture.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Select {
    /// The symbol messages name (`CONFIG_RISCV`); the gate must ask for it.
    pub symbol: String,
    #[serde(default)]
    pub config: Vec<String>,
    #[serde(default)]
    pub config_any: Vec<String>,
}

impl Select {
    pub fn when(&self) -> When {
        When {
            config: self.config.clone(),
            config_any: self.config_any.clone(),
            ..When::default()
        }
    }
}

/// Which target rustc gets.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetFacts {
    /// The kernel's `scripts/generate_rust_target.rs` writes a spec for it (in the layouts with
    /// built-in targets); else a built-in rustc target named in the flags.
    #[serde(default)]
    pub generated_spec: bool,
    /// `templates/targets/<name>.toml`: its custom spec for `--target-style json`, if it has one.
    #[serde(default)]
    pub json_template: Option<String>,
}

/// `--target-style builtin`: rkbuild's own choice of a built-in target, without the Makefile.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuiltinStyle {
    #[serde(default)]
    pub flags: Vec<ArchFlag>,
    /// Why there is none (the message, with its `fix:` line).
    #[serde(default)]
    pub unsupported: Option<String>,
}

/// Arguments the Makefile adds together, under one gate, with why.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchFlag {
    /// `{objtree}`, `{spec}` (the layout's spec path) and `{CONFIG_X}` (X's value) are filled.
    pub args: Vec<String>,
    /// Said after the gate's own reason in `--explain`.
    #[serde(default)]
    pub why: Option<String>,
    #[serde(default)]
    pub rustc_at_least: Option<String>,
    #[serde(default)]
    pub rustc_below: Option<String>,
    #[serde(default)]
    pub config: Vec<String>,
    #[serde(default)]
    pub config_any: Vec<String>,
    /// The layout's `flags.x86_cpu` must be this (the CPU flags of 6.12 and 7.3 differ).
    #[serde(default)]
    pub layout_x86_cpu: Option<String>,
    /// C flags only: written `$(call cc-option,…)`, so kept only when the C compiler takes it
    /// (asked by `toolchain::cc_option`).
    #[serde(default)]
    pub cc_option: bool,
}

impl ArchFlag {
    /// The gate on the configuration and rustc (the layout's part is [`Self::layout_x86_cpu`]).
    pub fn when(&self) -> When {
        When {
            rustc_at_least: self.rustc_at_least.clone(),
            rustc_below: self.rustc_below.clone(),
            config: self.config.clone(),
            config_any: self.config_any.clone(),
            exists: None,
            missing: None,
        }
    }

    /// Whether the layout's answer lets this entry in.
    pub fn layout_allows(&self, x86_cpu: &str) -> bool {
        self.layout_x86_cpu.as_deref().is_none_or(|v| v == x86_cpu)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DescError {
    #[error("{file}: {message}\n  fix: see ARCHITECTURE.md (a new architecture) and templates/arch/x86_64.toml")]
    Parse { file: String, message: String },
    #[error("{file}: {message}")]
    Invalid { file: String, message: String },
}

/// The names of the `{…}` placeholders in a word (unchecked: an unclosed `{` ends the scan).
pub fn placeholders(word: &str) -> impl Iterator<Item = &str> {
    word.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
}

/// Fills every `{name}` of a word with `value(name)`.
pub fn fill(word: &str, value: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(word.len());
    let mut rest = word;
    while let Some((before, after)) = rest.split_once('{') {
        out.push_str(before);
        match after.split_once('}') {
            Some((name, tail)) => {
                out.push_str(&value(name));
                rest = tail;
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn is_symbol(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

fn is_version(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 3 && parts.iter().all(|p| p.parse::<u64>().is_ok())
}

impl ArchDesc {
    /// Parses and checks a description.
    pub fn parse(file: &str, text: &str) -> Result<ArchDesc, DescError> {
        let d = toml::from_str(text).map_err(|e| e.to_string());
        ArchDesc::checked(file, d)
    }

    /// A built-in description in the JSON form `build.rs` made of `file`.
    pub fn parse_json(file: &str, json: &str) -> Result<ArchDesc, DescError> {
        let d = serde_json::from_str(json).map_err(|e| e.to_string());
        ArchDesc::checked(file, d)
    }

    fn checked(file: &str, d: Result<ArchDesc, String>) -> Result<ArchDesc, DescError> {
        let d = d.map_err(|message| DescError::Parse {
            file: file.to_string(),
            message,
        })?;
        d.check().map_err(|message| DescError::Invalid {
            file: file.to_string(),
            message,
        })?;
        Ok(d)
    }

    /// How lists of architectures show it.
    pub fn label(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.name)
    }

    fn check(&self) -> Result<(), String> {
        if self.bits != 32 && self.bits != 64 {
            return Err(format!("bits = {} is not one of 32, 64", self.bits));
        }
        for (what, v) in [
            ("name", &self.name),
            ("srcarch", &self.srcarch),
            ("bindgen_target", &self.bindgen_target),
        ] {
            if v.trim().is_empty() {
                return Err(format!("{what} is empty"));
            }
        }
        if self.aliases.is_empty() && self.loose_aliases.is_empty() {
            return Err("no `aliases`: `--arch` could not name it".into());
        }
        let s = &self.select;
        let terms = s
            .config
            .iter()
            .map(String::as_str)
            .chain(s.config_any.iter().flat_map(|a| a.split("&&")));
        check_terms("select", terms)?;
        let named = s.config.iter().chain(&s.config_any).any(|t| t == &s.symbol);
        if !named {
            return Err(format!(
                "select: symbol = \"{}\" is not asked by `config` or `config_any`",
                s.symbol
            ));
        }
        if self.target.generated_spec && self.srcarch != "x86" {
            return Err(format!(
                "target.generated_spec: rkbuild writes the kernel's generated spec for x86 only, not {}",
                self.srcarch
            ));
        }
        let b = &self.builtin_style;
        if b.unsupported.is_some() != b.flags.is_empty() {
            return Err("builtin_style: give either `flags` or `unsupported`".into());
        }
        let lists = [
            ("flags", &self.flags, &["objtree", "spec"][..], true),
            ("kernel_flags", &self.kernel_flags, &[][..], true),
            ("module_flags", &self.module_flags, &[][..], true),
            ("builtin_style.flags", &b.flags, &[][..], false),
        ];
        for (list, entries, names, layout_gate) in lists {
            for (i, e) in entries.iter().enumerate() {
                check_flag(e, names, layout_gate).map_err(|m| {
                    let first = e.args.first().map(String::as_str).unwrap_or("");
                    format!("{list}[{i}] (`{first}`): {m}")
                })?;
            }
        }
        Ok(())
    }
}

fn check_terms<'a>(what: &str, terms: impl Iterator<Item = &'a str>) -> Result<(), String> {
    for t in terms {
        let name = t.trim().trim_start_matches('!').trim();
        if !is_symbol(name) {
            return Err(format!(
                "{what}: `{t}` is not a symbol (write it without CONFIG_, `!X` for not set)"
            ));
        }
    }
    Ok(())
}

fn check_flag(e: &ArchFlag, names: &[&str], layout_gate: bool) -> Result<(), String> {
    if e.args.is_empty() {
        return Err("no args".into());
    }
    for a in &e.args {
        if a.matches('{').count() != a.matches('}').count() {
            return Err(format!("unbalanced braces in `{a}`"));
        }
        for p in placeholders(a) {
            let config = p.strip_prefix("CONFIG_").is_some_and(is_symbol);
            if !config && !names.contains(&p) {
                let mut known: Vec<&str> = names.to_vec();
                known.push("CONFIG_<symbol>");
                return Err(format!(
                    "unknown placeholder `{{{p}}}` in `{a}` (known here: {})",
                    known.join(", ")
                ));
            }
        }
    }
    for v in [&e.rustc_at_least, &e.rustc_below].into_iter().flatten() {
        if !is_version(v) {
            return Err(format!("rustc version `{v}` is not MAJOR.MINOR.PATCH"));
        }
    }
    let terms = e
        .config
        .iter()
        .map(String::as_str)
        .chain(e.config_any.iter().flat_map(|a| a.split("&&")));
    check_terms("config", terms)?;
    if let Some(v) = &e.layout_x86_cpu {
        if !layout_gate {
            return Err("layout_x86_cpu: the built-in style has no layout to ask".into());
        }
        if !X86_CPU.contains(&v.as_str()) {
            return Err(format!(
                "layout_x86_cpu = \"{v}\" is not one of {}",
                X86_CPU.join(", ")
            ));
        }
    }
    let gated = e.rustc_at_least.is_some()
        || e.rustc_below.is_some()
        || !e.config.is_empty()
        || !e.config_any.is_empty();
    if !gated && e.why.is_none() {
        return Err("no `why` and no gate: --explain would have nothing to say".into());
    }
    Ok(())
}

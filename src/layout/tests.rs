//! The built-in layouts load, and a layout's questions answer from its data.

use super::*;

struct F {
    rustc: (u64, u64, u64),
    on: Vec<&'static str>,
}

impl Facts for F {
    fn rustc(&self) -> (u64, u64, u64) {
        self.rustc
    }
    fn on(&self, name: &str) -> bool {
        self.on.contains(&name)
    }
    fn exists(&self, _: &str) -> bool {
        false
    }
}

#[test]
fn builtins_load_newest_first() {
    let names: Vec<&str> = Layout::all().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["7.3", "6.12", "2021"]);
    assert_eq!(Layout::newest().name, "7.3");
    let e = Layout::named("5.4").unwrap_err().to_string();
    assert!(e.contains("`5.4`") && e.contains("2021, 6.12, 7.3"), "{e}");
}

#[test]
fn builtins_pass_every_check_a_loaded_file_gets_and_read_as_their_json_form() {
    for (at, (file, text)) in BUILTIN.iter().enumerate() {
        let toml = Layout::parse(file, text).unwrap_or_else(|e| panic!("{e}"));
        let head = heads().iter().find(|h| h.at == at).unwrap();
        assert_eq!(
            format!("{:?}", head.layout()),
            format!("{toml:?}"),
            "{file}"
        );
    }
}

#[test]
fn gated_values_follow_rustc_and_config() {
    let l = Layout::builtin("7.3");
    let old = F {
        rustc: (1, 85, 0),
        on: vec![],
    };
    let new = F {
        rustc: (1, 95, 0),
        on: vec!["ARM64"],
    };
    assert_eq!(l.var("core_edition", &old).as_deref(), Some("2021"));
    assert_eq!(l.var("core_edition", &new).as_deref(), Some("2024"));
    assert_eq!(l.redirected_intrinsics(&old).len(), 21);
    assert!(l
        .redirected_intrinsics(&new)
        .contains(&"__ashrti3".to_string()));
}

#[test]
fn a_bad_description_names_its_file_and_entry() {
    let text = Layout::builtin("7.3").clone();
    let _ = text;
    let src = include_str!("../../templates/kbuild/7.3.toml")
        .replace("opt_level = \"c\"", "opt_level = \"fast\"");
    let e = Layout::parse("x.toml", &src).unwrap_err().to_string();
    assert!(
        e.contains("x.toml") && e.contains("flags.opt_level = \"fast\""),
        "{e}"
    );
    let src =
        include_str!("../../templates/kbuild/7.3.toml").replace("[detect]", "[detect]\nnope = 1");
    let e = Layout::parse("y.toml", &src).unwrap_err().to_string();
    assert!(e.contains("y.toml") && e.contains("nope"), "{e}");
}

// SPDX-License-Identifier: GPL-2.0

use proc_macro::{token_stream, Literal, TokenStream, TokenTree};
use std::fmt::Write;

fn expect_ident(it: &mut token_stream::IntoIter) -> String {
    match it.next() {
        Some(TokenTree::Ident(ident)) => ident.to_string(),
        other => panic!("module!: expected an identifier, found {:?}", other),
    }
}

fn expect_punct(it: &mut token_stream::IntoIter, c: char) {
    match it.next() {
        Some(TokenTree::Punct(p)) if p.as_char() == c => {}
        other => panic!("module!: expected `{}`, found {:?}", c, other),
    }
}

fn expect_string(it: &mut token_stream::IntoIter) -> String {
    match it.next() {
        Some(TokenTree::Literal(lit)) => {
            let s = lit.to_string();
            let inner = s
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .unwrap_or_else(|| panic!("module!: expected a string literal, found {}", s));
            assert!(
                !inner.contains('\\'),
                "module!: escapes are not supported in {}", s
            );
            inner.to_string()
        }
        other => panic!("module!: expected a string literal, found {:?}", other),
    }
}

#[derive(Default)]
struct ModuleInfo {
    type_: String,
    name: String,
    author: Option<String>,
    description: Option<String>,
    license: String,
}

impl ModuleInfo {
    fn parse(it: &mut token_stream::IntoIter) -> Self {
        let mut info = ModuleInfo::default();
        let mut seen = Vec::new();
        while let Some(tt) = it.next() {
            let key = match tt {
                TokenTree::Ident(ident) => ident.to_string(),
                other => panic!("module!: expected a key, found {:?}", other),
            };
            assert!(!seen.contains(&key), "module!: duplicated key `{}`", key);
            expect_punct(it, ':');
            match key.as_str() {
                "type" => info.type_ = expect_ident(it),
                "name" => info.name = expect_string(it),
                "author" => info.author = Some(expect_string(it)),
                "description" => info.description = Some(expect_string(it)),
                "license" => info.license = expect_string(it),
                _ => panic!(
                    "module!: unknown key `{}`; valid keys: type, name, author, description, license", key
                ),
            }
            expect_punct(it, ',');
            seen.push(key);
        }
        for required in ["type", "name", "license"] {
            assert!(
                seen.iter().any(|k| k == required),
                "module!: missing required key `{}`", required
            );
        }
        info
    }
}

/// One `.modinfo` entry: `key=value\0`, prefixed with the module name when built in (the
/// kernel's `modinfo` format).
fn modinfo(out: &mut String, module: &str, key: &str, value: &str) {
    let counter = out.matches("__MODINFO_").count();
    for (cfg, prefix) in [("MODULE", String::new()), ("not(MODULE)", format!("{module}."))] {
        let entry = format!("{prefix}{key}={value}\0");
        let lit = Literal::byte_string(entry.as_bytes());
        let _ = writeln!(
            out,
            "#[cfg({cfg})] #[doc(hidden)] #[allow(non_upper_case_globals)] #[link_section = \".modinfo\"] #[used] \
             static __MODINFO_{module}_{key}_{counter}: [u8; {len}] = *{lit};",
            len = entry.len(),
        );
    }
}

pub(crate) fn module(ts: TokenStream) -> TokenStream {
    let mut it = ts.into_iter();
    let info = ModuleInfo::parse(&mut it);
    let name = &info.name;
    let mut out = String::new();
    modinfo(&mut out, name, "license", &info.license);
    if let Some(author) = &info.author {
        modinfo(&mut out, name, "author", author);
    }
    if let Some(description) = &info.description {
        modinfo(&mut out, name, "description", description);
    }
    let _ = write!(
        out,
        r#"
        /// The module's state, set by its init function.
        static mut __MOD: ::core::mem::MaybeUninit<{ty}> = ::core::mem::MaybeUninit::uninit();

        fn __init() -> ::core::ffi::c_int {{
            match <{ty} as ::kernel::Module>::init() {{
                Ok(m) => {{
                    // SAFETY: init runs once, before anything else can see the module.
                    unsafe {{ (*::core::ptr::addr_of_mut!(__MOD)).write(m) }};
                    0
                }}
                Err(e) => e.to_errno(),
            }}
        }}

        fn __exit() {{
            // SAFETY: exit runs once, after a successful init.
            unsafe {{ (*::core::ptr::addr_of_mut!(__MOD)).assume_init_drop() }};
        }}

        /// The module's entry point.
        #[cfg(MODULE)]
        #[doc(hidden)]
        #[no_mangle]
        pub extern "C" fn init_module() -> ::core::ffi::c_int {{
            __init()
        }}

        /// The module's exit point.
        #[cfg(MODULE)]
        #[doc(hidden)]
        #[no_mangle]
        pub extern "C" fn cleanup_module() {{
            __exit()
        }}

        #[cfg(not(MODULE))]
        #[doc(hidden)]
        #[no_mangle]
        pub extern "C" fn __{name}_init() -> ::core::ffi::c_int {{
            __init()
        }}

        /// Run at boot by the initcall machinery when built in.
        #[cfg(not(MODULE))]
        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        #[link_section = ".initcall6.init"]
        #[used]
        static __{name}_initcall: extern "C" fn() -> ::core::ffi::c_int = __{name}_init;
        "#,
        ty = info.type_,
    );
    out.parse().expect("module!: generated code parses")
}

// SPDX-License-Identifier: GPL-2.0

//! Crate for all kernel procedural macros.

// Proc macros cannot use `no_std`'s `core`-only world: they run on the host.
#![allow(clippy::needless_doctest_main)]

mod module;

use proc_macro::TokenStream;

/// Declares a kernel module.
///
/// The `type` argument names a type implementing `kernel::Module`; `name` and `license` are
/// required, `author` and `description` optional.
///
/// ```ignore
/// use kernel::prelude::*;
///
/// module! {
///     type: MyModule,
///     name: "my_kernel_module",
///     author: "Rust for Linux Contributors",
///     description: "My very own kernel module!",
///     license: "GPL",
/// }
/// ```
#[proc_macro]
pub fn module(ts: TokenStream) -> TokenStream {
    module::module(ts)
}

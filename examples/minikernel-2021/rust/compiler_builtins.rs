// SPDX-License-Identifier: GPL-2.0

//! Our own `compiler_builtins`.
//!
//! `core` refers to these intrinsics for floating point and 128-bit integers; the kernel never
//! uses those, so each one panics. The build weakens these definitions (`objcopy -w -W '__*'`),
//! so that a real implementation elsewhere wins.

#![feature(compiler_builtins)]
#![compiler_builtins]
#![no_builtins]
#![no_std]
#![allow(internal_features)]

macro_rules! define_panicking_intrinsics(
    ($reason: tt, { $($ident: ident, )* }) => {
        $(
            #[doc(hidden)]
            #[no_mangle]
            pub extern "C" fn $ident() {
                panic!($reason);
            }
        )*
    }
);

define_panicking_intrinsics!("`f32` should not be used", {
    __addsf3,
    __divsf3,
    __eqsf2,
    __floatdisf,
    __floatundisf,
    __gesf2,
    __lesf2,
    __ltsf2,
    __mulsf3,
    __nesf2,
    __unordsf2,
});

define_panicking_intrinsics!("`f64` should not be used", {
    __adddf3,
    __divdf3,
    __floatdidf,
    __floatundidf,
    __gedf2,
    __ledf2,
    __ltdf2,
    __muldf3,
    __nedf2,
    __unorddf2,
});

define_panicking_intrinsics!("`i128` should not be used", {
    __ashrti3,
    __muloti4,
    __multi3,
});

define_panicking_intrinsics!("`u128` should not be used", {
    __ashlti3,
    __lshrti3,
    __udivmodti4,
    __udivti3,
    __umodti3,
});

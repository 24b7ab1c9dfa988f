//! The built-in descriptions in the JSON form `build.rs` writes from their TOML files (read at
//! every run; serde_json is several times faster than the TOML parser on them).

include!(concat!(env!("OUT_DIR"), "/builtin_json.rs"));

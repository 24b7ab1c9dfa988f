//! The built-in descriptions (`templates/kbuild/*.toml`, `templates/arch/*.toml`) also as JSON:
//! every run reads the layout and the architectures it needs, and parsing their TOML was about
//! a tenth of a no-op build; serde_json reads the same values several times faster. The TOML
//! files stay the source (tests parse both forms and compare them).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let out = std::env::var("OUT_DIR").expect("OUT_DIR");
    let mut table = String::from(
        "/// The JSON form of a built-in description, by its TOML file's path.\n\
         pub fn json(file: &str) -> Option<&'static str> {\n    Some(match file {\n",
    );
    for dir in ["templates/kbuild", "templates/arch"] {
        println!("cargo::rerun-if-changed={dir}");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.expect("a folder entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        for path in files {
            let file = path.to_str().expect("a UTF-8 path");
            println!("cargo::rerun-if-changed={file}");
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
            let value: toml::Value =
                toml::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
            let name = file.replace('/', "-").replace(".toml", ".json");
            let json = serde_json::to_string(&value).expect("TOML values are JSON values");
            std::fs::write(Path::new(&out).join(&name), json).expect("OUT_DIR is writable");
            writeln!(
                table,
                "        {file:?} => include_str!(concat!(env!(\"OUT_DIR\"), \"/{name}\")),"
            )
            .unwrap();
        }
    }
    table.push_str("        _ => return None,\n    })\n}\n");
    std::fs::write(Path::new(&out).join("builtin_json.rs"), table).expect("OUT_DIR is writable");
}

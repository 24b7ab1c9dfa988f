use nom_kconfig::{parse_kconfig, KconfigFile, KconfigInput, Entry};
use std::collections::HashMap;
fn walk(es: &[Entry], want: &[&str], depth: usize) {
    for e in es {
        match e {
            Entry::Config(c) => if want.contains(&c.symbol.as_str()) { println!("{:#?}", c) },
            Entry::MenuConfig(m) => if want.contains(&m.symbol.as_str()) { println!("{:#?}", m) },
            Entry::Source(s) => for k in &s.kconfigs { walk(&k.entries, want, depth+1) },
            Entry::If(i) => walk(&i.entries, want, depth),
            Entry::Menu(m) => walk(&m.entries, want, depth),
            Entry::Choice(c) => { if c.entries.iter().any(|e| matches!(e, Entry::Config(x) if want.contains(&x.symbol.as_str()))) { println!("{:#?}", c.options) } walk(&c.entries, want, depth) },
            Entry::VariableAssignment(v) if depth < 2 => println!("VAR {:?}", v),
            _ => {}
        }
    }
}
fn main() {
    let root = std::path::PathBuf::from(std::env::args().nth(1).unwrap());
    let want: Vec<String> = std::env::args().skip(2).collect();
    let want: Vec<&str> = want.iter().map(|s| s.as_str()).collect();
    let mut vars = HashMap::new();
    vars.insert("SRCARCH", "x86"); vars.insert("ARCH", "x86");
    let t = std::time::Instant::now();
    let kf = KconfigFile::new_with_vars(root.clone(), "Kconfig".into(), &vars, &HashMap::new());
    let text = kf.read_to_string().unwrap();
    let (_, k) = parse_kconfig(KconfigInput::new_extra(&text, kf)).unwrap();
    eprintln!("parsed in {:?}", t.elapsed());
    walk(&k.entries, &want, 0);
}

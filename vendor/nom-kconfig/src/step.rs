//! rkbuild's patch: nom-kconfig's own parsers, one syntactic unit at a time, for a parser that
//! reads the common forms itself and hands every other place to nom-kconfig (rkbuild's
//! `kconfig::tree::scan`). Each function is exactly the combinator nom-kconfig applies at that
//! place, so what comes back is what a whole-file parse would have built there.
//!
//! `Err(false)` is nom's `Error` (this alternative does not apply here), `Err(true)` its
//! `Failure` (the whole parse fails).

use nom::{branch::alt, combinator::map, Input, Parser};

use crate::attribute::{
    parse_attribute, parse_depends_on, parse_optional, parse_visible, r#type::parse_type,
    Attribute,
};
use crate::entry::{parse_entry, Entry};
use crate::util::ws;
use crate::KconfigInput;

pub type Step<'a, T> = Result<(KconfigInput<'a>, T), bool>;

fn step<'a, T>(r: nom::IResult<KconfigInput<'a>, T>) -> Step<'a, T> {
    r.map_err(|e| matches!(e, nom::Err::Failure(_)))
}

/// The input `n` bytes further on (line numbers kept).
pub fn advance<'a>(input: &KconfigInput<'a>, n: usize) -> KconfigInput<'a> {
    input.take_from(n)
}

/// One entry (`many0(parse_entry)` of a file or block).
pub fn entry(input: KconfigInput) -> Step<Entry> {
    step(parse_entry(input))
}

/// One attribute of a `config` or `menuconfig` entry.
pub fn config_attribute(input: KconfigInput) -> Step<Attribute> {
    step(ws(alt((parse_type, parse_attribute))).parse(input))
}

/// One attribute of a `choice`.
pub fn choice_attribute(input: KconfigInput) -> Step<Attribute> {
    step(
        alt((
            parse_attribute,
            parse_type,
            map(ws(parse_optional), |_| Attribute::Optional),
        ))
        .parse(input),
    )
}

/// One attribute of a `menu`.
pub fn menu_attribute(input: KconfigInput) -> Step<Attribute> {
    step(
        alt((
            map(ws(parse_depends_on), Attribute::DependsOn),
            map(ws(parse_visible), Attribute::Visible),
        ))
        .parse(input),
    )
}

/// One `depends on` of a `comment`.
pub fn comment_dependency(input: KconfigInput) -> Step<crate::attribute::depends_on::DependsOn> {
    step(ws(parse_depends_on).parse(input))
}

/// Forgets the `$(…)` calls remembered for the text being parsed (see `attribute::function`):
/// to be called before and after each file, as a whole-file parse does.
pub fn forget_calls() {
    crate::attribute::function::calls::clear();
}

/// The files a `source` line names, as nom-kconfig expands them (a glob, relative to the tree).
pub fn source_files(input: &KconfigInput, file: &str) -> Result<Vec<std::path::PathBuf>, bool> {
    crate::entry::source::expand_source_files(
        input.clone(),
        file,
        crate::entry::source::JoinPathMode::Root,
    )
    .map_err(|e| matches!(e, nom::Err::Failure(_)))
}

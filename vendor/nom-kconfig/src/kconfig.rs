use nom::{
    combinator::{eof, map},
    multi::many0,
    sequence::delimited,
    IResult, Parser,
};
#[cfg(feature = "deserialize")]
use serde::Deserialize;
#[cfg(feature = "serialize")]
use serde::Serialize;
#[cfg(feature = "debug")]
use tracing::debug;

use crate::{
    entry::{parse_entry, Entry},
    error::Error,
    util::{ws, ws_comment},
    KconfigInput,
};

/// A Kconfig file.
/// Field `file` is relative to the root directory defined in [KconfigFile](crate::KconfigFile).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "hash", derive(Hash))]
#[cfg_attr(feature = "serialize", derive(Serialize))]
#[cfg_attr(feature = "deserialize", derive(Deserialize))]
pub struct Kconfig {
    pub file: String,
    pub entries: Vec<Entry>,
}

/// Parses a kconfig input.
/// # Example
/// ```
/// use std::path::PathBuf;
/// use nom_kconfig::{KconfigInput, KconfigFile, Entry, kconfig::parse_kconfig, Kconfig};
///
/// let kconfig_file = KconfigFile::new(PathBuf::from("path/to/root/dir"), PathBuf::from("Kconfig"));
/// let content = "";
/// let input = KconfigInput::new_extra(content, kconfig_file);
/// assert_eq!(parse_kconfig(input).unwrap().1, Kconfig {file: "Kconfig".to_string(), entries: vec!() })
/// ```
pub fn parse_kconfig(input: KconfigInput) -> Result<(KconfigInput, Kconfig), Error> {
    match private_parse_kconfig(input) {
        Ok((input, result)) => Ok((input, result)),
        Err(nom_error) => Err(Error::from(nom_error)),
    }
}

pub(crate) fn private_parse_kconfig(input: KconfigInput) -> IResult<KconfigInput, Kconfig> {
    #[cfg(feature = "debug")]
    debug!("parsing '{}'", input.extra.full_path().display());
    // rkbuild's patch: an unclosed `$(` fails here, where it opens (see `unterminated`).
    if let Some(at) = crate::unterminated_reference(input.fragment()) {
        let (here, _) = nom::bytes::complete::take::<_, _, nom::error::Error<_>>(at)(input)?;
        return Err(nom::Err::Failure(nom::error::Error::new(
            here,
            nom::error::ErrorKind::Verify,
        )));
    }
    let file: std::path::PathBuf = input.extra.file.to_path_buf();
    crate::attribute::function::calls::clear();
    let r = map(delimited(ws_comment, many0(parse_entry), ws(eof)), |d| {
        Kconfig {
            file: file.display().to_string(),
            entries: d,
        }
    })
    .parse(input);
    // The remembered calls name places in this text only (see `calls`).
    crate::attribute::function::calls::clear();
    r
}

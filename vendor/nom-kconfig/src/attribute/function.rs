use std::fmt::Display;

use nom::{
    branch::alt,
    bytes::complete::{tag, take_until},
    character::complete::{alphanumeric1, char, one_of, space1},
    combinator::{map, recognize},
    multi::{many1, separated_list0},
    sequence::{delimited, preceded, terminated},
    IResult, Parser,
};
#[cfg(feature = "deserialize")]
use serde::Deserialize;
#[cfg(feature = "serialize")]
use serde::Serialize;

use crate::{util::ws, KconfigInput};

#[derive(Debug, PartialEq, Clone, Default)]
#[cfg_attr(feature = "hash", derive(Hash))]
#[cfg_attr(feature = "serialize", derive(Serialize))]
#[cfg_attr(feature = "deserialize", derive(Deserialize))]
pub struct FunctionCall {
    pub name: String,
    pub parameters: Vec<Parameter>,
}

//#[cfg(feature = "kconfiglib")]
//impl FunctionCall {
//    fn call(&self) -> String {
//
//    }
//}

impl Display for Parameter {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "{}",
            self.tokens
                .iter()
                .map(|d: &ExpressionToken| d.to_string())
                .collect::<Vec<_>>()
                .join("")
        )
    }
}

impl Display for ExpressionToken {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            ExpressionToken::Literal(s) => write!(f, "{}", s),
            ExpressionToken::Variable(v) => write!(f, "${}", v),
            ExpressionToken::DoubleQuotes(s) => write!(
                f,
                r#""{}""#,
                s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("")
            ),
            ExpressionToken::SingleQuotes(s) => write!(f, "'{}'", s),
            ExpressionToken::Backtick(c) => write!(f, "`{}`", c),
            ExpressionToken::Function(func) => write!(f, "{}", func),
            ExpressionToken::Space => write!(f, " "),
        }
    }
}

impl Display for FunctionCall {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        if self.parameters.is_empty() {
            return write!(f, "$({})", self.name);
        }
        write!(
            f,
            "$({}, {})",
            self.name,
            self.parameters
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

#[derive(Debug, PartialEq, Clone, Default)]
#[cfg_attr(feature = "hash", derive(Hash))]
#[cfg_attr(feature = "serialize", derive(Serialize))]
#[cfg_attr(feature = "deserialize", derive(Deserialize))]
pub struct Parameter {
    pub tokens: Vec<ExpressionToken>,
}

#[derive(Debug, PartialEq, Clone)]
#[cfg_attr(feature = "hash", derive(Hash))]
#[cfg_attr(feature = "serialize", derive(Serialize))]
#[cfg_attr(feature = "deserialize", derive(Deserialize))]
pub enum ExpressionToken {
    Literal(String),
    Variable(String),
    DoubleQuotes(Vec<ExpressionToken>),
    SingleQuotes(String),
    Backtick(String),
    Function(Box<FunctionCall>),
    Space,
}

pub fn parse_expression_token_variable_parameter(
    input: KconfigInput,
) -> IResult<KconfigInput, ExpressionToken> {
    map(
        delimited(
            tag("$("),
            recognize(ws(many1(alt((alphanumeric1, recognize(one_of("_-"))))))),
            tag(")"),
        ),
        |d: KconfigInput| ExpressionToken::Variable(d.fragment().to_string()),
    )
    .parse(input)
}

fn parse_expression_token_parameter(input: KconfigInput) -> IResult<KconfigInput, ExpressionToken> {
    // rkbuild's patch: inside double quotes a `"` closes them (a call may still hold quotes
    // of its own). Before, a `"` inside could also open a nested pair, so a line of quotes
    // that failed to parse was tried in every pairing: exponential (fuzz/regressions/kconfig).
    alt((
        map(
            delimited(tag("\""), many1(parse_quoted_token_parameter), tag("\"")),
            ExpressionToken::DoubleQuotes,
        ),
        parse_quoted_token_parameter,
    ))
    .parse(input)
}

/// A token of a parameter other than a double-quoted string.
fn parse_quoted_token_parameter(input: KconfigInput) -> IResult<KconfigInput, ExpressionToken> {
    alt((
        map(tag("="), |_| ExpressionToken::Literal("=".to_string())),
        map(space1, |_| ExpressionToken::Space),
        map(tag("2>"), |_| ExpressionToken::Literal("2>".to_string())),
        map(
            delimited(tag("("), take_until(")"), tag(")")),
            |d: KconfigInput| ExpressionToken::Literal("(".to_string() + d.fragment() + ")"),
        ),
        map(
            delimited(tag("`"), take_until("`"), tag("`")),
            |d: KconfigInput| ExpressionToken::Backtick(d.to_string()),
        ),
        map(
            delimited(
                ws(char::<KconfigInput, _>('\'')),
                take_until("'"),
                char('\''),
            ),
            |d| ExpressionToken::SingleQuotes(d.to_string()),
        ),
        parse_literal_parameter,
        parse_expression_token_variable_parameter,
        map(parse_function_call, |f| {
            ExpressionToken::Function(Box::new(f))
        }),
    ))
    .parse(input)
}

fn parse_instruction_parameter(input: KconfigInput) -> IResult<KconfigInput, String> {
    map(
        (
            tag("%"),
            recognize(ws(many1(alt((alphanumeric1, recognize(one_of("_"))))))),
            delimited(tag("("), alphanumeric1, tag(")")),
        ),
        |(_a, b, c)| format!("%{}({})", b, c),
    )
    .parse(input)
}

fn parse_env_variable_parameter(input: KconfigInput) -> IResult<KconfigInput, ExpressionToken> {
    map(
        ws(preceded(tag("$"), recognize(many1(alphanumeric1)))),
        |d| ExpressionToken::Literal(format!("${}", d)),
    )
    .parse(input)
}

fn parse_literal_parameter(input: KconfigInput) -> IResult<KconfigInput, ExpressionToken> {
    alt((
        parse_env_variable_parameter,
        map(parse_instruction_parameter, ExpressionToken::Literal),
        map(
            recognize(ws(many1(alt((
                alphanumeric1,
                tag("\\$"),
                recognize(one_of("+(<>%@&\\[]_|'.-:\n\\/")),
            ))))),
            |d: KconfigInput| ExpressionToken::Literal(d.fragment().to_string()),
        ),
    ))
    .parse(input)
}

pub fn parse_expression_parameter(
    input: KconfigInput,
) -> IResult<KconfigInput, Vec<ExpressionToken>> {
    alt((many1(parse_expression_token_parameter),)).parse(input)
}

pub fn parse_parameter(input: KconfigInput) -> IResult<KconfigInput, Parameter> {
    map(alt((parse_expression_parameter,)), |d| Parameter {
        tokens: d,
    })
    .parse(input)
}

fn parse_function_name(input: KconfigInput<'_>) -> IResult<KconfigInput<'_>, &str> {
    map(
        recognize(ws(many1(alt((alphanumeric1, recognize(one_of("=-_"))))))),
        |d: KconfigInput| d.fragment().to_owned(),
    )
    .parse(input)
}

pub fn parse_function_call(input: KconfigInput) -> IResult<KconfigInput, FunctionCall> {
    // rkbuild's patch: each place is parsed as a call at most once per file (see `calls`).
    // The place and how far the text goes from it: a parser may hand on a shorter view of the
    // same text (a line), where the call found in the whole text does not fit.
    let key = (input.fragment().as_ptr() as usize, input.fragment().len());
    if let Some(known) = calls::get(key) {
        return known.rebuild(input);
    }
    let r = ws(alt((
        parse_function_call_inner,
        delimited(char('"'), parse_function_call_inner, char('"')),
    )))
    .parse(input.clone());
    calls::put(key, &input, &r);
    r
}

/// rkbuild's patch: what `parse_function_call` gave at each place of the file being parsed.
/// Several alternatives (a call, a call in quotes, a comparison's operand, a parameter in
/// quotes…) try a call at the same place, and each re-parsed everything nested in it, so the
/// time doubled with each level of nesting: a fuzzer's one-line `$(a,"$(b,"…` of 12 levels
/// took 15 s. Remembered, each place costs one parse. Keyed by the place's address in the
/// text and the length of the text from there, so `private_parse_kconfig` clears it around
/// each file (a later text may reuse the address).
pub(crate) mod calls {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use nom::{error::ErrorKind, IResult, Input};

    use super::FunctionCall;
    use crate::KconfigInput;

    pub(crate) enum Known {
        /// Parsed: how many bytes it took, and the call.
        Call(usize, FunctionCall),
        /// Not a call: where the error is (bytes from the place), its kind, whether a failure.
        Not(usize, ErrorKind, bool),
    }

    thread_local! {
        static KNOWN: RefCell<HashMap<(usize, usize), Known>> = RefCell::new(HashMap::new());
    }

    pub(crate) fn clear() {
        KNOWN.with(|k| k.borrow_mut().clear());
    }

    pub(crate) fn get(key: (usize, usize)) -> Option<Known> {
        KNOWN.with(|k| {
            k.borrow().get(&key).map(|known| match known {
                Known::Call(n, c) => Known::Call(*n, c.clone()),
                Known::Not(n, kind, failure) => Known::Not(*n, *kind, *failure),
            })
        })
    }

    pub(crate) fn put(
        key: (usize, usize),
        input: &KconfigInput,
        r: &IResult<KconfigInput, FunctionCall>,
    ) {
        let from = |at: &KconfigInput| at.location_offset().saturating_sub(input.location_offset());
        let known = match r {
            Ok((rest, call)) => Known::Call(from(rest), call.clone()),
            Err(nom::Err::Error(e)) => Known::Not(from(&e.input), e.code, false),
            Err(nom::Err::Failure(e)) => Known::Not(from(&e.input), e.code, true),
            Err(nom::Err::Incomplete(_)) => return,
        };
        KNOWN.with(|k| k.borrow_mut().insert(key, known));
    }

    impl Known {
        pub(crate) fn rebuild(self, input: KconfigInput) -> IResult<KconfigInput, FunctionCall> {
            match self {
                Known::Call(n, call) => Ok((input.take_from(n), call)),
                Known::Not(n, code, failure) => {
                    let e = nom::error::Error::new(input.take_from(n), code);
                    Err(if failure {
                        nom::Err::Failure(e)
                    } else {
                        nom::Err::Error(e)
                    })
                }
            }
        }
    }
}

fn parse_function_call_inner(input: KconfigInput) -> IResult<KconfigInput, FunctionCall> {
    map(
        delimited(
            tag("$("),
            (
                terminated(parse_function_name, ws(tag(","))),
                separated_list0(ws(tag(",")), ws(parse_parameter)),
            ),
            ws(tag(")")),
        ),
        |(name, parameters)| FunctionCall {
            name: name.to_string(),
            parameters,
        },
    )
    .parse(input)
}

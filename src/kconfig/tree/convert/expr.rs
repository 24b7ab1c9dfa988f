//! nom-kconfig's expressions turned into [`Expr`], and macro calls back into the text the
//! preprocessor reads. The mapping is one to one: nothing is simplified here, so an explanation
//! shows a condition as it was written.

use nom_kconfig::attribute::expression::CompareOperand;
use nom_kconfig::attribute::{r#macro::Macro, range::RangeBound};
use nom_kconfig::attribute::{
    AndExpression, Atom, CompareOperator, ExpressionToken, FunctionCall, OrExpression, Term,
};
use nom_kconfig::symbol::ConstantSymbol;

use super::super::{Cmp, Expr};

pub(super) fn bound(b: &RangeBound) -> Expr {
    match b {
        RangeBound::Hex(h) => Expr::Const(h.clone()),
        RangeBound::Number(n) => Expr::Const(n.to_string()),
        RangeBound::Symbol(s) => Expr::Sym(s.clone()),
        RangeBound::Variable(v) => Expr::Macro(format!("$({v})")),
    }
}

/// Converts nom-kconfig's expression tree.
pub fn expr(e: &OrExpression) -> Expr {
    match e {
        OrExpression::Term(a) => and_expr(a),
        OrExpression::Expression(v) => Expr::Or(v.iter().map(and_expr).collect()),
    }
}

fn and_expr(e: &AndExpression) -> Expr {
    match e {
        AndExpression::Term(t) => term(t),
        AndExpression::Expression(v) => Expr::And(v.iter().map(term).collect()),
    }
}

fn term(t: &Term) -> Expr {
    match t {
        Term::Not(a) => Expr::Not(Box::new(atom(a))),
        Term::Atom(a) => atom(a),
    }
}

fn atom(a: &Atom) -> Expr {
    match a {
        Atom::Symbol(s) => symbol(s),
        Atom::Compare(c) => {
            let op = match c.operator {
                CompareOperator::Equal => Cmp::Eq,
                CompareOperator::NotEqual => Cmp::Ne,
                CompareOperator::LowerThan => Cmp::Lt,
                CompareOperator::LowerOrEqual => Cmp::Le,
                CompareOperator::GreaterThan => Cmp::Gt,
                CompareOperator::GreaterOrEqual => Cmp::Ge,
            };
            Expr::Cmp(op, Box::new(operand(&c.left)), Box::new(operand(&c.right)))
        }
        Atom::Macro(m) => Expr::Macro(macro_text(m)),
        Atom::Parenthesis(e) => expr(e),
    }
}

fn operand(o: &CompareOperand) -> Expr {
    match o {
        CompareOperand::Symbol(s) => symbol(s),
        CompareOperand::Macro(m) => Expr::Macro(macro_text(m)),
    }
}

fn symbol(s: &nom_kconfig::Symbol) -> Expr {
    match s {
        nom_kconfig::Symbol::NonConstant(n) if n.starts_with("$(") => Expr::Macro(n.clone()),
        nom_kconfig::Symbol::NonConstant(n) => Expr::Sym(n.clone()),
        nom_kconfig::Symbol::Constant(c) => Expr::Const(match c {
            ConstantSymbol::Integer(i) => i.to_string(),
            ConstantSymbol::Hex(h) => h.clone(),
            ConstantSymbol::Boolean(true) => "y".into(),
            ConstantSymbol::Boolean(false) => "n".into(),
            ConstantSymbol::String(s) => s.clone(),
            ConstantSymbol::Tristate(t) => t.to_string(),
        }),
    }
}

fn macro_text(m: &Macro) -> String {
    match m {
        Macro::FunctionCall(f) => call(f),
        Macro::Variable(v) => format!("$({v})"),
        Macro::DoubleQuoted(m) => macro_text(m),
    }
}

/// Renders a macro call back to the preprocessor's text.
pub fn call(f: &FunctionCall) -> String {
    let mut s = format!("$({}", f.name);
    for p in &f.parameters {
        s.push(',');
        s.push_str(&tokens(&p.tokens));
    }
    s.push(')');
    s
}

pub(super) fn tokens(t: &[ExpressionToken]) -> String {
    t.iter()
        .map(|t| match t {
            ExpressionToken::Literal(s) => s.clone(),
            ExpressionToken::Variable(v) => format!("$({v})"),
            ExpressionToken::DoubleQuotes(v) => format!("\"{}\"", tokens(v)),
            ExpressionToken::SingleQuotes(s) => format!("'{s}'"),
            ExpressionToken::Backtick(s) => format!("`{s}`"),
            ExpressionToken::Function(f) => call(f),
            ExpressionToken::Space => " ".into(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use nom_kconfig::{KconfigFile, KconfigInput};

    use super::*;

    fn conv(text: &str) -> Expr {
        let input = KconfigInput::new_extra(text, KconfigFile::default());
        let (rest, e) = nom_kconfig::attribute::parse_expression(input).unwrap();
        assert!(rest.fragment().trim().is_empty(), "{text}: left {rest}");
        expr(&e)
    }

    #[test]
    fn expressions_map_one_to_one() {
        let sym = |s: &str| Expr::Sym(s.into());
        assert_eq!(
            conv("A && (B || !C)"),
            Expr::And(vec![
                sym("A"),
                Expr::Or(vec![sym("B"), Expr::Not(Box::new(sym("C")))])
            ])
        );
        assert_eq!(
            conv("A >= 3"),
            Expr::Cmp(
                Cmp::Ge,
                Box::new(sym("A")),
                Box::new(Expr::Const("3".into()))
            )
        );
        // Read back as Kconfig: the model prints what was written.
        for text in [
            "A && (B || !C)",
            "!(A || B)",
            "A != \"x\" && B = 0x10",
            "A || B && C",
            "y",
            "$(success,true)",
        ] {
            assert_eq!(conv(text).to_string(), text);
        }
    }
}

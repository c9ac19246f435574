//! A compiled Datalog program: predicates, rules whose bodies are ordered
//! literals (positive and negated atoms, assignments, tests, aggregates),
//! and the arithmetic of expressions.
//!
//! Variables are numbered per rule; body literals are evaluated left to
//! right, and the compiler has checked that every variable a literal reads
//! is bound by an earlier one.

use crate::value::Val;
use chrono::{Datelike, NaiveDate};

pub type PredId = usize;
pub type VarId = u16;

#[derive(Debug, Clone)]
pub struct PredInfo {
    pub name: String,
    pub arity: usize,
}

/// A rule or atom argument.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arg {
    Var(VarId),
    Const(Val),
    /// `_`: any value; in a head, an open argument.
    Wild,
}

#[derive(Debug, Clone)]
pub struct Atom {
    pub pred: PredId,
    pub args: Vec<Arg>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Add,
    Sub,
    Mul,
    Div,
    Neg,
    Min,
    Max,
    Abs,
    /// Round half away from zero to an integer.
    Round,
    Floor,
    Ceil,
    /// The year of a date.
    Year,
    /// January 1st / December 31st of a year.
    FirstDay,
    LastDay,
    /// `days(a, b)`: days from date a to date b.
    Days,
    /// `add_days(d, n)`.
    AddDays,
    /// `date(y, m, d)`.
    Date,
    /// `add_years(d, n)`: the same day n years later (Feb 29 -> Feb 28).
    AddYears,
    /// `week(d)`: the ISO week (Monday to Sunday) of a date, as
    /// year * 100 + week number.
    Week,
}

impl Func {
    pub fn from_name(name: &str, arity: usize) -> Option<Func> {
        Some(match (name, arity) {
            ("+", 2) => Func::Add,
            ("-", 2) => Func::Sub,
            ("*", 2) => Func::Mul,
            ("/", 2) => Func::Div,
            ("-", 1) => Func::Neg,
            ("min", 2) => Func::Min,
            ("max", 2) => Func::Max,
            ("abs", 1) => Func::Abs,
            ("round", 1) => Func::Round,
            ("floor", 1) => Func::Floor,
            ("ceiling", 1) => Func::Ceil,
            ("year", 1) => Func::Year,
            ("first_day", 1) => Func::FirstDay,
            ("last_day", 1) => Func::LastDay,
            ("days", 2) => Func::Days,
            ("add_days", 2) => Func::AddDays,
            ("date", 3) => Func::Date,
            ("add_years", 2) => Func::AddYears,
            ("week", 1) => Func::Week,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone)]
pub enum Expr {
    Var(VarId),
    Const(Val),
    Call(Func, Vec<Expr>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AggOp {
    Sum,
    Count,
    Max,
    Min,
}

#[derive(Debug, Clone)]
pub enum Literal {
    Pos(Atom),
    /// No tuple matches; unbound variables are existential.
    Neg(Atom),
    /// Binds a fresh variable.
    Assign(VarId, Expr),
    Test(CmpOp, Expr, Expr),
    /// The variable holds an open value (`open`: Prolog's `var/1` on an
    /// answer) or a known one (not `open`: `nonvar/1`).
    IsOpen { var: VarId, open: bool },
    /// `aggregate_all(op(value), body, out)`: groups by the variables bound
    /// before it; each combination of tuples that satisfies the body counts
    /// once (as in Prolog), so two equal payments both add.
    Agg { op: AggOp, value: Option<Expr>, body: Vec<Literal>, out: VarId },
}

#[derive(Debug, Clone)]
pub struct Rule {
    pub head: Atom,
    pub body: Vec<Literal>,
    pub nvars: usize,
    /// `file:line` of the rule's source.
    pub origin: String,
}

/// An exact rational number for arithmetic; values store only integers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ratio {
    pub num: i128,
    pub den: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

impl Ratio {
    pub fn int(i: i64) -> Ratio {
        Ratio { num: i as i128, den: 1 }
    }
    fn new(num: i128, den: i128) -> Option<Ratio> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        let s = if den < 0 { -1 } else { 1 };
        Some(Ratio { num: s * num / g, den: s * den / g })
    }
    fn floor(self) -> i128 {
        self.num.div_euclid(self.den)
    }
    fn cmp(self, o: Ratio) -> std::cmp::Ordering {
        (self.num * o.den).cmp(&(o.num * self.den))
    }
    fn to_int(self) -> Option<i64> {
        (self.den == 1).then(|| i64::try_from(self.num).ok()).flatten()
    }
}

/// An intermediate value of an expression.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    Ratio(Ratio),
    Val(Val),
}

impl Num {
    fn ratio(self) -> Option<Ratio> {
        match self {
            Num::Ratio(r) => Some(r),
            Num::Val(Val::Int(i)) => Some(Ratio::int(i)),
            _ => None,
        }
    }
    fn date(self) -> Option<NaiveDate> {
        match self {
            Num::Val(Val::Date(d)) => Some(d),
            _ => None,
        }
    }
    /// The value to store; `None` for a fraction (round it first).
    pub fn into_val(self) -> Option<Val> {
        match self {
            Num::Ratio(r) => r.to_int().map(Val::Int),
            Num::Val(v) => Some(v),
        }
    }
}

/// Evaluates `e` under `env`; `None` when it is undefined (a type mismatch,
/// an open value, division by zero, an impossible date).
pub fn eval(e: &Expr, env: &[Option<Val>]) -> Option<Num> {
    match e {
        Expr::Var(v) => match env[*v as usize]? {
            Val::Int(i) => Some(Num::Ratio(Ratio::int(i))),
            Val::Any | Val::Window(..) => None,
            other => Some(Num::Val(other)),
        },
        Expr::Const(Val::Int(i)) => Some(Num::Ratio(Ratio::int(*i))),
        Expr::Const(v) => Some(Num::Val(*v)),
        Expr::Call(f, args) => {
            let a: Vec<Num> = args.iter().map(|x| eval(x, env)).collect::<Option<_>>()?;
            apply(*f, &a)
        }
    }
}

fn apply(f: Func, a: &[Num]) -> Option<Num> {
    let r = |i: usize| a[i].ratio();
    let d = |i: usize| a[i].date();
    let ratio = |num: i128, den: i128| Ratio::new(num, den).map(Num::Ratio);
    let int = |i: i128| Some(Num::Ratio(Ratio { num: i, den: 1 }));
    Some(match f {
        Func::Add => {
            let (x, y) = (r(0)?, r(1)?);
            ratio(x.num.checked_mul(y.den)?.checked_add(y.num.checked_mul(x.den)?)?, x.den.checked_mul(y.den)?)?
        }
        Func::Sub => {
            if let (Some(x), Some(y)) = (d(0), d(1)) {
                return int((x - y).num_days() as i128);
            }
            let (x, y) = (r(0)?, r(1)?);
            ratio(x.num.checked_mul(y.den)?.checked_sub(y.num.checked_mul(x.den)?)?, x.den.checked_mul(y.den)?)?
        }
        Func::Mul => {
            let (x, y) = (r(0)?, r(1)?);
            ratio(x.num.checked_mul(y.num)?, x.den.checked_mul(y.den)?)?
        }
        Func::Div => {
            let (x, y) = (r(0)?, r(1)?);
            ratio(x.num.checked_mul(y.den)?, x.den.checked_mul(y.num)?)?
        }
        Func::Neg => ratio(-r(0)?.num, r(0)?.den)?,
        Func::Min | Func::Max => {
            let pick_first = match (a[0], a[1]) {
                (Num::Val(Val::Date(x)), Num::Val(Val::Date(y))) => (x <= y) == (f == Func::Min),
                _ => (r(0)?.cmp(r(1)?) != std::cmp::Ordering::Greater) == (f == Func::Min),
            };
            if pick_first { a[0] } else { a[1] }
        }
        Func::Abs => ratio(r(0)?.num.abs(), r(0)?.den)?,
        Func::Round => {
            let x = r(0)?;
            let twice = Ratio::new(2 * x.num.abs() + x.den, 2 * x.den)?.floor();
            int(if x.num < 0 { -twice } else { twice })?
        }
        Func::Floor => int(r(0)?.floor())?,
        Func::Ceil => int(-(Ratio { num: -r(0)?.num, den: r(0)?.den }).floor())?,
        Func::Year => int(d(0)?.year() as i128)?,
        Func::FirstDay | Func::LastDay => {
            let y = i32::try_from(r(0)?.to_int()?).ok()?;
            let (m, day) = if f == Func::FirstDay { (1, 1) } else { (12, 31) };
            Num::Val(Val::Date(NaiveDate::from_ymd_opt(y, m, day)?))
        }
        Func::Days => int((d(1)? - d(0)?).num_days() as i128)?,
        Func::AddDays => Num::Val(Val::Date(d(0)?.checked_add_signed(chrono::Duration::days(r(1)?.to_int()?))?)),
        Func::Date => {
            let (y, m, day) = (r(0)?.to_int()?, r(1)?.to_int()?, r(2)?.to_int()?);
            Num::Val(Val::Date(NaiveDate::from_ymd_opt(y as i32, m as u32, day as u32)?))
        }
        Func::Week => {
            let w = d(0)?.iso_week();
            int(w.year() as i128 * 100 + w.week() as i128)?
        }
        Func::AddYears => {
            let (date, n) = (d(0)?, r(1)?.to_int()? as i32);
            let y = date.year() + n;
            let v = NaiveDate::from_ymd_opt(y, date.month(), date.day())
                .or_else(|| NaiveDate::from_ymd_opt(y, date.month(), date.day() - 1))?;
            Num::Val(Val::Date(v))
        }
    })
}

/// Compares two evaluated expressions: numbers with numbers, dates with
/// dates, anything else only for (in)equality.
pub fn compare(op: CmpOp, a: Num, b: Num) -> bool {
    use std::cmp::Ordering::*;
    let ord = match (a, b) {
        (Num::Val(Val::Date(x)), Num::Val(Val::Date(y))) => Some(x.cmp(&y)),
        _ => match (a.ratio(), b.ratio()) {
            (Some(x), Some(y)) => Some(x.cmp(y)),
            _ => None,
        },
    };
    match (op, ord) {
        (CmpOp::Eq, Some(o)) => o == Equal,
        (CmpOp::Ne, Some(o)) => o != Equal,
        (CmpOp::Eq, None) => a == b,
        (CmpOp::Ne, None) => a != b,
        (CmpOp::Lt, Some(o)) => o == Less,
        (CmpOp::Le, Some(o)) => o != Greater,
        (CmpOp::Gt, Some(o)) => o == Greater,
        (CmpOp::Ge, Some(o)) => o != Less,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(f: Func, args: &[i64]) -> Option<Val> {
        let e = Expr::Call(f, args.iter().map(|&i| Expr::Const(Val::Int(i))).collect());
        eval(&e, &[]).and_then(Num::into_val)
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        let half = |n, d| Expr::Call(Func::Round, vec![Expr::Call(Func::Div, vec![Expr::Const(Val::Int(n)), Expr::Const(Val::Int(d))])]);
        assert_eq!(eval(&half(5, 2), &[]).and_then(Num::into_val), Some(Val::Int(3)));
        assert_eq!(eval(&half(-5, 2), &[]).and_then(Num::into_val), Some(Val::Int(-3)));
        assert_eq!(eval(&half(7, 3), &[]).and_then(Num::into_val), Some(Val::Int(2)));
    }

    #[test]
    fn fractions_are_not_values() {
        assert_eq!(num(Func::Div, &[1, 2]), None);
        assert_eq!(num(Func::Div, &[4, 2]), Some(Val::Int(2)));
        assert_eq!(num(Func::Div, &[1, 0]), None);
    }

    #[test]
    fn dates() {
        assert_eq!(num(Func::FirstDay, &[2017]), Some(Val::Date(NaiveDate::from_ymd_opt(2017, 1, 1).unwrap())));
        assert_eq!(num(Func::Date, &[2017, 2, 30]), None);
    }
}

//! Tax arithmetic with provenance: the figures of a tax computation are
//! built as terms of an e-graph and folded to numbers by a constant-folding
//! analysis, so every dollar amount comes with the term that produced it
//! and the statute step it belongs to.

use crate::solve::{Loaded, Solver};
use egg::{define_language, Analysis, DidMerge, EGraph, Id, RecExpr, Symbol};
use serde::Serialize;

define_language! {
    /// Dollar arithmetic: exact rationals until `round`.
    pub enum Money {
        "+" = Add([Id; 2]),
        "-" = Sub([Id; 2]),
        "*" = Mul([Id; 2]),
        "/" = Div([Id; 2]),
        "max" = Max([Id; 2]),
        "round" = Round(Id),
        Num(i64),
        Label(Symbol),
    }
}

/// Folds every e-class to an exact rational `(numerator, denominator)`.
#[derive(Default)]
pub struct Fold;

fn norm(n: i128, d: i128) -> Option<(i128, i128)> {
    if d == 0 {
        return None;
    }
    let g = gcd(n, d).max(1) * d.signum();
    Some((n / g, d / g))
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

impl Analysis<Money> for Fold {
    type Data = Option<(i128, i128)>;

    fn make(egraph: &mut EGraph<Money, Self>, enode: &Money) -> Self::Data {
        let x = |i: &Id| egraph[*i].data;
        match enode {
            Money::Num(n) => Some((*n as i128, 1)),
            Money::Add([a, b]) => {
                let ((p, q), (r, s)) = (x(a)?, x(b)?);
                norm(p.checked_mul(s)?.checked_add(r.checked_mul(q)?)?, q.checked_mul(s)?)
            }
            Money::Sub([a, b]) => {
                let ((p, q), (r, s)) = (x(a)?, x(b)?);
                norm(p.checked_mul(s)?.checked_sub(r.checked_mul(q)?)?, q.checked_mul(s)?)
            }
            Money::Mul([a, b]) => {
                let ((p, q), (r, s)) = (x(a)?, x(b)?);
                norm(p.checked_mul(r)?, q.checked_mul(s)?)
            }
            Money::Div([a, b]) => {
                let ((p, q), (r, s)) = (x(a)?, x(b)?);
                norm(p.checked_mul(s)?, q.checked_mul(r)?)
            }
            Money::Max([a, b]) => {
                let ((p, q), (r, s)) = (x(a)?, x(b)?);
                Some(if p * s >= r * q { (p, q) } else { (r, s) })
            }
            Money::Round(a) => {
                let (p, q) = x(a)?;
                let twice = (2 * p.abs() + q).div_euclid(2 * q);
                Some((if p < 0 { -twice } else { twice }, 1))
            }
            Money::Label(_) => None,
        }
    }

    fn merge(&mut self, to: &mut Self::Data, from: Self::Data) -> DidMerge {
        egg::merge_option(to, from, |a, b| {
            debug_assert_eq!(*a, b, "one e-class folded to two values");
            DidMerge(false, false)
        })
    }
}

/// One step of an explained computation.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    /// The statute step: `§63(b) taxable income`.
    pub label: String,
    /// The term, as an s-expression over numbers.
    pub term: String,
    /// The folded value, when it is a whole number of dollars.
    pub value: Option<i64>,
}

/// An explained tax computation; `consistent` says whether the folded
/// total equals the solver's answer.
#[derive(Debug, Clone, Serialize)]
pub struct TaxExplanation {
    pub steps: Vec<Step>,
    pub total: Option<i64>,
    pub consistent: bool,
}

struct Builder {
    egraph: EGraph<Money, Fold>,
    steps: Vec<Step>,
}

impl Builder {
    fn num(&mut self, n: i64) -> (Id, RecExpr<Money>) {
        let mut e = RecExpr::default();
        e.add(Money::Num(n));
        (self.egraph.add(Money::Num(n)), e)
    }

    fn op(&mut self, parts: Vec<(Id, RecExpr<Money>)>, f: impl Fn(Id, Id) -> Money) -> (Id, RecExpr<Money>) {
        let mut iter = parts.into_iter();
        let Some(first) = iter.next() else { return self.num(0) };
        iter.fold(first, |(ia, ea), (ib, eb)| {
            let id = self.egraph.add(f(ia, ib));
            let mut e = ea.clone();
            let ra = Id::from(e.as_ref().len() - 1);
            let offset = e.as_ref().len();
            for node in eb.as_ref() {
                e.add(egg::Language::map_children(node.clone(), |c| Id::from(usize::from(c) + offset)));
            }
            let rb = Id::from(e.as_ref().len() - 1);
            e.add(f(ra, rb));
            (id, e)
        })
    }

    fn sum(&mut self, xs: &[i64]) -> (Id, RecExpr<Money>) {
        let parts = xs.iter().map(|&x| self.num(x)).collect();
        self.op(parts, |a, b| Money::Add([a, b]))
    }

    fn value(&self, id: Id) -> Option<i64> {
        match self.egraph[id].data {
            Some((n, 1)) => i64::try_from(n).ok(),
            _ => None,
        }
    }

    fn step(&mut self, label: &str, (id, e): (Id, RecExpr<Money>)) -> (Id, RecExpr<Money>) {
        self.egraph.rebuild();
        self.steps.push(Step { label: label.to_string(), term: e.to_string(), value: self.value(id) });
        (id, e)
    }
}

fn ints(rows: Vec<Vec<String>>, col: usize) -> Vec<i64> {
    rows.iter().filter_map(|r| r.get(col)?.parse().ok()).collect()
}

impl Solver {
    /// Explains the tax of `person` for `year` from a solved database.
    pub fn explain_tax(&self, loaded: &Loaded, person: &str, year: i64, answer: i64) -> TaxExplanation {
        let mut b = Builder { egraph: EGraph::default(), steps: Vec::new() };
        let y = year.to_string();
        let rows = |name: &str, arity: usize, keep: &dyn Fn(&[String]) -> bool| -> Vec<Vec<String>> {
            self.relation(loaded, name, arity).into_iter().filter(|r| keep(r)).collect()
        };
        let mine = |r: &[String]| r[0] == person && r.contains(&y);

        let spouse = rows("joint_return_for", 3, &mine).first().map(|r| r[1].clone());
        let mut income = ints(rows("income_item", 4, &|r| r[0] == person && r[1] == y), 3);
        if let Some(s) = &spouse {
            income.extend(ints(rows("income_item", 4, &|r| r[0] == *s && r[1] == y), 3));
        }
        let gross = b.sum(&income);
        let gross = b.step("gross income on the return (income and payments received)", gross);

        let itemized = rows("itemized_allowed", 3, &mine);
        let deduction = if let Some(r) = itemized.first() {
            let d = b.num(r[2].parse().unwrap_or(0));
            b.step("§63(d) itemized deductions, after §68", d)
        } else {
            let basic = ints(rows("s63_c_2", 3, &mine), 2);
            let additional = ints(rows("s63_c_3", 3, &|r| r[0] == person && r[2] == y), 1);
            let std = ints(rows("s63_c", 3, &mine), 2);
            if std.first() == Some(&0) {
                let z = b.num(0);
                b.step("§63(c)(6) standard deduction (zero)", z)
            } else {
                let parts = vec![b.num(*basic.first().unwrap_or(&0)), b.num(*additional.first().unwrap_or(&0))];
                let d = b.op(parts, |a, c| Money::Add([a, c]));
                b.step("§63(c)(1) standard deduction: basic (c)(2) + additional (c)(3)", d)
            }
        };
        let exemption_rows = rows("exemption_151", 4, &|r| r[0] == person && r[3] == y);
        let exemptions = b.sum(&ints(exemption_rows, 2));
        let exemptions = b.step("§151 personal exemptions", exemptions);

        let after_ded = b.op(vec![gross, deduction], |a, c| Money::Sub([a, c]));
        let after_ex = b.op(vec![after_ded, exemptions], |a, c| Money::Sub([a, c]));
        let zero = b.num(0);
        let ti = b.op(vec![zero, after_ex], |a, c| Money::Max([a, c]));
        let (ti_id, _) = b.step("§63 taxable income", ti);

        let income_tax = ints(rows("income_tax", 3, &mine), 2);
        let clause = ["s1_a", "s1_b", "s1_c"]
            .iter()
            .find(|c| !rows(c, 4, &mine).is_empty())
            .map(|c| c.to_string())
            .or_else(|| (!rows("s1_d", 5, &mine).is_empty()).then(|| "s1_d".to_string()))
            .unwrap_or_else(|| "s1".into());
        let it = b.num(*income_tax.first().unwrap_or(&0));
        let it = b.step(&format!("§1 income tax under {clause} on the taxable income (rate table)"), it);

        let wages = ints(rows("s3301", 4, &mine), 2);
        let excise = match wages.first() {
            Some(&w) => {
                let parts = vec![b.num(w), b.num(6)];
                let times = b.op(parts, |a, c| Money::Mul([a, c]));
                let hundred = b.num(100);
                let share = b.op(vec![times, hundred], |a, c| Money::Div([a, c]));
                let id = b.egraph.add(Money::Round(share.0));
                let mut e = share.1.clone();
                let root = Id::from(e.as_ref().len() - 1);
                e.add(Money::Round(root));
                b.step("§3301 excise tax: 6% of total wages (§3306(b))", (id, e))
            }
            None => {
                let z = b.num(0);
                b.step("§3301 excise tax (not an employer)", z)
            }
        };
        let total = b.op(vec![it, excise], |a, c| Money::Add([a, c]));
        let (total_id, _) = b.step("tax owed", total);
        b.egraph.rebuild();
        let total = b.value(total_id);
        let derived_ti = ints(rows("taxable_income", 3, &mine), 2);
        let consistent = total == Some(answer) && (derived_ti.is_empty() || derived_ti.contains(&b.value(ti_id).unwrap_or(i64::MIN)));
        TaxExplanation { steps: b.steps, total, consistent }
    }
}

//! Differential property test: semi-naive and naive evaluation derive the
//! same relations on generated stratified programs, with recursion and
//! negation.

use lexlog_solver::engine::{run, run_naive, Database, Limits, StopReason};
use lexlog_solver::stratify::stratify;
use lexlog_solver::value::Val;
use lexlog_solver::Program;
use proptest::prelude::*;

const VARS: [&str; 3] = ["X", "Y", "Z"];

/// One body atom: predicate index (0..2 base, 2..6 derived) and two vars.
fn atom() -> impl Strategy<Value = Atom> {
    (0usize..6, 0usize..3, 0usize..3)
}

/// A body atom: predicate index and two variable indices.
type Atom = (usize, usize, usize);
/// A rule: its head predicate, positive body atoms, and a negated atom.
type Rule = (usize, Vec<Atom>, Option<Atom>);

/// A rule for derived predicate `head` (2..6): head vars X, Y; 1-3 positive
/// atoms; optionally one negated atom over a base or lower predicate.
fn rule() -> impl Strategy<Value = Rule> {
    (2usize..6, prop::collection::vec(atom(), 1..4), prop::option::of(atom()))
}

fn name(p: usize) -> String {
    if p < 2 { format!("e{p}") } else { format!("d{p}") }
}

fn program_text(rules: &[Rule]) -> String {
    let mut out = String::new();
    for (head, body, neg) in rules {
        let mut lits: Vec<String> = body.iter().map(|(p, a, b)| format!("{}({}, {})", name(*p), VARS[*a], VARS[*b])).collect();
        // Range restriction: X and Y are bound by a base atom if the body
        // does not bind them.
        lits.push("e0(X, Y)".into());
        if let Some((p, a, b)) = neg {
            // Negated atoms read base predicates, and derived ones only if
            // no rule of theirs reads the head (checked by stratify below;
            // such programs are skipped).
            lits.push(format!("\\+ {}({}, {})", name(*p), VARS[*a], VARS[*b]));
        }
        out.push_str(&format!("{}(X, Y) :- {}.\n", name(*head), lits.join(", ")));
    }
    out
}

fn evaluate(src: &str, facts: &[(usize, i64, i64)], naive: bool) -> Option<Vec<Vec<Vec<Val>>>> {
    let mut p = Program::default();
    for k in 0..6 {
        p.pred(&name(k), 2);
    }
    p.add_source("gen.lex", src).ok()?;
    let strata = stratify(&p).ok()?;
    let mut db = Database::new(&p);
    for (k, a, b) in facts {
        db.insert(p.find(&name(*k), 2).unwrap(), &[Val::Int(*a), Val::Int(*b)]);
    }
    let stop = if naive {
        run_naive(&p, &strata, &mut db, Limits::default())
    } else {
        run(&p, &strata, None, &mut db, Limits::default()).0
    };
    assert_eq!(stop, StopReason::Saturated);
    Some(
        (0..6)
            .map(|k| {
                let mut t: Vec<Vec<Val>> = db.relations[p.find(&name(k), 2).unwrap()].iter().map(|t| t.to_vec()).collect();
                t.sort();
                t
            })
            .collect(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn semi_naive_agrees_with_naive(
        rules in prop::collection::vec(rule(), 1..6),
        facts in prop::collection::vec((0usize..2, 0i64..5, 0i64..5), 0..20),
    ) {
        let src = program_text(&rules);
        let semi = evaluate(&src, &facts, false);
        prop_assume!(semi.is_some(), "not stratifiable");
        let naive = evaluate(&src, &facts, true);
        prop_assert_eq!(semi, naive, "{}", src);
    }
}

//! Which kinds of event each predicate's event arguments take, inferred
//! from the rules as [`crate::signature`] infers their types: an event
//! kind's own relation (`service(S)`) kinds its argument, and a rule's head
//! argument takes the kinds its variable has in the body. So
//! `s3306_c_6(S) :- work(S, R, _), …` asks of a `service`, since `work`'s
//! first place is one. The parser repoints a query's event argument that
//! names no event of such a kind.

use crate::lang::Program;
use crate::program::{Arg, Literal};
use lexlog_data::EventKind;
use std::collections::HashMap;

/// A set of event kinds, by their place in [`EventKind::ALL`]; empty: no
/// evidence (any event, or no event at all).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KindSet(u64);

impl KindSet {
    fn of(kind: EventKind) -> KindSet {
        KindSet(EventKind::ALL.iter().position(|k| *k == kind).map_or(0, |i| 1 << i))
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn union(self, other: KindSet) -> KindSet {
        KindSet(self.0 | other.0)
    }

    pub fn contains(self, kind: EventKind) -> bool {
        self.0 & KindSet::of(kind).0 != 0
    }

    /// The kinds, in [`EventKind::ALL`]'s order.
    pub fn kinds(self) -> Vec<EventKind> {
        EventKind::ALL.iter().copied().filter(|k| self.contains(*k)).collect()
    }
}

/// Event kinds of every predicate's places, by id.
pub fn infer(program: &Program) -> Vec<Vec<KindSet>> {
    let mut kinds: Vec<Vec<KindSet>> = program.preds.iter().map(|p| vec![KindSet::default(); p.arity]).collect();
    let mut seeded = vec![false; kinds.len()];
    for k in EventKind::ALL {
        if let Some(p) = program.find(k.as_str(), 1) {
            kinds[p] = vec![KindSet::of(*k)];
            seeded[p] = true;
        }
    }
    crate::signature::propagate(program, kinds, &seeded, KindSet::default(), KindSet::union, |rule, before| {
        let vars = var_kinds(&rule.body, rule.nvars, before);
        rule.head.args.iter().map(|a| if let Arg::Var(v) = a { vars[*v as usize] } else { KindSet::default() }).collect()
    })
}

/// The kinds a rule body's positive literals give its variables: where
/// two give kinds, those both allow (the first's if they share none).
fn var_kinds(body: &[Literal], nvars: usize, preds: &[Vec<KindSet>]) -> Vec<KindSet> {
    let mut vars = vec![KindSet::default(); nvars];
    for lit in body {
        let Literal::Pos(atom) = lit else { continue };
        for (i, arg) in atom.args.iter().enumerate() {
            let k = preds[atom.pred].get(i).copied().unwrap_or_default();
            if let (Arg::Var(v), false) = (arg, k.is_empty()) {
                let cur = &mut vars[*v as usize];
                let both = KindSet(cur.0 & k.0);
                *cur = if cur.is_empty() { k } else if both.is_empty() { *cur } else { both };
            }
        }
    }
    vars
}

/// Event kinds by predicate name and arity.
pub fn by_name(program: &Program) -> HashMap<(String, usize), Vec<KindSet>> {
    let kinds = infer(program);
    program.preds.iter().zip(kinds).map(|(info, k)| ((info.name.clone(), info.arity), k)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lexlog_data::Role;

    fn program(src: &str) -> Program {
        let mut p = Program::default();
        for r in Role::ALL {
            p.pred(r.as_str(), 2);
        }
        for k in [EventKind::Service, EventKind::Payment, EventKind::Marriage] {
            p.pred(k.as_str(), 1);
        }
        p.add_source("t.lex", src).unwrap();
        p
    }

    #[test]
    fn kinds_flow_from_event_relations_into_heads() {
        let src = "work(S, R, E) :- service(S), agent(S, E), patient(S, R).\n\
                   work(S, R, E) :- stated_work(S, R, E).\n\
                   excepted(S) :- work(S, R, _), agent(_, R).\n\
                   paid_for(P, S) :- payment(P), purpose(P, S), work(S, _, _).\n\
                   either(X) :- payment(X).\neither(X) :- marriage(X).\n";
        let k = by_name(&program(src));
        assert_eq!(k[&("excepted".to_string(), 1)][0].kinds(), vec![EventKind::Service], "a rule with no evidence adds none");
        assert_eq!(k[&("paid_for".to_string(), 2)].iter().map(|s| s.kinds()).collect::<Vec<_>>(), vec![vec![EventKind::Payment], vec![EventKind::Service]]);
        let either = k[&("either".to_string(), 1)][0];
        assert!(either.contains(EventKind::Payment) && either.contains(EventKind::Marriage) && !either.contains(EventKind::Service));
        assert!(k[&("work".to_string(), 3)][1].is_empty(), "names have no kind");
    }
}

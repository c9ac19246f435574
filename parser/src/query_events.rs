//! A query's event arguments, checked against the facts: the question is
//! parsed apart from the sentences, so its `e3` may name an event the
//! facts never declare, or one of a kind the section cannot ask of
//! ("Section 3306(c)(6) applies to Alice's employment situation" asks of
//! her `service`, not of the payment). The solver's rules say which kinds
//! each place takes; an argument naming no event of those kinds is
//! repointed to the first event of such a kind the facts declare.

use crate::target::{declared_events, event_number, Token};
use lexlog_data::EventKind;
use std::collections::HashMap;

/// The event kinds each place of a query predicate takes, by name and
/// arity (from the solver's rules; an empty list: no kind is known).
pub type EventSlots = HashMap<(String, usize), Vec<Vec<EventKind>>>;

/// The events `tokens` declare, each once, in order of declaration.
fn declared(tokens: &[Token]) -> Vec<(String, EventKind)> {
    let mut out: Vec<(String, EventKind)> = Vec::new();
    for (kind, id) in declared_events(tokens) {
        if !out.iter().any(|(d, _)| d == id) {
            out.push((id.to_string(), kind));
        }
    }
    out
}

/// Repoints, in the query of a whole case's `tokens`, each event argument
/// that names no declared event of a kind its place takes to the first
/// declared event that is one; an argument stays where no event is (or
/// where a goal holds a list, whose places cannot be counted by tokens).
pub fn repoint(tokens: &mut [Token], slots: &EventSlots) {
    let Some(q) = tokens.iter().position(|t| *t == Token::Sym("query".into())) else { return };
    let events = declared(&tokens[..q]);
    let end = tokens[q..].iter().position(|t| *t == Token::Sym("\n".into())).map_or(tokens.len(), |i| q + i);
    let mut start = q + 1;
    while start < end {
        let stop = tokens[start..end].iter().position(|t| *t == Token::Sym("&".into())).map_or(end, |i| start + i);
        repoint_goal(&mut tokens[start..stop], &events, slots);
        start = stop + 1;
    }
}

fn repoint_goal(goal: &mut [Token], events: &[(String, EventKind)], slots: &EventSlots) {
    let Some((Token::Sym(pred), args)) = goal.split_first_mut() else { return };
    if args.iter().any(|t| matches!(t, Token::Sym(s) if matches!(s.as_str(), "[" | "]" | "(" | ")" | ","))) {
        return;
    }
    let Some(places) = slots.get(&(pred.clone(), args.len())) else { return };
    for (arg, kinds) in args.iter_mut().zip(places) {
        let Token::Sym(id) = arg else { continue };
        if kinds.is_empty() || event_number(id).is_none() {
            continue;
        }
        let fits = |(_, k): &&(String, EventKind)| kinds.contains(k);
        if events.iter().filter(fits).any(|(d, _)| d == id) {
            continue;
        }
        if let Some((d, _)) = events.iter().find(fits) {
            *id = d.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::{lex, render};

    fn slots() -> EventSlots {
        HashMap::from([
            (("s3306_c_6".to_string(), 1), vec![vec![EventKind::Service]]),
            (("s3306_c_11".to_string(), 3), vec![vec![EventKind::Service], vec![], vec![]]),
        ])
    }

    fn repointed(text: &str) -> String {
        let mut t = lex(text);
        repoint(&mut t, &slots());
        render(&t)
    }

    #[test]
    fn an_argument_naming_no_event_of_its_kind_is_repointed() {
        let facts = "payment e1 agent = bob patient = alice\nservice e2 agent = alice patient = bob\n";
        assert_eq!(repointed(&format!("{facts}query s3306_c_6 e3\n")), format!("{facts}query s3306_c_6 e2\n"), "undeclared");
        assert_eq!(repointed(&format!("{facts}query s3306_c_6 e1\n")), format!("{facts}query s3306_c_6 e2\n"), "a payment is no service");
        assert_eq!(repointed(&format!("{facts}query s3306_c_11 e1 alice _ & s3306_c_6 e2\n")), format!("{facts}query s3306_c_11 e2 alice _ & s3306_c_6 e2\n"));
    }

    #[test]
    fn what_fits_or_has_no_candidate_stays() {
        let facts = "service e1 agent = alice patient = bob\nservice e2 agent = alice patient = carl\n";
        for q in ["query s3306_c_6 e2\n", "query s3306_c_6 _\n", "query s3306_c_11 e1 alice _\n", "query s3306_c_11 e1 alice\n", "query s2_a bob e7 2017\n"] {
            assert_eq!(repointed(&format!("{facts}{q}")), format!("{facts}{q}"));
        }
        let none = "payment e1 agent = bob patient = alice\nquery s3306_c_6 e4\n";
        assert_eq!(repointed(none), none, "no service to point to");
    }
}

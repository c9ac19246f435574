//! The names a reading's query gives: each is one the case mentions (a
//! word of its text or question, "Alice's house" as `alice_s_house`) or
//! one the reading's facts write (an event's id, a house's). SARA asks so
//! in every one of its 376 cases; a beam asked `s1_d unnamed_husband alice
//! 2017 14836 _` of "Alice has to pay $14836 in taxes for the year 2017
//! under section 1(d)", whose text has no husband.

use crate::mentions::Mention;
use lexlog_data::{expand, CaseIr, Goal, GroundFact, Query, Term, Value};
use std::collections::HashSet;

/// Whether `ir`'s query names someone or something neither `mentions`
/// give nor its facts write. A reading whose facts do not unroll is let
/// be (nothing to tell).
pub fn asks_the_unnamed(ir: &CaseIr, mentions: &[Mention]) -> bool {
    let asked = match &ir.query {
        Some(Query::Holds { goals }) => goals
            .iter()
            .filter_map(|g| match g {
                Goal::Holds(a) => Some(a.args.iter()),
                _ => None,
            })
            .flatten()
            .flat_map(term_names)
            .collect::<Vec<_>>(),
        Some(Query::Tax { person, .. }) => vec![person.clone()],
        None => return false,
    };
    let mentioned: HashSet<String> = mentions.iter().flat_map(|m| value_names(&m.value)).collect();
    let unmentioned: Vec<&String> = asked.iter().filter(|n| !mentioned.contains(*n)).collect();
    // Most queries name only what the case mentions: the facts (a
    // hundred-year series unrolled) are read only for the others.
    if unmentioned.is_empty() {
        return false;
    }
    let Ok(facts) = expand(&ir.facts) else { return false };
    let mut written: HashSet<String> = HashSet::new();
    for f in &facts {
        let terms: Vec<&Term> = match f {
            GroundFact::Type { id, .. } => vec![id],
            GroundFact::Role { event, value, .. } => vec![event, value],
            GroundFact::Assert { args, .. } => args.iter().collect(),
        };
        written.extend(terms.into_iter().flat_map(term_names));
    }
    unmentioned.iter().any(|n| !written.contains(*n))
}

/// The names a term gives (a list's, one by one).
fn term_names(t: &Term) -> Vec<String> {
    match t {
        Term::Value(v) => value_names(v),
        _ => Vec::new(),
    }
}

fn value_names(v: &Value) -> Vec<String> {
    match v {
        Value::Name(n) => vec![n.clone()],
        Value::List(vs) => vs.iter().flat_map(value_names).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mentions::extract;
    use lexlog_data::linear::parse;

    #[test]
    fn a_query_names_what_the_case_mentions_or_its_facts_write() {
        let ms = extract("Alice is a surviving spouse for the year 2017. Alice has to pay $14836 in taxes for the year 2017 under section 1(d).");
        let asks = |t: &str| asks_the_unnamed(&parse(t).unwrap(), &ms);
        assert!(asks("query s1_d unnamed_husband alice 2017 14836 _\n"), "no husband is mentioned or written");
        assert!(!asks("query s1_d alice _ 2017 _ 14836\n"));
        assert!(!asks("residence e1 agent=alice patient=alice_s_house\nquery s7703_b_2 alice alice_s_house _ 2018\n"), "a house the facts write");
        assert!(!asks("marriage e1 agent=alice agent=bob\nquery s2_b_2_C alice e1 bob 2014\n"), "an event's id, and a person the facts write");
        assert!(asks("query s2_b_2_C alice e1 _ 2014\n"), "an event no fact states");
        assert!(asks("query s7703_a_2 alice [charlie] _ _ 2018\n"), "a list's names too");
        assert!(!asks("query tax alice 2017\n") && asks("query tax bob 2017\n"));
    }
}

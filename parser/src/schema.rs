//! A schema for the query: the places of the section a question cites,
//! as the solver's rules document them (`s152_a(dependent, taxpayer,
//! year, basis, unused)`), read after the question as a text-to-SQL
//! parser reads a table's columns. Train asks few of the subsections test
//! asks, and the places' order differs from one to the next.

use crate::grammar::{cited, nearest_defined, Signatures};
use crate::mentions::Mention;
use std::collections::HashMap;
use std::sync::Arc;

/// The places of each query predicate, by name
/// (`lexlog_solver::Solver::query_place_names`).
pub type PlaceNames = HashMap<String, Vec<String>>;

/// What the solver tells the parser of the queries it answers: each
/// predicate's argument types, and the places its rules document.
#[derive(Debug, Clone)]
pub struct QuerySchema {
    pub signatures: Arc<Signatures>,
    pub places: Arc<PlaceNames>,
}

impl QuerySchema {
    /// `source` with [`hint`] after it.
    pub fn hinted(&self, source: &str, mentions: &[Mention]) -> String {
        format!("{source}{}", hint(mentions, &self.signatures, &self.places))
    }
}

/// What a query unit's source reads after the question: for each section
/// it cites, the nearest the rules define with its places (empty where
/// none is documented).
pub fn hint(mentions: &[Mention], signatures: &Signatures, places: &PlaceNames) -> String {
    let mut asked: Vec<&str> = Vec::new();
    for s in cited(mentions).filter_map(|c| nearest_defined(c, signatures)) {
        if !asked.contains(&s) {
            asked.push(s);
        }
    }
    asked.iter().filter_map(|s| Some(format!(" Places: {s}({}).", places.get(*s)?.join(", ")))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mentions::MentionKind;
    use lexlog_data::{ArgType, Value};

    #[test]
    fn names_the_places_of_the_nearest_defined_section_cited() {
        let signatures: Signatures = [("s151_d_5", 2), ("s152_a", 5)].map(|(p, n)| (p.to_string(), vec![vec![ArgType::ANY; n]])).into();
        let places: PlaceNames = [("s151_d_5".to_string(), vec!["amount".to_string(), "year".to_string()])].into();
        let cite = |p: &str, in_question| Mention { value: Value::Name(p.into()), start: 0, end: 1, kind: MentionKind::Citation, others: Vec::new(), in_question };
        assert_eq!(hint(&[cite("s151_d_5_A", true)], &signatures, &places), " Places: s151_d_5(amount, year).");
        assert_eq!(hint(&[cite("s151_d_5_A", false)], &signatures, &places), "", "a citation of the text asks nothing");
        assert_eq!(hint(&[cite("s152_a", true)], &signatures, &places), "", "no documented places");
    }
}

//! Reading a case more than once: with its years moved (the text says 2013
//! where it said 2017), each reading's years moved back, and the reading
//! the others agree with most kept. A model that writes a long series
//! right or wrong by a hair (`experiments/results/variants/`) is then
//! judged by its readings' majority rather than by one.

use crate::variants_cmd::{move_years, Substitution, Types};
/// A text with its years moved (`lexlog variants --years`' own mover).
pub(crate) use crate::variants_cmd::move_spelled_years as moved_text;
use lexlog_data::{linear, CaseIr};
use lexlog_parser::decode::Beam;
use std::sync::Arc;

/// How a case's text is read.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    /// People of names the parser never saw read under stand-in names of
    /// SARA's cast ([`lexlog_bridge::names`]).
    pub stand_ins: bool,
    /// Years the text is also read moved by (multiples of 4, so that
    /// February 29th stays a date); none: one reading.
    pub year_shifts: Vec<i64>,
    /// The solver's argument types: which numbers of an IR are years.
    pub types: Arc<Types>,
}

impl Reading {
    pub fn once(stand_ins: bool) -> Reading {
        Reading { stand_ins, ..Default::default() }
    }

    /// The part of a beam cache's name that tells readings apart: empty
    /// for one reading.
    pub fn cache_tag(&self) -> String {
        self.year_shifts.iter().map(|y| format!("-y{y:+}")).collect()
    }
}

/// Beams of a reading moved by `years`, their years moved back (text and
/// IR; `actions` stay the moved reading's); `None` where one does not
/// move back (a date that is none then).
pub fn moved_back(beams: Vec<Beam>, years: i64, types: &Types) -> Option<Vec<Beam>> {
    beams
        .into_iter()
        .map(|mut b| {
            move_years(&mut b.ir, types, &Substitution::years(-years)).ok()?;
            b.text = linear::print(&b.ir);
            Some(b)
        })
        .collect()
}

/// Fact F1 of one IR against another (event ids matched up to renaming);
/// 1 for two empty ones.
fn agreement(a: &CaseIr, b: &CaseIr) -> f64 {
    let c = lexlog_parser::eval::compare(a, b);
    let wrong = c.false_positives + c.false_negatives;
    if c.true_positives + wrong == 0 {
        return 1.0;
    }
    2.0 * c.true_positives as f64 / (2 * c.true_positives + wrong) as f64
}

/// The reading whose best beam's facts agree most with the other readings'
/// best beams (summed fact F1); a tie goes to the earlier reading, so the
/// text as written wins unless outvoted.
pub fn most_agreed(readings: Vec<Vec<Beam>>) -> Vec<Beam> {
    let tops: Vec<Option<&CaseIr>> = readings.iter().map(|r| r.first().map(|b| &b.ir)).collect();
    let score = |i: usize| -> f64 {
        let Some(a) = tops[i] else { return f64::NEG_INFINITY };
        tops.iter().enumerate().filter(|(j, _)| *j != i).filter_map(|(_, b)| b.map(|b| agreement(a, b))).sum()
    };
    let mut best = 0;
    let mut best_score = score(0);
    for i in 1..readings.len() {
        let s = score(i);
        if s > best_score {
            (best, best_score) = (i, s);
        }
    }
    readings.into_iter().nth(best).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn beam(text: &str) -> Beam {
        Beam { actions: Vec::new(), logprob: 0.0, text: text.to_string(), ir: linear::parse(text).unwrap() }
    }

    const RIGHT: &str = "payment e1 agent=alice amount=40 start=2017-09-16\nincome e2 agent=bob amount=100 start=2018-12-31\n";
    const WRONG: &str = "payment e1 agent=bob amount=40 start=2017-09-16\nincome e2 agent=bob amount=100 start=2018-12-31\n";

    #[test]
    fn the_majority_reading_is_kept() {
        let kept = most_agreed(vec![vec![beam(WRONG)], vec![beam(RIGHT)], vec![beam(RIGHT)]]);
        assert_eq!(kept[0].text, RIGHT);
    }

    #[test]
    fn a_tie_keeps_the_text_as_written() {
        let kept = most_agreed(vec![vec![beam(WRONG)], vec![beam(RIGHT)]]);
        assert_eq!(kept[0].text, WRONG);
    }

    #[test]
    fn a_reading_with_no_beam_is_never_kept() {
        let kept = most_agreed(vec![Vec::new(), vec![beam(RIGHT)], vec![beam(WRONG)]]);
        assert_eq!(kept[0].text, RIGHT);
    }

    #[test]
    fn years_move_back_in_facts_groups_and_query() {
        let solver = lexlog_solver::Solver::new().unwrap();
        let types = solver.argument_types();
        let moved = "payment e1 agent=alice start=2013-09-16\nfor Y in 2013..2113 {\n  payment e2_{Y} agent=bob start=first_day(Y)\n}\nquery tax alice 2014\n";
        let back = moved_back(vec![beam(moved)], -4, &types).unwrap();
        let want = "payment e1 agent=alice start=2017-09-16\nfor Y in 2017..2117 {\n  payment e2_{Y} agent=bob start=first_day(Y)\n}\nquery tax alice 2018\n";
        assert_eq!(back[0].ir, linear::parse(want).unwrap());
        assert_eq!(linear::parse(&back[0].text).unwrap(), back[0].ir);
    }

    #[test]
    fn text_years_move_but_dollar_amounts_stay() {
        assert_eq!(moved_text("Since 2017 Bob paid $2016 on May 2nd, 2018.", -4), "Since 2013 Bob paid $2016 on May 2nd, 2014.");
    }
}

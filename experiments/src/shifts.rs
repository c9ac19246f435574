//! Reading a case more than once: with its years moved (the text says 2013
//! where it said 2017), each reading's years moved back, and the reading
//! the others agree with most kept ([`crate::vote`]). A model that writes
//! a long series right or wrong by a hair (`experiments/results/variants/`)
//! is then judged by its readings' majority rather than by one.

use crate::variants_cmd::{move_years, Substitution, Types};
/// A text with its years moved (`lexlog variants --years`' own mover).
pub(crate) use crate::variants_cmd::move_spelled_years as moved_text;
use lexlog_data::linear;
use lexlog_parser::decode::Beam;
use std::path::PathBuf;
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
    /// Models trained apart that also read each case, each as `--model`
    /// does (`--vote`); the reading the others agree with most is kept.
    pub voters: Vec<PathBuf>,
    /// A stated share of costs given its rest where a reading lacks it
    /// ([`crate::shares`]).
    pub share_rests: bool,
}

impl Reading {
    pub fn once(stand_ins: bool) -> Reading {
        Reading { stand_ins, ..Default::default() }
    }

    /// The part of a beam cache's name that tells readings apart: empty
    /// for one reading.
    pub fn cache_tag(&self) -> String {
        let mut tag: String = self.year_shifts.iter().map(|y| format!("-y{y:+}")).collect();
        if !self.voters.is_empty() {
            tag.push_str(&format!("-vote{:016x}", crate::joint::dirs_hash(&self.voters)));
        }
        if self.share_rests {
            tag.push_str(&format!("-rest{}", crate::joint::COMPLETION_VERSION));
        }
        tag
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vote::tests::beam;

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
    fn a_beam_cache_tells_its_voters_and_shifts_apart() {
        let once = Reading::once(true);
        let voted = |dirs: &[&str]| Reading { voters: dirs.iter().map(PathBuf::from).collect(), ..Reading::once(true) };
        assert_eq!(once.cache_tag(), "");
        assert_ne!(voted(&["a", "b"]).cache_tag(), voted(&["a", "c"]).cache_tag());
        assert_ne!(voted(&["ab"]).cache_tag(), voted(&["a", "b"]).cache_tag());
        let shifted = Reading { year_shifts: vec![-4, 4], ..voted(&["a"]) };
        assert!(shifted.cache_tag().starts_with("-y-4-y+4-vote"), "{}", shifted.cache_tag());
        // Beams completed by an earlier version of the shares' completion are not read.
        let completed = Reading { share_rests: true, ..Reading::once(true) };
        assert_eq!(completed.cache_tag(), format!("-rest{}", crate::joint::COMPLETION_VERSION));
    }

    #[test]
    fn text_years_move_but_dollar_amounts_stay() {
        assert_eq!(moved_text("Since 2017 Bob paid $2016 on May 2nd, 2018.", -4), "Since 2013 Bob paid $2016 on May 2nd, 2014.");
    }
}

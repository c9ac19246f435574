//! Keeping, of several readings of one case, the one the others agree
//! with most: readings of the text with its years moved
//! ([`crate::shifts`]), or by models trained apart (`--vote`), whose
//! errors a majority can outvote where one model writes a long series
//! right or wrong by a hair.

use lexlog_data::CaseIr;
use lexlog_parser::decode::Beam;

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
/// first (the text as written, by `--model`) wins unless outvoted.
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
pub(crate) mod tests {
    use super::*;
    use lexlog_data::linear;

    /// A beam of this linear form (shared with `shifts`' tests).
    pub(crate) fn beam(text: &str) -> Beam {
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
}

//! Recombining two sentences of a case into one: "X. Y." also said as
//! "X, and y.", with the facts of both aligned to it. SARA's tax cases
//! join what its entailment cases say in sentences of their own ("Alice
//! is an American employer, and Bob is an American citizen"); a model
//! trained on single clauses writes the first clause's facts alone.

use crate::config::Unit;
use crate::example::Example;
use crate::mentions::{extract, QUESTION_MARKER};
use crate::sentences::{align, rewritten_units, split, split_groups};

/// Words that begin a sentence only as such, lowercased inside one.
const OPENERS: [&str; 24] = [
    "In", "From", "On", "The", "During", "Since", "He", "She", "They", "His", "Her", "Their", "It", "At", "For", "After", "Before", "When", "While",
    "There", "This", "That", "Both", "Each",
];

/// `e` with its sentences `j` and `j + 1` joined ("X, and y."), where `j`
/// is picked by `salt` among the adjacent pairs that both state facts, and
/// the index of the joined sentence; `None` where the case has no such
/// pair or the joined text would not split or align as the two did.
pub fn conjoined_variant(e: &Example, salt: u64) -> Option<(Example, usize)> {
    let (text, question) = e.source.split_once(QUESTION_MARKER)?;
    let spans = split(text);
    let ir = split_groups(&e.ir()?);
    let home = align(text, &ir);
    let states = |i: usize| home.contains(&i);
    let pairs: Vec<usize> = (0..spans.len().saturating_sub(1)).filter(|&j| states(j) && states(j + 1) && text[spans[j].0..spans[j].1].ends_with('.')).collect();
    let j = *pairs.get((salt % pairs.len().max(1) as u64) as usize)?;
    let first = &text[spans[j].0..spans[j].1 - 1];
    let second = &text[spans[j + 1].0..spans[j + 1].1];
    let word = second.split(|c: char| !c.is_alphanumeric()).next().unwrap_or_default();
    let second = if OPENERS.contains(&word) { format!("{}{}", word.to_lowercase(), &second[word.len()..]) } else { second.to_string() };
    let joined = format!("{}{first}, and {second}{}", &text[..spans[j].0], &text[spans[j + 1].1..]);
    let moved: Vec<usize> = home.iter().map(|&h| if h > j { h - 1 } else { h }).collect();
    if split(&joined).len() + 1 != spans.len() || align(&joined, &ir) != moved {
        return None;
    }
    let source = format!("{joined}{QUESTION_MARKER}{question}");
    Some((Example { id: format!("{}~and", e.id), mentions: extract(&source), source, target: e.target.clone(), focus: None }, j))
}

/// What `augment_conjoin` trains on: the [`conjoined_variant`] of every
/// second case (by `seed`), as `unit`s; of a sentence unit's copy only
/// the joined sentence, the rest being its original's.
pub fn conjoined_units(cases: &[Example], unit: Unit, seed: u64) -> Vec<Example> {
    let variants = cases.iter().enumerate().filter(|(i, _)| (seed as usize).wrapping_add(*i) % 2 == 0).filter_map(|(i, e)| conjoined_variant(e, seed.wrapping_add(i as u64) / 2));
    rewritten_units(variants, unit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::example::source_text;
    use crate::target::{lex, render};

    fn example(text: &str, question: &str, target: &str) -> Example {
        let source = source_text(text, question);
        Example { id: "x".into(), mentions: extract(&source), source, target: lex(target), focus: None }
    }

    #[test]
    fn two_sentences_become_one_with_the_facts_of_both() {
        let e = example(
            "In 2012, Alice was paid $54268. Alice is an American employer. Bob is an American citizen.",
            "How much tax does Bob have to pay in 2012?",
            "payment e1 patient=alice start=2012-12-31 amount=54268\namerican_employer e2 agent=alice\ncitizenship e3 agent=bob patient=\"usa\"\nquery tax bob 2012\n",
        );
        let (v, j) = conjoined_variant(&e, 1).unwrap();
        assert_eq!(j, 1);
        assert_eq!(v.source, source_text("In 2012, Alice was paid $54268. Alice is an American employer, and Bob is an American citizen.", "How much tax does Bob have to pay in 2012?"));
        // Seed 2 keeps the first case and picks its second pair.
        let units = conjoined_units(std::slice::from_ref(&e), Unit::MarkedSentence, 2);
        assert_eq!(units.len(), 1);
        assert_eq!(units[0].id, "x~and#1");
        assert_eq!(render(&units[0].target), "american_employer e1 agent = alice\ncitizenship e2 agent = bob patient = \"usa\"\n");
        // A leading "In 2012" is lowercased inside the joined sentence.
        let (v, _) = conjoined_variant(&e, 0).unwrap();
        assert!(v.source.starts_with("In 2012, Alice was paid $54268, and Alice is an American employer."), "{}", v.source);
    }

    #[test]
    fn a_case_without_two_stating_sentences_gives_none() {
        let e = example("Alice takes the standard deduction. Alice was paid $100 in 2017.", "Q?", "payment e1 patient=alice start=2017-12-31 amount=100\nquery tax alice 2017\n");
        assert!(conjoined_variant(&e, 0).is_none());
    }
}

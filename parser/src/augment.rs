//! Data augmentation from the train split only: consistent substitution of
//! people's names, dollar amounts and (optionally) years and dates in a
//! case's text and target, so the parser learns to copy what the text says
//! rather than to remember SARA's names, numbers and years; and
//! recombination of cases, one's text then another's text and question, as
//! SARA's tax cases were written.

use crate::example::Example;
use crate::mentions::{extract, is_year, spelled_year, words};
use crate::people::{CAST, RENAMES};
use chrono::Datelike;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use crate::target::{max_event, shift_events, Token};
use lexlog_data::Value;

fn replace_word(text: &str, from: &str, to: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word == from {
            out.push_str(to);
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

fn rename_value(v: &Value, from: &str, to: &str) -> Value {
    match v {
        Value::Name(n) => Value::Name(n.split('_').map(|p| if p == from { to } else { p }).collect::<Vec<_>>().join("_")),
        other => other.clone(),
    }
}

/// The text and target with every year the text spells moved by `years`
/// (the years inside its dates too), and alike in the target: those years,
/// the dates the text gives or a year's first and last days, and the
/// values a "since" date gives. `None` where that would not stay faithful:
/// a year-like number the text also gives otherwise ("$2000"), a year or
/// date in the target that the text does not give, a text or name with a
/// moved year in it, or a date that does not exist once moved.
fn shift_years(e: &Example, years: i32) -> Option<(String, Vec<Token>)> {
    let mut moved = HashSet::new();
    let mut spans = Vec::new();
    let mut others = HashSet::new();
    for (s, _, w) in words(&e.source) {
        match spelled_year(w) {
            Some((at, y)) => {
                moved.insert(i64::from(y));
                spans.push((s + at, y));
            }
            None => {
                let n: String = w.chars().filter(char::is_ascii_digit).collect();
                others.extend(n.parse::<i64>());
            }
        }
    }
    if moved.is_empty() || !moved.is_disjoint(&others) {
        return None;
    }
    let derived: HashSet<i64> = e
        .mentions
        .iter()
        .filter(|m| m.kind.is_derived())
        .filter_map(|m| if let Value::Int(n) = m.value { Some(n) } else { None })
        .collect();
    // A date the text gives, or the first or last day of a year it gives.
    let given_dates: HashSet<&Value> = e.mentions.iter().map(|m| &m.value).filter(|v| matches!(v, Value::Date(_))).collect();
    let shift_date = |d: chrono::NaiveDate| d.with_year(d.year() + years);
    let mut new_target = Vec::with_capacity(e.target.len());
    for t in &e.target {
        new_target.push(match t {
            Token::Value(Value::Int(n)) if moved.contains(n) || derived.contains(n) => Token::Value(Value::Int(n + i64::from(years))),
            Token::Value(Value::Int(n)) if is_year(*n) => return None,
            Token::Value(v @ Value::Date(d)) => {
                if !given_dates.contains(v) {
                    return None;
                }
                Token::Value(Value::Date(shift_date(*d)?))
            }
            Token::Value(Value::Text(x) | Value::Name(x)) if moved.iter().any(|y| x.contains(&y.to_string())) => return None,
            other => other.clone(),
        });
    }
    let mut text = e.source.clone();
    // Back to front, so the offsets still to come stay put.
    for (at, y) in spans.into_iter().rev() {
        text.replace_range(at..at + 4, &(y + years).to_string());
    }
    Some((text, new_target))
}

/// One variant of `e`: the people renamed by `shift`, amounts scaled,
/// years moved by `years` where that stays faithful.
fn variant(e: &Example, shift: usize, factor: i64, years: i32, percentages: bool) -> Example {
    let moved = if years == 0 { None } else { shift_years(e, years) };
    let (mut source, mut target) = moved.unwrap_or_else(|| (e.source.clone(), e.target.clone()));
    let people: Vec<String> = CAST
        .iter()
        .filter(|n| source.contains(*n))
        .map(|n| n.to_string())
        .collect();
    for (i, name) in people.iter().enumerate() {
        let new = RENAMES[(i + shift) % RENAMES.len()];
        source = replace_word(&source, name, new);
        let (from, to) = (name.to_lowercase(), new.to_lowercase());
        target = target
            .into_iter()
            .map(|t| match t {
                Token::Value(v) => Token::Value(rename_value(&v, &from, &to)),
                s => s,
            })
            .collect();
    }
    // Dollar amounts: "$N" in the text and N in the target, scaled alike.
    for m in extract(&e.source) {
        if let Value::Int(n) = m.value {
            let spelled = &e.source[m.start..m.end];
            if spelled.starts_with('$') && n > 100 {
                let new = n * factor / 100;
                source = source.replace(&format!("${n}"), &format!("${new}"));
                target = target
                    .into_iter()
                    .map(|t| if t == Token::Value(Value::Int(n)) { Token::Value(Value::Int(new)) } else { t })
                    .collect();
            }
        }
    }
    // Percentages: "N%" in the text and N in the target, and the share
    // "the remaining" costs leave (100 - N) where the text does not spell it.
    if let Some(shares) = percentages.then(|| percent_shares(e, shift)).flatten() {
        for (i, (n, _)) in shares.iter().enumerate() {
            source = source.replace(&format!("{n}%"), &format!("\u{0}{i}%"));
        }
        for (i, (_, new)) in shares.iter().enumerate() {
            source = source.replace(&format!("\u{0}{i}%"), &format!("{new}%"));
        }
        target = target
            .into_iter()
            .map(|t| match t {
                Token::Value(Value::Int(v)) => Token::Value(Value::Int(shares.get(&v).copied().unwrap_or(v))),
                t => t,
            })
            .collect();
    }
    let mentions = extract(&source);
    Example { id: format!("{}~{shift}", e.id), source, mentions, target, focus: None }
}

/// New values for the percentages the text spells (and for the rest of
/// each, 100 - N, where the text does not spell it), all moved by one step;
/// `None` where there are none, or where a new value would be an old one
/// or any other number the text gives.
fn percent_shares(e: &Example, shift: usize) -> Option<BTreeMap<i64, i64>> {
    const STEPS: [i64; 7] = [15, 35, 55, 75, 25, 65, 85];
    let numbers: HashSet<i64> = e.mentions.iter().filter_map(|m| if let Value::Int(n) = m.value { Some(n) } else { None }).collect();
    let spelled: BTreeSet<i64> =
        e.mentions.iter().filter(|m| e.source[m.start..m.end].contains('%')).filter_map(|m| if let Value::Int(n) = m.value { Some(n) } else { None }).collect();
    let elsewhere = |n: &i64| e.mentions.iter().any(|m| m.value == Value::Int(*n) && !e.source[m.start..m.end].contains('%'));
    if spelled.is_empty() || spelled.iter().any(|n| !(1..100).contains(n) || elsewhere(n)) {
        return None;
    }
    let step = STEPS[shift % STEPS.len()];
    let mut shares = BTreeMap::new();
    for &n in &spelled {
        let new = (n + step) % 100;
        shares.insert(n, new);
        if !numbers.contains(&(100 - n)) {
            shares.insert(100 - n, 100 - new);
        }
    }
    let fresh = shares.values().all(|v| (1..100).contains(v) && !numbers.contains(v) && !shares.contains_key(v));
    let distinct = shares.values().collect::<HashSet<_>>().len() == shares.len();
    (fresh && distinct).then_some(shares)
}

/// What the renamed and rescaled copies move besides names and dollar
/// amounts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moves {
    /// Every year the text spells, with its dates (by 4 or 8 either way,
    /// so leap days stay leap days).
    pub years: bool,
    /// The percentages the text spells, and the rest a "remaining" share
    /// leaves.
    pub percentages: bool,
}

/// The examples and two variants of each.
pub fn augment(examples: Vec<Example>, seed: u64, moves: Moves) -> Vec<Example> {
    let mut out = Vec::with_capacity(examples.len() * 3);
    for (i, e) in examples.iter().enumerate() {
        let s = (seed as usize).wrapping_add(i);
        let (first, second) = if !moves.years { (0, 0) } else if s % 2 == 0 { (4, -8) } else { (-4, 8) };
        out.push(variant(e, s % 7 + 1, 87 + (s % 5) as i64 * 6, first, moves.percentages));
        out.push(variant(e, s % 5 + 8, 113 + (s % 3) as i64 * 4, second, moves.percentages));
    }
    out.extend(examples);
    out
}

/// `first`'s text and facts, then `second`'s text, question, facts and
/// query. The targets stay canonical: `second`'s event ids move past
/// `first`'s, which come first in the text too.
pub fn combine(first: &Example, second: &Example) -> Example {
    let marker = crate::example::source_text("", "");
    let text = first.source.split(marker.as_str()).next().unwrap_or_default();
    let source = format!("{text} {}", second.source);
    let query = first.target.iter().position(|t| t == &Token::Sym("query".into())).unwrap_or(first.target.len());
    let shift = max_event(&first.target);
    let mut target = first.target[..query].to_vec();
    target.extend(shift_events(&second.target, shift));
    let mentions = extract(&source);
    Example { id: format!("{}+{}", first.id, second.id), source, mentions, target, focus: None }
}

/// `per_case` recombinations for each short example (the entailment
/// cases, under 400 characters), each with a partner drawn by `seed`.
pub fn recombine(examples: &[Example], per_case: usize, seed: u64) -> Vec<Example> {
    let short: Vec<&Example> = examples.iter().filter(|e| e.source.len() < 400).collect();
    let mut out = Vec::new();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for first in &short {
        for _ in 0..per_case {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let second = short[(state % short.len() as u64) as usize];
            if second.id != first.id {
                out.push(combine(first, second));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::lex;

    #[test]
    fn names_and_amounts_change_together() {
        let source = "Alice paid $1200 to Bob.".to_string();
        let e = Example { id: "x".into(), mentions: extract(&source), source, target: lex("payment e1 agent=alice patient=bob amount=1200\n"), focus: None };
        let v = variant(&e, 1, 150, 0, true);
        assert!(!v.source.contains("Alice") && v.source.contains("$1800"), "{}", v.source);
        let names: Vec<&Token> = v.target.iter().filter(|t| matches!(t, Token::Value(Value::Name(_)))).collect();
        assert_eq!(names.len(), 2);
        assert!(v.target.contains(&Token::Value(Value::Int(1800))));
        assert_copyable(&v);
    }

    #[test]
    fn percentages_and_the_remaining_share_change_together() {
        let source = "Bob furnished 40% of the costs, and Alice furnished the remaining costs.".to_string();
        let target = lex("payment e1 agent=bob amount=40\npayment e2 agent=alice amount=60\n");
        let e = Example { id: "x".into(), mentions: extract(&source), source, target, focus: None };
        for shift in 0..10 {
            let v = variant(&e, shift, 100, 0, true);
            let amounts: Vec<i64> = v.target.iter().filter_map(|t| if let Token::Value(Value::Int(n)) = t { Some(*n) } else { None }).collect();
            assert_eq!(amounts.len(), 2);
            assert!(amounts[0] != 40 && amounts[0] + amounts[1] == 100, "{amounts:?}");
            assert!(v.source.contains(&format!("{}%", amounts[0])), "{}", v.source);
        }
        // A rest the text spells is a mention of its own: it stays.
        let source = "Bob pays 75%, Charlie the remaining 25%.".to_string();
        let e = Example { id: "y".into(), mentions: extract(&source), source, target: lex("payment e1 agent=bob amount=75\npayment e2 agent=charlie amount=25\n"), focus: None };
        let v = variant(&e, 1, 100, 0, true);
        assert!(!v.source.contains("75%") && !v.source.contains("25%"), "{}", v.source);
        assert_copyable(&v);
        // Without the percentage moves, the shares stay.
        let kept = variant(&e, 1, 100, 0, false);
        assert!(kept.source.contains("75%") && kept.source.contains("25%"), "{}", kept.source);
        assert!(kept.target.contains(&Token::Value(Value::Int(75))), "{}", crate::target::render(&kept.target));
    }

    #[test]
    fn years_move_with_their_dates_and_series() {
        let source = crate::example::source_text(
            "Alice married Bob on Feb 29th, 1992. Alice has maintained a home since September 16th, 2017.",
            "Does section 2 apply to Alice in 2018?",
        );
        let target = lex("marriage e1 agent=alice agent=bob start=1992-02-29\npayment e2 agent=alice start=2017-09-16 end=2017-12-31\nfor Y in 2018..2117 {\n  payment e3_{Y} agent=alice start=first_day(Y) end=last_day(Y)\n}\nquery s2 alice _ 2018\n");
        let e = Example { id: "x".into(), mentions: extract(&source), source, target, focus: None };
        let v = variant(&e, 1, 100, 4, true);
        assert!(v.source.contains("Feb 29th, 1996") && v.source.contains("September 16th, 2021") && v.source.contains("in 2022?"), "{}", v.source);
        let text = crate::target::render(&v.target);
        for moved in ["1996-02-29", "2021-09-16", "2021-12-31", "2022 .. 2121", "s2 victor _ 2022"] {
            assert!(text.contains(moved), "{moved} missing from {text}");
        }
        assert_copyable(&v);
        // A leap day that does not exist once moved, and a year-like amount,
        // keep the years as they are.
        assert!(shift_years(&e, 1).is_none());
        let source = "Alice paid $2017 in 2017.".to_string();
        let paid = Example { id: "y".into(), mentions: extract(&source), source, target: lex("payment e1 agent=alice amount=2017 start=2017-12-31\n"), focus: None };
        assert!(shift_years(&paid, 4).is_none());
    }

    fn assert_copyable(e: &Example) {
        for t in &e.target {
            if let Token::Value(val) = t {
                assert!(e.mentions.iter().any(|m| &m.value == val), "{val:?} not copyable from {}", e.source);
            }
        }
    }

    #[test]
    fn combined_cases_stay_canonical_and_copyable() {
        let example = |text: &str, question: &str, target: &str| {
            let source = crate::example::source_text(text, question);
            Example { id: text.into(), mentions: extract(&source), source, target: lex(target), focus: None }
        };
        let a = example("Alice married Bob on Feb 3rd, 1992.", "Is Alice married?", "marriage e1 agent=alice agent=bob start=1992-02-03\nquery s7703 alice _ 1992\n");
        let b = example("Bob paid $1200 to Alice in 2017.", "Section 63 applies to Bob.", "payment e1 agent=bob patient=alice amount=1200 start=2017-12-31\nquery s63 bob _ _\n");
        let c = combine(&a, &b);
        assert_eq!(c.source, "Alice married Bob on Feb 3rd, 1992. Bob paid $1200 to Alice in 2017. Question: Section 63 applies to Bob.");
        let text = crate::target::render(&c.target);
        let ir = lexlog_data::linear::parse(&text).unwrap();
        assert_eq!(lexlog_data::linear::canonical_ids(&ir), ir, "{text}");
        assert!(text.contains("payment e2") && text.contains("query s63 bob") && !text.contains("s7703"), "{text}");
        assert_copyable(&c);
    }
}

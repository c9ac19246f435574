//! Recombining a sentence's time expression: a train sentence that holds
//! "from 2004 to 2019" is also given with "since March 3rd, 2004" in its
//! place, with the facts SARA writes for a "since" date: what held over
//! the range starts on that date and has no end, and a yearly series (a
//! household maintained every year) becomes the partial first year as an
//! event of its own, then every whole year from the next to a century on.
//! Train has such series for one payer only; this lets a model see any
//! sentence it has with either time expression.

use crate::example::Example;
use crate::mentions::{extract, QUESTION_MARKER, SERIES_HORIZON};
use crate::config::Unit;
use crate::sentences::{align, rewritten_units, split, split_groups};
use crate::target::lex;
use lexlog_data::{linear, CaseIr, Domain, Event, Fact, ForEach, Role, Term, Value};
use chrono::{Datelike, NaiveDate};

const MONTHS: [&str; 12] =
    ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/// `e` with its first "from Y1 to Y2" sentence said with "since" a date of
/// Y1 (picked by `salt`, never January 1st), and its facts alike; `None`
/// where the text has no such range or a fact of that sentence would not
/// stay faithful (a date inside the range other than its first and last
/// day, a series over other years or of other dates).
pub fn since_variant(e: &Example, salt: u64) -> Option<Example> {
    variant_at(e, salt).map(|(v, _)| v)
}

/// What `augment_since` trains on: each case's [`since_variant`] (salted
/// by `seed` and its index), as `unit`s; of a sentence unit's copy only the
/// rewritten sentence, the rest being its original's.
pub fn since_units(cases: &[Example], unit: Unit, seed: u64) -> Vec<Example> {
    let variants = cases.iter().enumerate().filter_map(|(i, e)| variant_at(e, seed.wrapping_add(i as u64)));
    rewritten_units(variants, unit)
}

/// [`since_variant`] and the index of the sentence it rewrites.
fn variant_at(e: &Example, salt: u64) -> Option<(Example, usize)> {
    let (text, question) = e.source.split_once(QUESTION_MARKER)?;
    let spans = split(text);
    let (i, (from, to), at) = spans.iter().enumerate().find_map(|(i, &(s, t))| range_in(&text[s..t]).map(|(r, at)| (i, r, at)))?;
    let month = 2 + (salt % 11) as u32;
    let day = 1 + ((salt / 11) % 28) as u32;
    let date = NaiveDate::from_ymd_opt(from, month, day)?;

    let ir = split_groups(&e.ir()?);
    let home = align(text, &ir);
    let mut facts = Vec::new();
    let mut later = Vec::new();
    for (f, &h) in ir.facts.iter().zip(&home) {
        if h != i {
            facts.append(&mut later);
            facts.push(f.clone());
            continue;
        }
        match f {
            Fact::Event(ev) => {
                facts.append(&mut later);
                facts.push(Fact::Event(from_date(ev, (from, to), date)?));
            }
            Fact::ForEach(g) => {
                let (partial, series) = series_since(g, (from, to), date, facts.len() + later.len())?;
                // SARA's order: the first partial year, the series, the others' partial years.
                let first = !matches!(facts.last(), Some(Fact::ForEach(p)) if p.domain == series.domain);
                if first {
                    facts.push(partial);
                } else {
                    later.push(partial);
                }
                facts.push(Fact::ForEach(series));
            }
            Fact::Assert(_) => return None,
        }
    }
    facts.append(&mut later);

    let (s, t) = spans[i];
    let sentence = rewrite(&text[s..t], at, date)?;
    let source = format!("{}{sentence}{}{QUESTION_MARKER}{question}", &text[..s], &text[t..]);
    let ir = linear::canonical_ids(&CaseIr { facts: join_groups(facts), query: ir.query.clone() });
    let target = lex(&linear::print(&ir));
    Some((Example { id: format!("{}~since", e.id), mentions: extract(&source), source, target, focus: None }, i))
}

/// Groups over the same values joined into the first, as folding writes
/// them (undoing [`split_groups`]).
pub(crate) fn join_groups(facts: Vec<Fact>) -> Vec<Fact> {
    let mut out: Vec<Fact> = Vec::new();
    for f in facts {
        if let Fact::ForEach(g) = &f {
            let same = out.iter_mut().find_map(|o| match o {
                Fact::ForEach(o) if o.var == g.var && o.domain == g.domain => Some(o),
                _ => None,
            });
            if let Some(o) = same {
                o.body.extend(g.body.iter().cloned());
                continue;
            }
        }
        out.push(f);
    }
    out
}

/// The first "from Y1 to Y2" of a sentence, its years and where it is.
pub fn range_in(sentence: &str) -> Option<((i32, i32), usize)> {
    let lower = sentence.to_lowercase();
    lower.match_indices("from ").find_map(|(at, _)| {
        let rest = &lower[at + 5..];
        let year = |s: &str| s.get(..4).filter(|y| y.bytes().all(|b| b.is_ascii_digit())).and_then(|y| y.parse::<i32>().ok());
        let from = year(rest)?;
        let to = year(rest.get(4..)?.strip_prefix(" to ")?)?;
        let ends = rest.as_bytes().get(12).is_none_or(|b| !b.is_ascii_alphanumeric());
        (ends && from < to && at.checked_sub(1).is_none_or(|b| !lower.as_bytes()[b].is_ascii_alphanumeric())).then_some(((from, to), at))
    })
}

/// The sentence with its range (at `at`) said as "since DATE": a leading
/// "From Y1 to Y2, ..." moves to the end; "during that time" goes.
fn rewrite(sentence: &str, at: usize, date: NaiveDate) -> Option<String> {
    let since = format!("since {} {}{}, {}", MONTHS[date.month0() as usize], date.day(), ordinal(date.day()), date.year());
    let range_len = "from 2004 to 2019".len();
    let body = if at == 0 {
        let rest = sentence.get(range_len..)?.strip_prefix(", ")?;
        let rest = rest.strip_suffix('.')?;
        let mut chars = rest.chars();
        let first = chars.next()?.to_uppercase().collect::<String>();
        format!("{first}{}, {since}.", chars.as_str())
    } else {
        format!("{}{since}{}", &sentence[..at], &sentence[at + range_len..])
    };
    Some(body.replace(" during that time", ""))
}

fn ordinal(day: u32) -> &'static str {
    match (day % 10, day % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

fn date_of(t: &Term) -> Option<NaiveDate> {
    match t {
        Term::Value(Value::Date(d)) => Some(*d),
        _ => None,
    }
}

/// An event that held over the whole range starts on `date` and has no
/// end; one with no dates in the range stays as it is.
fn from_date(ev: &Event, (from, to): (i32, i32), date: NaiveDate) -> Option<Event> {
    let first = NaiveDate::from_ymd_opt(from, 1, 1)?;
    let last = NaiveDate::from_ymd_opt(to, 12, 31)?;
    let inside = |d: NaiveDate| (from..=to).contains(&d.year());
    let dated: Vec<(Role, NaiveDate)> = ev.roles.iter().filter_map(|(r, t)| date_of(t).filter(|d| inside(*d)).map(|d| (*r, d))).collect();
    if dated.is_empty() {
        return Some(ev.clone());
    }
    if dated != [(Role::Start, first), (Role::End, last)] {
        return None;
    }
    let roles = ev
        .roles
        .iter()
        .filter(|(r, _)| *r != Role::End)
        .map(|(r, t)| if *r == Role::Start { (*r, Term::date(date)) } else { (*r, t.clone()) })
        .collect();
    Some(Event { roles, ..ev.clone() })
}

/// A yearly series over the range as SARA writes one "since" `date`: its
/// first, partial year (an event named apart by `n`), and the whole years
/// after, to the horizon.
fn series_since(g: &ForEach, (from, to): (i32, i32), date: NaiveDate, n: usize) -> Option<(Fact, ForEach)> {
    if g.domain != (Domain::Range { from: i64::from(from), to: i64::from(to) }) {
        return None;
    }
    let [Fact::Event(ev)] = g.body.as_slice() else { return None };
    let yearly = ev.roles.iter().any(|(r, t)| *r == Role::Start && *t == Term::FirstDay(g.var.clone()))
        && ev.roles.iter().any(|(r, t)| *r == Role::End && *t == Term::LastDay(g.var.clone()));
    let other_dates = ev.roles.iter().any(|(r, t)| !matches!(r, Role::Start | Role::End) && (date_of(t).is_some() || uses_var(t, &g.var)));
    if !yearly || other_dates {
        return None;
    }
    let year_end = NaiveDate::from_ymd_opt(from, 12, 31)?;
    let roles = ev
        .roles
        .iter()
        .map(|(r, t)| match r {
            Role::Start => (*r, Term::date(date)),
            Role::End => (*r, Term::date(year_end)),
            _ => (*r, t.clone()),
        })
        .collect();
    let partial = Fact::Event(Event { kind: ev.kind, id: Term::name(format!("since_first_year_{n}")), roles });
    let domain = Domain::Range { from: i64::from(from) + 1, to: i64::from(from) + SERIES_HORIZON };
    Some((partial, ForEach { domain, ..g.clone() }))
}

fn uses_var(t: &Term, var: &str) -> bool {
    match t {
        Term::Var(v) | Term::FirstDay(v) | Term::LastDay(v) => v == var,
        Term::Concat(parts) => parts.iter().any(|p| matches!(p, lexlog_data::Part::Var(v) if v == var)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::example::source_text;
    use crate::target::render;

    fn example(text: &str, question: &str, target: &str) -> Example {
        let source = source_text(text, question);
        Example { id: "x".into(), mentions: extract(&source), source, target: lex(target), focus: None }
    }

    /// Every date and number of the target is one the text gives.
    fn assert_copyable(e: &Example) {
        for t in &e.target {
            if let crate::target::Token::Value(val @ (Value::Date(_) | Value::Int(_))) = t {
                assert!(e.mentions.iter().any(|m| &m.value == val), "{val:?} not copyable from {}", e.source);
            }
        }
    }

    #[test]
    fn a_range_becomes_a_since_date_with_saras_series() {
        let e = example(
            "Alice married Bob in 1992. From 2004 to 2019, Bob furnished 40% of the costs of maintaining the home where he and Charlie lived during that time, and Alice furnished the remaining 60%.",
            "How much tax does Alice have to pay in 2013?",
            "marriage e1 agent=alice agent=bob start=1992-12-31\nresidence e2 agent=charlie agent=bob patient=bob_s_house start=2004-01-01 end=2019-12-31\nfor Y in 2004..2019 {\n payment e3_{Y} agent=bob amount=40 purpose=bob_s_house start=first_day(Y) end=last_day(Y)\n payment e4_{Y} agent=alice amount=60 purpose=bob_s_house start=first_day(Y) end=last_day(Y)\n}\nquery tax alice 2013\n",
        );
        let v = since_variant(&e, 2).unwrap();
        assert_eq!(
            v.source,
            source_text(
                "Alice married Bob in 1992. Bob furnished 40% of the costs of maintaining the home where he and Charlie lived, and Alice furnished the remaining 60%, since April 1st, 2004.",
                "How much tax does Alice have to pay in 2013?"
            )
        );
        let text = render(&v.target);
        let want = "marriage e1 agent = alice agent = bob start = 1992-12-31\n\
            residence e2 agent = charlie agent = bob patient = bob_s_house start = 2004-04-01\n\
            payment e3 agent = bob amount = 40 purpose = bob_s_house start = 2004-04-01 end = 2004-12-31\n\
            for Y in 2005 .. 2104{\n\
            payment e4_{Y} agent = bob amount = 40 purpose = bob_s_house start = first_day ( Y ) end = last_day ( Y )\n\
            payment e5_{Y} agent = alice amount = 60 purpose = bob_s_house start = first_day ( Y ) end = last_day ( Y )\n\
            }\n\
            payment e6 agent = alice amount = 60 purpose = bob_s_house start = 2004-04-01 end = 2004-12-31\n\
            query tax alice 2013\n";
        assert_eq!(text, want);
        assert_copyable(&v);
        // The sentence's facts stay with the sentence.
        let units = crate::sentences::units(&[v]);
        assert!(render(&units[1].target).contains("for Y in 2005 .. 2104"), "{}", render(&units[1].target));
        assert!(units[0].target.iter().all(|t| !matches!(t, crate::target::Token::Sym(s) if s == "payment")));
    }

    #[test]
    fn a_sentence_units_copy_is_its_rewritten_sentence_alone() {
        let e = example(
            "Alice married Bob in 1992. Alice and Bob file jointly from 2017 to 2019.",
            "Is Alice married?",
            "marriage e1 agent=alice agent=bob start=1992-12-31\nfor Y in 2017..2019 {\n joint_return e2_{Y} agent=alice agent=bob start=first_day(Y) end=last_day(Y)\n}\nquery s7703 alice _ 2018\n",
        );
        for unit in [Unit::Sentence, Unit::MarkedSentence] {
            let units = since_units(std::slice::from_ref(&e), unit, 12);
            assert_eq!(units.len(), 1);
            assert_eq!(units[0].id, "x~since#1");
            assert!(render(&units[0].target).starts_with("joint_return e1 agent = alice agent = bob start = 2017-03-02 end = 2017-12-31"));
        }
        let whole = since_units(&[e], Unit::Case, 12);
        assert!(whole.len() == 1 && render(&whole[0].target).contains("query s7703"));
    }

    #[test]
    fn a_range_inside_a_sentence_is_replaced_in_place() {
        let e = example("Alice and Bob file jointly from 2017 to 2019.", "Is Alice married?", "for Y in 2017..2019 {\n joint_return e1_{Y} agent=alice agent=bob start=first_day(Y) end=last_day(Y)\n}\nquery s7703 alice _ 2018\n");
        let v = since_variant(&e, 12).unwrap();
        assert!(v.source.starts_with("Alice and Bob file jointly since March 2nd, 2017."), "{}", v.source);
        assert!(render(&v.target).starts_with("joint_return e1 agent = alice agent = bob start = 2017-03-02 end = 2017-12-31\nfor Y in 2018 .. 2117{"), "{}", render(&v.target));
        assert_copyable(&v);
    }

    #[test]
    fn facts_that_would_not_stay_faithful_give_no_variant() {
        // A date inside the range that is not its first or last day.
        let e = example("From 2004 to 2019, Bob lived in Alice's house.", "Q?", "residence e1 agent=bob patient=alice_s_house start=2004-05-01 end=2019-12-31\nquery s2 bob _ 2018\n");
        assert!(since_variant(&e, 0).is_none());
        // No range at all, or a range backwards.
        let e = example("Bob lived in Alice's house from 2019 to 2004.", "Q?", "residence e1 agent=bob patient=alice_s_house\nquery s2 bob _ 2018\n");
        assert!(since_variant(&e, 0).is_none());
        // A series over other years than the range.
        let e = example("From 2004 to 2019, Bob paid for the house.", "Q?", "for Y in 2004..2010 {\n payment e1_{Y} agent=bob start=first_day(Y) end=last_day(Y)\n}\nquery s2 bob _ 2018\n");
        assert!(since_variant(&e, 0).is_none());
    }
}

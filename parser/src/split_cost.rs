//! Recombining who pays a home's costs: a train sentence in which one
//! person "furnished the costs of" maintaining a home is also given with
//! "furnished N% of the costs of", mostly with "and Y furnished the
//! remaining M%" after it, and its facts alike: the payer's payments of N
//! and, beside each, Y's of M (SARA's amounts for a split of costs). A
//! share with nobody else named leaves the rest to `someone`, as SARA's
//! gold does for such a sentence. Train names a second payer in one
//! sentence only.

use crate::config::Unit;
use crate::example::Example;
use crate::mentions::{extract, QUESTION_MARKER};
use crate::people::is_first_name;
use crate::sentences::{align, rewritten_units, split, split_groups};
use crate::since::join_groups;
use crate::target::lex;
use lexlog_data::{linear, CaseIr, Event, EventKind, Fact, Part, Role, Term, Value};

/// The words a one-payer sentence says its costs with.
const WHOLE: &str = " furnished the costs of ";

/// The payer's shares a copy picks from (the other's is the rest).
const SHARES: [i64; 12] = [10, 20, 25, 30, 35, 40, 45, 55, 60, 70, 75, 80];

/// Who pays the rest of a share when the sentence names nobody else.
const SOMEONE: &str = "someone";

/// `e` with its first one-payer sentence's costs split (the share and,
/// for two salts in three, the second payer picked by `salt` among the
/// other people the text names; for the third, [`SOMEONE`] pays the rest
/// unnamed), and the index of that sentence; `None`
/// where the text has no such sentence, names nobody else, or a fact of
/// that sentence is a payment other than the whole costs by one payer.
pub fn split_cost_variant(e: &Example, salt: u64) -> Option<(Example, usize)> {
    let (text, question) = e.source.split_once(QUESTION_MARKER)?;
    let spans = split(text);
    let i = spans.iter().position(|&(s, t)| text[s..t].contains(WHOLE))?;
    let (s, t) = spans[i];
    let sentence = &text[s..t];
    let payer = sentence[..sentence.find(WHOLE)?].split_whitespace().last()?;
    let others = people(text).into_iter().filter(|p| !p.eq_ignore_ascii_case(payer)).collect::<Vec<_>>();
    let other = others.get((salt / 3) as usize % others.len().max(1))?;
    let share = SHARES[(salt % SHARES.len() as u64) as usize];
    let named = !salt.is_multiple_of(3);
    let second = (if named { other.to_lowercase() } else { SOMEONE.to_string() }, 100 - share);

    let ir = split_groups(&e.ir()?);
    let home = align(text, &ir);
    let mut facts = Vec::new();
    let mut paid = false;
    for (f, &h) in ir.facts.iter().zip(&home) {
        match f {
            _ if h != i => facts.push(f.clone()),
            Fact::Event(ev) if ev.kind == Some(EventKind::Payment) => {
                facts.extend(shared(ev, payer, share, &second)?.into_iter().map(Fact::Event));
                paid = true;
            }
            Fact::ForEach(g) => {
                let [Fact::Event(ev)] = g.body.as_slice() else { return None };
                if ev.kind != Some(EventKind::Payment) {
                    facts.push(f.clone());
                    continue;
                }
                let body = shared(ev, payer, share, &second)?.into_iter().map(Fact::Event).collect();
                facts.push(Fact::ForEach(lexlog_data::ForEach { body, ..g.clone() }));
                paid = true;
            }
            Fact::Event(_) => facts.push(f.clone()),
            Fact::Assert(_) => return None,
        }
    }
    if !paid {
        return None;
    }

    let said = sentence.replacen(WHOLE, &format!(" furnished {share}% of the costs of "), 1);
    let said = if named { format!("{}, and {other} furnished the remaining {}%.", said.strip_suffix('.')?, second.1) } else { said };
    let source = format!("{}{said}{}{QUESTION_MARKER}{question}", &text[..s], &text[t..]);
    let ir = linear::canonical_ids(&CaseIr { facts: join_groups(facts), query: ir.query.clone() });
    let target = lex(&linear::print(&ir));
    Some((Example { id: format!("{}~split", e.id), mentions: extract(&source), source, target, focus: None }, i))
}

/// What `augment_split_cost` trains on: each case's [`split_cost_variant`]
/// (salted by `seed` and its index), and that copy again with its range
/// said with "since" (as `augment_since` says it), as `unit`s; of a
/// sentence unit's copy only the rewritten sentence.
pub fn split_cost_units(cases: &[Example], unit: Unit, seed: u64) -> Vec<Example> {
    let (copies, at): (Vec<Example>, Vec<usize>) = cases.iter().enumerate().filter_map(|(i, e)| split_cost_variant(e, seed.wrapping_add(i as u64))).unzip();
    let since = crate::since::since_units(&copies, unit, seed.wrapping_add(1));
    let mut units = rewritten_units(copies.into_iter().zip(at), unit);
    units.extend(since);
    units
}

/// The first names the text gives, each once, in order.
fn people(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for w in text.split(|c: char| !c.is_alphanumeric()).filter(|w| w.starts_with(char::is_uppercase) && is_first_name(w)) {
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// A payment of the whole costs by `payer` (amount 1) as `payer`'s share,
/// and the second payer's beside it under an id of its own.
fn shared(ev: &Event, payer: &str, share: i64, (name, rest): &(String, i64)) -> Option<Vec<Event>> {
    let agents: Vec<&Term> = ev.role(Role::Agent).collect();
    let whole = ev.role(Role::Amount).eq([&Term::int(1)]);
    if agents != [&Term::name(payer.to_lowercase())] || !whole {
        return None;
    }
    let with = |agent: &str, amount: i64| -> Vec<(Role, Term)> {
        ev.roles
            .iter()
            .map(|(r, t)| match r {
                Role::Agent => (*r, Term::name(agent)),
                Role::Amount => (*r, Term::int(amount)),
                _ => (*r, t.clone()),
            })
            .collect()
    };
    let id = match &ev.id {
        Term::Concat(parts) => Term::Concat([Part::Lit("split_".into())].into_iter().chain(parts.iter().cloned()).collect()),
        Term::Value(Value::Name(n)) => Term::name(format!("split_{n}")),
        _ => return None,
    };
    Some(vec![Event { roles: with(&payer.to_lowercase(), share), ..ev.clone() }, Event { id, roles: with(name, *rest), ..ev.clone() }])
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

    const TEXT: &str = "Alice and Bob got married on Feb 3rd, 1992. From 2004 to 2019, Bob furnished the costs of maintaining the home where he and Charlie lived during that time. Alice died in 2014.";
    const FACTS: &str = "marriage e1 agent=alice agent=bob start=1992-02-03\nresidence e2 agent=charlie agent=bob patient=bob_s_house start=2004-01-01 end=2019-12-31\nfor Y in 2004..2019 {\n payment e3_{Y} agent=bob amount=1 purpose=bob_s_house start=first_day(Y) end=last_day(Y)\n}\ndeath e4 agent=alice start=2014-12-31\nquery tax bob 2015\n";

    #[test]
    fn one_payer_becomes_two_with_saras_amounts() {
        let e = example(TEXT, "How much tax does Bob have to pay in 2015?", FACTS);
        // Salt 1: the share 20, the other person Alice (the first other name).
        let (v, i) = split_cost_variant(&e, 1).unwrap();
        assert_eq!(i, 1);
        assert!(
            v.source.contains("Bob furnished 20% of the costs of maintaining the home where he and Charlie lived during that time, and Alice furnished the remaining 80%. Alice died"),
            "{}",
            v.source
        );
        let want = "marriage e1 agent = alice agent = bob start = 1992-02-03\n\
            residence e2 agent = charlie agent = bob patient = bob_s_house start = 2004-01-01 end = 2019-12-31\n\
            for Y in 2004 .. 2019{\n\
            payment e3_{Y} agent = bob amount = 20 purpose = bob_s_house start = first_day ( Y ) end = last_day ( Y )\n\
            payment e4_{Y} agent = alice amount = 80 purpose = bob_s_house start = first_day ( Y ) end = last_day ( Y )\n\
            }\n\
            death e5 agent = alice start = 2014-12-31\n\
            query tax bob 2015\n";
        assert_eq!(render(&v.target), want);
        for val in [20, 80] {
            assert!(v.mentions.iter().any(|m| m.value == Value::Int(val)), "{val} not copyable");
        }
    }

    #[test]
    fn a_third_of_the_copies_name_one_payer_and_someone_pays_the_rest() {
        let e = example(TEXT, "How much tax does Bob have to pay in 2015?", FACTS);
        let (v, _) = split_cost_variant(&e, 3).unwrap();
        assert!(v.source.contains("Bob furnished 30% of the costs of maintaining the home where he and Charlie lived during that time. Alice"), "{}", v.source);
        let target = render(&v.target);
        assert!(target.contains("agent = bob amount = 30") && target.contains("agent = someone amount = 70") && target.matches("payment").count() == 2, "{target}");
    }

    #[test]
    fn the_units_hold_the_split_sentence_and_its_since_copy() {
        let e = example(TEXT, "How much tax does Bob have to pay in 2015?", FACTS);
        let units = split_cost_units(&[e], Unit::MarkedSentence, 1);
        assert_eq!(units.iter().map(|u| u.id.as_str()).collect::<Vec<_>>(), ["x~split#1", "x~split~since#1"]);
        let since = render(&units[1].target);
        assert!(since.contains("for Y in 2005 .. 2104") && since.contains("amount = 80"), "{since}");
    }

    #[test]
    fn sentences_that_would_not_stay_faithful_give_no_copy() {
        // Already a share.
        let shared = FACTS.replace("amount=1", "amount=40");
        let e = example(&TEXT.replace("the costs of", "40% of the costs of"), "Q?", &shared);
        assert!(split_cost_variant(&e, 5).is_none());
        // The payment is someone else's than the sentence's payer.
        let e = example(TEXT, "Q?", &FACTS.replace("agent=bob amount=1", "agent=alice amount=1"));
        assert!(split_cost_variant(&e, 5).is_none());
        // Nobody else to pay.
        let e = example("From 2004 to 2019, Bob furnished the costs of maintaining the home where he lived.", "Q?", "for Y in 2004..2019 {\n payment e1_{Y} agent=bob amount=1 purpose=bob_s_house start=first_day(Y) end=last_day(Y)\n}\nquery tax bob 2015\n");
        assert!(split_cost_variant(&e, 5).is_none());
    }
}

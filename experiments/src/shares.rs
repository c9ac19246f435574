//! A share of a home's costs and its rest. Where a sentence says a payer
//! furnished "N% of the costs", SARA writes that payer's payments of N
//! and, beside each one (same purpose, same period), a payment of the rest,
//! 100 - N, by the person the sentence says pays "the remaining" share, or
//! by `someone` where it names nobody (train's gold does both). The parser
//! often writes the payer's series and not the rest's, or the payer paying
//! the whole costs (amount 1, as SARA writes a home maintained alone), a
//! sentence it has rarely seen; a reading is completed here by that
//! convention (`--share-rests`, `experiments/results/share-rests/`).

use lexlog_data::{linear, CaseIr, Event, EventKind, Fact, Part, Role, Term, Value};
use lexlog_parser::sentences::split;

/// Who pays the rest when the sentence names nobody.
pub const SOMEONE: &str = "someone";

/// What a sentence says of a share of costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    /// The payer's percentage, N of "N%".
    pub share: i64,
    /// The words that may name the payer: capitalised words before the
    /// share, in order.
    pub payer: Vec<String>,
    /// The words that may name who pays the remaining share, in order
    /// (capitalised words after the share, before "remaining" or "rest");
    /// `None` where the sentence says no rest: `someone` pays it.
    pub rest_payer: Option<Vec<String>>,
}

/// Each sentence of `text` that speaks of costs and states a share of them
/// (its first percentage, between 1 and 99).
pub fn shares(text: &str) -> Vec<Share> {
    let mut out = Vec::new();
    for (s, t) in split(text) {
        let sentence = &text[s..t];
        if !sentence.to_lowercase().contains("cost") {
            continue;
        }
        let Some((share, after)) = first_percentage(sentence) else { continue };
        let (before, words): (Vec<_>, Vec<_>) = words(sentence).into_iter().partition(|&(at, _)| at < after);
        let capitalised = |ws: &[(usize, &str)]| ws.iter().filter(|(_, w)| w.starts_with(char::is_uppercase)).map(|(_, w)| w.to_lowercase()).collect::<Vec<_>>();
        let rest_at = words.iter().position(|(_, w)| w.eq_ignore_ascii_case("remaining") || w.eq_ignore_ascii_case("rest"));
        let rest_payer = rest_at.map(|i| capitalised(&words[..i]));
        out.push(Share { share, payer: capitalised(&before), rest_payer });
    }
    out
}

/// `ir` with each stated share written: the payer's payments of the whole
/// given the share where the reading has that payer pay the share nowhere,
/// and beside each payment of the share that has no payment of the rest
/// beside it, the rest's payment; `None` where nothing changes. A rest
/// whose payer the sentence names but the reading names nowhere is left
/// alone.
pub fn complete(text: &str, ir: &CaseIr) -> Option<CaseIr> {
    let mut out = ir.clone();
    let mut changed = false;
    let people = people(ir);
    for share in shares(text) {
        if let Some(payer) = last_person(&share.payer, &people) {
            changed |= share_for_whole(&mut out, share.share, payer);
        }
        let Some(payer) = rest_payer(&share, &people) else { continue };
        changed |= complete_list(&mut out.facts, share.share, &payer);
        for f in &mut out.facts {
            if let Fact::ForEach(g) = f {
                changed |= complete_list(&mut g.body, share.share, &payer);
            }
        }
    }
    changed.then(|| linear::canonical_ids(&out))
}

/// The rest's payer: `someone`, or the last of the words naming it that
/// the reading names as a person.
fn rest_payer(share: &Share, people: &[String]) -> Option<String> {
    let Some(words) = &share.rest_payer else { return Some(SOMEONE.to_string()) };
    last_person(words, people).map(str::to_string)
}

/// The last of `words` that the reading names as a person.
fn last_person<'w>(words: &'w [String], people: &[String]) -> Option<&'w str> {
    words.iter().rev().find(|w| people.contains(w)).map(String::as_str)
}

/// Whether `payer` is among `e`'s agents.
pub(crate) fn paid_by(e: &Event, payer: &str) -> bool {
    e.role(Role::Agent).any(|a| name(a).as_deref() == Some(payer))
}

/// The names the reading gives as agents or patients.
pub(crate) fn people(ir: &CaseIr) -> Vec<String> {
    let mut people = Vec::new();
    for e in events(&ir.facts) {
        people.extend(e.roles.iter().filter(|(r, _)| matches!(r, Role::Agent | Role::Patient)).filter_map(|(_, t)| name(t)));
    }
    people
}

/// The events of `facts`, those of for-each groups too.
pub(crate) fn events(facts: &[Fact]) -> Vec<&Event> {
    let mut out = Vec::new();
    for f in facts {
        match f {
            Fact::Event(e) => out.push(e),
            Fact::ForEach(g) => out.extend(g.body.iter().filter_map(|f| if let Fact::Event(e) = f { Some(e) } else { None })),
            Fact::Assert(_) => {}
        }
    }
    out
}

/// Gives `payer`'s payments of the whole costs (amount 1, with a purpose)
/// the stated `share`, where the reading has `payer` pay `share` nowhere;
/// whether any changed.
fn share_for_whole(ir: &mut CaseIr, share: i64, payer: &str) -> bool {
    let by_payer = |e: &Event, amount: i64| is_payment(e, amount) && paid_by(e, payer);
    if events(&ir.facts).into_iter().any(|e| by_payer(e, share)) {
        return false;
    }
    let mut changed = false;
    let mut restate = |f: &mut Fact| {
        if let Fact::Event(e) = f {
            if by_payer(e, 1) && e.role(Role::Purpose).next().is_some() {
                for (r, t) in &mut e.roles {
                    if *r == Role::Amount {
                        *t = Term::int(share);
                    }
                }
                changed = true;
            }
        }
    };
    for f in &mut ir.facts {
        match f {
            Fact::ForEach(g) => g.body.iter_mut().for_each(&mut restate),
            f => restate(f),
        }
    }
    changed
}

/// Adds the rest's payment beside each payment of `share` in `facts` that
/// has none; whether it added one.
fn complete_list(facts: &mut Vec<Fact>, share: i64, payer: &str) -> bool {
    let rest = 100 - share;
    let mut i = 0;
    let mut added = false;
    while i < facts.len() {
        if let Fact::Event(e) = &facts[i] {
            let of_share = is_payment(e, share) && e.role(Role::Purpose).next().is_some() && !paid_by(e, payer);
            let beside = |f: &Fact| matches!(f, Fact::Event(o) if o.id != e.id && is_payment(o, rest) && same(o, e, Role::Purpose) && same(o, e, Role::Start) && same(o, e, Role::End));
            if of_share && !facts.iter().any(beside) {
                if let Some(r) = rest_of(e, rest, payer) {
                    facts.insert(i + 1, Fact::Event(r));
                    added = true;
                    i += 1;
                }
            }
        }
        i += 1;
    }
    added
}

fn is_payment(e: &Event, amount: i64) -> bool {
    e.kind == Some(EventKind::Payment) && e.role(Role::Amount).eq([&Term::int(amount)])
}

fn same(a: &Event, b: &Event, role: Role) -> bool {
    a.role(role).eq(b.role(role))
}

pub(crate) fn name(t: &Term) -> Option<String> {
    match t {
        Term::Value(Value::Name(n)) => Some(n.clone()),
        _ => None,
    }
}

/// `e` paid by `payer`, `rest` of it, under an id of its own.
fn rest_of(e: &Event, rest: i64, payer: &str) -> Option<Event> {
    let id = match &e.id {
        Term::Concat(parts) => Term::Concat([Part::Lit("rest_".into())].into_iter().chain(parts.iter().cloned()).collect()),
        Term::Value(Value::Name(n)) => Term::name(format!("rest_{n}")),
        _ => return None,
    };
    let roles = e
        .roles
        .iter()
        .map(|(r, t)| match r {
            Role::Agent => (*r, Term::name(payer)),
            Role::Amount => (*r, Term::int(rest)),
            _ => (*r, t.clone()),
        })
        .collect();
    Some(Event { id, roles, ..e.clone() })
}

/// The first "N%" of a sentence with N in 1..=99, and where it ends.
fn first_percentage(sentence: &str) -> Option<(i64, usize)> {
    let bytes = sentence.as_bytes();
    let at = sentence.find('%')?;
    let digits = bytes[..at].iter().rev().take_while(|b| b.is_ascii_digit()).count();
    let n: i64 = sentence[at - digits..at].parse().ok()?;
    (1..=99).contains(&n).then_some((n, at + 1))
}

/// The words of a sentence (letters and digits), with their byte offsets.
pub(crate) fn words(sentence: &str) -> Vec<(usize, &str)> {
    let at = |w: &str| w.as_ptr() as usize - sentence.as_ptr() as usize;
    sentence.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(|w| (at(w), w)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: &str = "residence e1 agent=alice agent=charlie patient=alice_s_house start=2017-09-16\n";

    fn ir(facts: &str) -> CaseIr {
        linear::parse(&format!("{HOME}{facts}query tax alice 2018\n")).unwrap()
    }

    fn series(payers: &[(&str, i64)]) -> String {
        let body: String = payers.iter().enumerate().map(|(i, (p, n))| format!("  payment p{i}_{{Y}} agent={p} amount={n} purpose=e1 start=first_day(Y) end=last_day(Y)\n")).collect();
        format!("for Y in 2018..2117 {{\n{body}}}\n")
    }

    fn same_facts(a: &CaseIr, b: &CaseIr) -> bool {
        lexlog_parser::eval::compare(a, &linear::canonical_ids(b)).facts_right()
    }

    #[test]
    fn a_share_with_nobody_else_named_leaves_the_rest_to_someone() {
        let text = "Alice and Charlie live in a home for which Alice furnished 40% of the maintenance costs, since September 16th, 2017. Alice is 30.";
        assert_eq!(shares(text), [Share { share: 40, payer: vec!["alice".into(), "charlie".into(), "alice".into()], rest_payer: None }]);
        let partial = "payment p9 agent=alice amount=40 purpose=e1 start=2017-09-16 end=2017-12-31\n";
        let got = complete(text, &ir(&format!("{partial}{}", series(&[("alice", 40)])))).unwrap();
        let want = ir(&format!("{partial}payment p8 agent=someone amount=60 purpose=e1 start=2017-09-16 end=2017-12-31\n{}", series(&[("alice", 40), ("someone", 60)])));
        assert!(same_facts(&got, &want), "{}", linear::print(&got));
    }

    #[test]
    fn the_rest_goes_to_the_person_the_sentence_names_for_it() {
        for text in [
            "From 2004 to 2019, Alice furnished 40% of the costs of maintaining the home where she and Charlie lived during that time, and Bob furnished the remaining costs.",
            "Alice and Charlie live in a home for which Alice furnished 40% of the maintenance costs, and Bob the remaining 60%, since 2017.",
        ] {
            let reading = ir(&format!("marriage e2 agent=alice agent=bob start=2012-04-05\n{}", series(&[("alice", 40)])));
            let got = complete(text, &reading).unwrap();
            assert!(same_facts(&got, &ir(&format!("marriage e2 agent=alice agent=bob start=2012-04-05\n{}", series(&[("alice", 40), ("bob", 60)])))), "{}", linear::print(&got));
        }
    }

    #[test]
    fn a_reading_with_the_rest_or_without_the_share_is_left_alone() {
        let text = "Alice furnished 40% of the costs of the home.";
        assert!(complete(text, &ir(&series(&[("alice", 40), ("bob", 60)]))).is_none());
        assert!(complete(text, &ir(&series(&[("bob", 1)]))).is_none(), "another payer's whole costs");
        // The rest's payer is named, but the reading names that person nowhere.
        assert!(complete("Alice furnished 40% of the costs, and Dan the remaining 60%.", &ir(&series(&[("alice", 40)]))).is_none());
        // A percentage of something else than costs.
        assert!(complete("Alice's applicable percentage is 40%.", &ir(&series(&[("alice", 40)]))).is_none());
    }

    #[test]
    fn a_half_share_is_not_its_own_rest() {
        let text = "Alice furnished 50% of the costs of the home.";
        let got = complete(text, &ir(&series(&[("alice", 50)]))).expect("the other half is added");
        assert!(same_facts(&got, &ir(&series(&[("alice", 50), ("someone", 50)]))), "{}", linear::print(&got));
        assert!(complete(text, &ir(&series(&[("alice", 50), ("someone", 50)]))).is_none());
    }

    #[test]
    fn a_share_written_as_the_whole_is_given_its_percentage_and_rest() {
        let text = "From 2004 to 2019, Bob furnished 40% of the costs of maintaining the home where he and Charlie lived during that time.";
        let got = complete(text, &ir(&series(&[("bob", 1)]))).expect("the share is written");
        assert!(same_facts(&got, &ir(&series(&[("bob", 40), ("someone", 60)]))), "{}", linear::print(&got));
        // Where the payer pays the share somewhere, a whole is something else.
        let both = format!("payment p9 agent=bob amount=40 purpose=e1 start=2017-09-16\npayment p8 agent=someone amount=60 purpose=e1 start=2017-09-16\n{}", series(&[("bob", 1)]));
        assert!(complete(text, &ir(&both)).is_none());
        // Another payer's whole is left alone.
        let got = complete(text, &ir(&series(&[("charlie", 1)])));
        assert!(got.is_none(), "{}", linear::print(&got.unwrap()));
    }

    /// Train's gold keeps the convention: no reading of it lacks a rest, and
    /// each share's rest, taken out, is given back as gold has it, as is the
    /// share itself where the payer's payments are written as the whole.
    #[test]
    fn train_gold_is_left_alone_and_its_rests_are_given_back() {
        let data = lexlog_data::Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
        let mut restored = 0;
        for case in data.cases_in(Some(lexlog_data::Split::Train)) {
            assert!(complete(&case.text, &case.ir).is_none(), "{} gains a rest", case.id);
            for share in shares(&case.text) {
                let people = people(&case.ir);
                let payer = rest_payer(&share, &people).unwrap_or_else(|| panic!("{}: no rest payer", case.id));
                let rest = 100 - share.share;
                let paid_rest = |f: &Fact| matches!(f, Fact::Event(e) if is_payment(e, rest) && paid_by(e, &payer));
                let mut without = case.ir.clone();
                without.facts.retain(|f| !paid_rest(f));
                for f in &mut without.facts {
                    if let Fact::ForEach(g) = f {
                        g.body.retain(|f| !paid_rest(f));
                    }
                }
                assert_ne!(without, case.ir, "{}: no rest to take out", case.id);
                let back = complete(&case.text, &without).unwrap_or_else(|| panic!("{}: the rest is not given back", case.id));
                assert!(same_facts(&back, &case.ir), "{}: {}", case.id, linear::print(&back));
                let sharer = last_person(&share.payer, &people).unwrap_or_else(|| panic!("{}: no payer of the share", case.id));
                let mut whole = without.clone();
                for f in &mut whole.facts {
                    let body = match f {
                        Fact::ForEach(g) => &mut g.body,
                        f => std::slice::from_mut(f),
                    };
                    for f in body {
                        if let Fact::Event(e) = f {
                            if is_payment(e, share.share) && paid_by(e, sharer) {
                                e.roles.iter_mut().filter(|(r, _)| *r == Role::Amount).for_each(|(_, t)| *t = Term::int(1));
                            }
                        }
                    }
                }
                assert_ne!(whole, without, "{}: no payment of the share", case.id);
                let back = complete(&case.text, &whole).unwrap_or_else(|| panic!("{}: the share is not given back", case.id));
                assert!(same_facts(&back, &case.ir), "{}: {}", case.id, linear::print(&back));
                restored += 1;
            }
        }
        assert_eq!(restored, 3, "train's sentences of a share of costs");
    }
}

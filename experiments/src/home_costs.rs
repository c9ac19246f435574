//! A home's costs furnished from one year to another. Where a sentence
//! says "From Y1 to Y2, X furnished [N% of] the costs of maintaining the
//! home ...", SARA writes X's yearly payments, Y1 to Y2, each from January
//! 1st to December 31st, of amount 1 (N for a share), for the house X
//! lives in. A reading that names X living in a house and no payment by X
//! for anything is given that series (`--share-rests`, before the shares'
//! rests; `experiments/results/share-rests/`).

use lexlog_data::{linear, CaseIr, Domain, Event, EventKind, Fact, ForEach, Part, Role, Term};
use lexlog_parser::sentences::split;

use crate::shares::{events, name, paid_by, people, words};

/// What a sentence says of a home's costs furnished over years.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Furnished {
    /// Who furnished them (the capitalised word before "furnished", in
    /// lower case).
    pub payer: String,
    pub from: i64,
    pub to: i64,
    /// The stated percentage, if a share.
    pub share: Option<i64>,
}

/// Each sentence of `text` that says "from Y1 to Y2" and "X furnished
/// [N% of] the costs of maintaining".
pub fn furnished(text: &str) -> Vec<Furnished> {
    let mut out = Vec::new();
    for (s, t) in split(text) {
        let sentence = &text[s..t];
        let ws = words(sentence);
        let Some(at) = ws.iter().position(|(_, w)| *w == "furnished") else { continue };
        let Some(&(_, payer)) = at.checked_sub(1).map(|i| &ws[i]) else { continue };
        if !payer.starts_with(char::is_uppercase) {
            continue;
        }
        let after = ws[at + 1..].iter().map(|(_, w)| w.to_lowercase()).collect::<Vec<_>>().join(" ");
        let Some(costs) = after.find("the costs of maintaining") else { continue };
        // Between the two: nothing, or a share ("40% of").
        let share = match after[..costs].trim() {
            "" => None,
            between => match between.strip_suffix(" of").and_then(|n| n.parse::<i64>().ok()) {
                Some(n) if (1..=99).contains(&n) => Some(n),
                _ => continue,
            },
        };
        let Some(((from, to), _)) = lexlog_parser::since::range_in(sentence) else { continue };
        out.push(Furnished { payer: payer.to_lowercase(), from: from.into(), to: to.into(), share });
    }
    out
}

/// `ir` with each furnished home's yearly payments where the reading names
/// the payer living in a house and no payment by the payer for anything;
/// `None` where nothing is added.
pub fn complete(text: &str, ir: &CaseIr) -> Option<CaseIr> {
    let mut out = ir.clone();
    let people = people(ir);
    let mut added = false;
    for f in furnished(text) {
        if !people.contains(&f.payer) {
            continue;
        }
        let by_payer = |e: &Event| paid_by(e, &f.payer);
        let pays = events(&out.facts).into_iter().any(|e| e.kind == Some(EventKind::Payment) && by_payer(e) && e.role(Role::Purpose).next().is_some());
        let house = events(&out.facts).into_iter().filter(|e| e.kind == Some(EventKind::Residence) && by_payer(e)).find_map(|e| e.role(Role::Patient).find_map(name));
        let (false, Some(house)) = (pays, house) else { continue };
        out.facts.push(Fact::ForEach(series(&f, &house)));
        added = true;
    }
    added.then(|| linear::canonical_ids(&out))
}

/// `f`'s payments for `house`, one a year.
fn series(f: &Furnished, house: &str) -> ForEach {
    let y = "Y".to_string();
    let payment = Event {
        kind: Some(EventKind::Payment),
        id: Term::Concat(vec![Part::Lit(format!("{}_maintains_", f.payer)), Part::Var(y.clone())]),
        roles: vec![
            (Role::Agent, Term::name(&f.payer)),
            (Role::Amount, Term::int(f.share.unwrap_or(1))),
            (Role::Purpose, Term::name(house)),
            (Role::Start, Term::FirstDay(y.clone())),
            (Role::End, Term::LastDay(y.clone())),
        ],
    };
    ForEach { var: y, domain: Domain::Range { from: f.from, to: f.to }, body: vec![Fact::Event(payment)] }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "Alice died on July 9th, 2014. From 2004 to 2019, Bob furnished the costs of maintaining the home where he and and his father Charlie lived during that time.";
    const HOME: &str = "residence e1 agent=bob agent=charlie patient=bob_s_house start=2004-01-01 end=2019-12-31\n";

    fn ir(facts: &str) -> CaseIr {
        linear::parse(&format!("{facts}query s2_b_1 bob _ _ 2016\n")).unwrap()
    }

    fn same_facts(a: &CaseIr, b: &CaseIr) -> bool {
        lexlog_parser::eval::compare(a, &linear::canonical_ids(b)).facts_right()
    }

    #[test]
    fn sentences_of_a_home_furnished_over_years() {
        assert_eq!(furnished(TEXT), [Furnished { payer: "bob".into(), from: 2004, to: 2019, share: None }]);
        let share = "From 2004 to 2019, Bob furnished 40% of the costs of maintaining the home where he and Charlie lived during that time.";
        assert_eq!(furnished(share), [Furnished { payer: "bob".into(), from: 2004, to: 2019, share: Some(40) }]);
        for other in [
            "Bob furnished the costs of maintaining the home where he and Charlie lived.",
            "From 2019 to 2004, Bob furnished the costs of maintaining the home.",
            "From 2004 to 2019, Bob furnished most of the costs of maintaining the home.",
            "From 2004 to 2019, Bob furnished the furniture of the home.",
            "Alice and Charlie live in a home maintained by Alice since September 16th, 2017.",
        ] {
            assert_eq!(furnished(other), [], "{other}");
        }
    }

    #[test]
    fn a_reading_without_the_payments_is_given_them_for_the_payer_s_house() {
        let got = complete(TEXT, &ir(HOME)).expect("the payments are added");
        let want = ir(&format!("{HOME}for Y in 2004..2019 {{\n  payment p_{{Y}} agent=bob amount=1 purpose=bob_s_house start=first_day(Y) end=last_day(Y)\n}}\n"));
        assert!(same_facts(&got, &want), "{}", linear::print(&got));
    }

    #[test]
    fn a_reading_with_a_payment_or_without_the_house_is_left_alone() {
        assert!(complete(TEXT, &ir(&format!("{HOME}payment e2 agent=bob amount=1 purpose=bob_s_house start=2004-01-01\n"))).is_none());
        assert!(complete(TEXT, &ir("son e1 agent=charlie patient=bob\n")).is_none(), "no house of Bob's");
        assert!(complete(TEXT, &ir("residence e1 agent=charlie patient=bob_s_house\n")).is_none(), "Charlie's house, not Bob's");
    }

    /// Train's gold: nothing added to it; and where it writes the payer's
    /// payments as this completion does (the text's years, no other role),
    /// those payments, taken out, are given back.
    #[test]
    fn train_gold_is_left_alone_and_its_payments_are_given_back() {
        let data = lexlog_data::Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
        let (mut restored, mut sentences) = (Vec::new(), 0);
        for case in data.cases_in(Some(lexlog_data::Split::Train)) {
            assert!(complete(&case.text, &case.ir).is_none(), "{} gains payments", case.id);
            for f in furnished(&case.text) {
                sentences += 1;
                let plain = [Role::Agent, Role::Amount, Role::Purpose, Role::Start, Role::End];
                let payer = |x: &Fact| matches!(x, Fact::Event(e) if e.kind == Some(EventKind::Payment) && paid_by(e, &f.payer));
                let as_written = |x: &Fact| payer(x) && matches!(x, Fact::Event(e) if e.roles.iter().map(|(r, _)| *r).eq(plain));
                let runs = |g: &ForEach| g.domain == Domain::Range { from: f.from, to: f.to };
                if !case.ir.facts.iter().any(|x| matches!(x, Fact::ForEach(g) if runs(g) && g.body.iter().any(as_written))) {
                    continue;
                }
                let mut without = case.ir.clone();
                for x in &mut without.facts {
                    if let Fact::ForEach(g) = x {
                        g.body.retain(|x| !payer(x));
                    }
                }
                without.facts.retain(|x| !matches!(x, Fact::ForEach(g) if g.body.is_empty()));
                let back = complete(&case.text, &without).unwrap_or_else(|| panic!("{}: the payments are not given back", case.id));
                assert!(same_facts(&back, &case.ir), "{}: {}", case.id, linear::print(&back));
                restored.push(case.id.clone());
            }
        }
        assert_eq!((restored.len(), sentences), (14, 16), "train's homes furnished over years, and those whose gold writes them so: {restored:?}");
    }
}

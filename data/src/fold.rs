//! Folding ground facts back into a compact IR: events that differ only in
//! one value (a year, an index, a person, a date) become one [`ForEach`],
//! and so do assertions. [`fold`] is checked against [`crate::expand`]: the
//! folded IR unrolls to exactly the facts it was given.

use crate::ground::GroundFact;
use crate::ir::{Assertion, Domain, Event, Fact, ForEach, Part, Predicate, Term, Value};
use crate::vocab::{EventKind, Role};
use chrono::{Datelike, NaiveDate};
use std::collections::HashMap;

/// Fewest members a group needs; smaller sets stay as plain facts.
pub const MIN_GROUP: usize = 3;

/// Placeholder variable while templates are compared.
const HOLE: &str = "\u{0}";

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Unit {
    Event { id: Term, kinds: Vec<EventKind>, roles: Vec<(Role, Term)> },
    Assert { pred: Predicate, args: Vec<Term> },
}

/// Folds ground facts (in source order) into IR facts.
pub fn fold(facts: &[GroundFact]) -> Vec<Fact> {
    let units = collect_units(facts);
    let mut buckets: HashMap<Unit, Vec<(usize, Value)>> = HashMap::new();
    for (i, unit) in units.iter().enumerate() {
        for (template, key) in templates(unit) {
            let members = buckets.entry(template).or_default();
            if members.last().map(|m| m.0) != Some(i) {
                members.push((i, key));
            }
        }
    }
    let mut buckets: Vec<(Unit, Vec<(usize, Value)>)> = buckets
        .into_iter()
        .filter(|(_, m)| m.len() >= MIN_GROUP)
        .collect();
    buckets.sort_by_key(|(_, m)| (std::cmp::Reverse(m.len()), m[0].0));

    // Greedy: biggest groups first, each unit in at most one group.
    let mut group_of: Vec<Option<usize>> = vec![None; units.len()];
    let mut groups: Vec<(Unit, Vec<Value>)> = Vec::new();
    for (template, members) in buckets {
        let free: Vec<_> = members.into_iter().filter(|(i, _)| group_of[*i].is_none()).collect();
        if free.len() < MIN_GROUP {
            continue;
        }
        for (i, _) in &free {
            group_of[*i] = Some(groups.len());
        }
        groups.push((template, free.into_iter().map(|(_, k)| k).collect()));
    }

    let mut out: Vec<Fact> = Vec::new();
    let mut placed: Vec<Option<usize>> = vec![None; groups.len()];
    for (i, unit) in units.iter().enumerate() {
        match group_of[i] {
            None => out.extend(unit_facts(unit)),
            Some(g) if placed[g].is_none() => {
                let (template, keys) = &groups[g];
                let var = var_name(&keys[0]);
                let domain = domain(keys);
                let body = unit_facts(&rename(template, &var));
                // Groups over the same values share one `for`.
                let same = out.iter().position(|f| {
                    matches!(f, Fact::ForEach(fe) if fe.domain == domain && fe.var == var)
                });
                match same {
                    Some(j) => {
                        if let Fact::ForEach(fe) = &mut out[j] {
                            fe.body.extend(body);
                        }
                    }
                    None => out.push(Fact::ForEach(ForEach { var, domain, body })),
                }
                placed[g] = Some(i);
            }
            Some(_) => {}
        }
    }
    out
}

/// Gathers each event's type and role facts into one unit, in order of
/// first appearance; assertions are units of their own.
fn collect_units(facts: &[GroundFact]) -> Vec<Unit> {
    let mut units: Vec<Unit> = Vec::new();
    let mut event_index: HashMap<Term, usize> = HashMap::new();
    for fact in facts {
        match fact {
            GroundFact::Assert { pred, args } => units.push(Unit::Assert {
                pred: pred.clone(),
                args: args.clone(),
            }),
            GroundFact::Type { id, .. } | GroundFact::Role { event: id, .. } => {
                let i = *event_index.entry(id.clone()).or_insert_with(|| {
                    units.push(Unit::Event { id: id.clone(), kinds: vec![], roles: vec![] });
                    units.len() - 1
                });
                if let Unit::Event { kinds, roles, .. } = &mut units[i] {
                    match fact {
                        GroundFact::Type { kind, .. } => kinds.push(*kind),
                        GroundFact::Role { role, value, .. } => roles.push((*role, value.clone())),
                        GroundFact::Assert { .. } => unreachable!(),
                    }
                }
            }
        }
    }
    units
}

/// The facts of one unit: an event with its first type, then one bare
/// event per further type, then repeated dated roles folded over years.
fn unit_facts(unit: &Unit) -> Vec<Fact> {
    match unit {
        Unit::Assert { pred, args } => vec![Fact::Assert(Assertion {
            pred: pred.clone(),
            args: args.clone(),
        })],
        Unit::Event { id, kinds, roles } => {
            let (roles, series) = split_series(roles);
            let mut out = vec![Fact::Event(Event {
                kind: kinds.first().copied(),
                id: id.clone(),
                roles,
            })];
            out.extend(kinds.iter().skip(1).map(|k| {
                Fact::Event(Event { kind: Some(*k), id: id.clone(), roles: vec![] })
            }));
            out.extend(series.into_iter().map(|(role, years, first)| {
                let var = "Y".to_string();
                let value = if first { Term::FirstDay(var.clone()) } else { Term::LastDay(var.clone()) };
                Fact::ForEach(ForEach {
                    var,
                    domain: domain(&years),
                    body: vec![Fact::Event(Event { kind: None, id: id.clone(), roles: vec![(role, value)] })],
                })
            }));
            out
        }
    }
}

type Series = (Role, Vec<Value>, bool);

/// Splits off roles that hold many first (or last) days of years, e.g. a
/// maintenance paid "since 2014" stated as a start on every January 1st.
fn split_series(roles: &[(Role, Term)]) -> (Vec<(Role, Term)>, Vec<Series>) {
    let mut series: Vec<Series> = Vec::new();
    for role in Role::ALL {
        let dates: Vec<NaiveDate> = roles
            .iter()
            .filter(|(r, _)| r == role)
            .map(|(_, t)| match t {
                Term::Value(Value::Date(d)) => Some(*d),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default();
        if dates.len() < MIN_GROUP {
            continue;
        }
        for first in [true, false] {
            let (m, d) = if first { (1, 1) } else { (12, 31) };
            if dates.iter().all(|x| x.month() == m && x.day() == d) {
                let years = dates.iter().map(|x| Value::Int(x.year() as i64)).collect();
                series.push((*role, years, first));
            }
        }
    }
    let rest = roles
        .iter()
        .filter(|(r, _)| !series.iter().any(|(s, _, _)| s == r))
        .cloned()
        .collect();
    (rest, series)
}

/// Every way of abstracting one value out of `unit`, with that value.
fn templates(unit: &Unit) -> Vec<(Unit, Value)> {
    match unit {
        Unit::Event { id: Term::Value(Value::Name(name)), kinds, roles } => name
            .split('_')
            .enumerate()
            .map(|(p, segment)| {
                let key = key_value(segment);
                let id = abstract_segment(name, p);
                let roles = roles.iter().map(|(r, t)| (*r, abstract_term(t, segment, &key))).collect();
                (Unit::Event { id, kinds: kinds.clone(), roles }, key)
            })
            .collect(),
        Unit::Event { .. } => vec![],
        Unit::Assert { pred, args } => args
            .iter()
            .filter_map(|a| match a {
                Term::Value(v @ (Value::Int(_) | Value::Date(_) | Value::Name(_))) => Some(v.clone()),
                _ => None,
            })
            .map(|key| {
                let text = key.splice_text();
                let args = args.iter().map(|t| abstract_term(t, &text, &key)).collect();
                (Unit::Assert { pred: pred.clone(), args }, key)
            })
            .collect(),
    }
}

/// The typed value of an id segment: `2017` is a number, `2017-01-24` a date.
fn key_value(segment: &str) -> Value {
    if let Ok(i) = segment.parse::<i64>() {
        if i.to_string() == segment {
            return Value::Int(i);
        }
    }
    if let Ok(d) = NaiveDate::parse_from_str(segment, "%Y-%m-%d") {
        if d.format("%Y-%m-%d").to_string() == segment {
            return Value::Date(d);
        }
    }
    Value::Name(segment.to_string())
}

fn abstract_segment(name: &str, p: usize) -> Term {
    let segments: Vec<&str> = name.split('_').collect();
    let mut parts = Vec::new();
    let mut lit = String::new();
    for (i, s) in segments.iter().enumerate() {
        if i > 0 {
            lit.push('_');
        }
        if i == p {
            if !lit.is_empty() {
                parts.push(Part::Lit(std::mem::take(&mut lit)));
            }
            parts.push(Part::Var(HOLE.into()));
        } else {
            lit.push_str(s);
        }
    }
    if !lit.is_empty() {
        parts.push(Part::Lit(lit));
    }
    match parts.as_slice() {
        [Part::Var(_)] => Term::Var(HOLE.into()),
        _ => Term::Concat(parts),
    }
}

fn is_year(i: i64) -> bool {
    (1000..=3000).contains(&i)
}

/// `term` with `key` (whose text is `text`) replaced by the hole.
fn abstract_term(term: &Term, text: &str, key: &Value) -> Term {
    match (term, key) {
        (Term::Value(v), _) if v == key => Term::Var(HOLE.into()),
        (Term::Value(Value::Name(n)), _) => match n.split('_').position(|s| s == text) {
            Some(p) => abstract_segment(n, p),
            None => term.clone(),
        },
        (Term::Value(Value::Date(d)), Value::Int(y)) if is_year(*y) && d.year() as i64 == *y => {
            match (d.month(), d.day()) {
                (1, 1) => Term::FirstDay(HOLE.into()),
                (12, 31) => Term::LastDay(HOLE.into()),
                _ => term.clone(),
            }
        }
        _ => term.clone(),
    }
}

fn var_name(key: &Value) -> String {
    match key {
        Value::Int(i) if is_year(*i) => "Y",
        Value::Int(_) => "I",
        Value::Date(_) => "D",
        _ => "X",
    }
    .to_string()
}

fn domain(keys: &[Value]) -> Domain {
    let ints: Option<Vec<i64>> = keys
        .iter()
        .map(|k| match k {
            Value::Int(i) => Some(*i),
            _ => None,
        })
        .collect();
    if let Some(ints) = ints {
        if ints.windows(2).all(|w| w[1] == w[0] + 1) {
            return Domain::Range { from: ints[0], to: ints[ints.len() - 1] };
        }
    }
    Domain::List { values: keys.to_vec() }
}

fn rename(unit: &Unit, var: &str) -> Unit {
    let r = |t: &Term| rename_term(t, var);
    match unit {
        Unit::Event { id, kinds, roles } => Unit::Event {
            id: r(id),
            kinds: kinds.clone(),
            roles: roles.iter().map(|(role, t)| (*role, r(t))).collect(),
        },
        Unit::Assert { pred, args } => Unit::Assert { pred: pred.clone(), args: args.iter().map(r).collect() },
    }
}

fn rename_term(t: &Term, var: &str) -> Term {
    let v = |x: &String| if x == HOLE { var.to_string() } else { x.clone() };
    match t {
        Term::Var(x) => Term::Var(v(x)),
        Term::FirstDay(x) => Term::FirstDay(v(x)),
        Term::LastDay(x) => Term::LastDay(v(x)),
        Term::Concat(parts) => Term::Concat(
            parts
                .iter()
                .map(|p| match p {
                    Part::Var(x) => Part::Var(v(x)),
                    lit => lit.clone(),
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::fact_set;

    fn payment(year: i64) -> Vec<GroundFact> {
        let id = Term::name(format!("bob_maintains_household_{year}"));
        let d = |m, day| Term::date(NaiveDate::from_ymd_opt(year as i32, m, day).unwrap());
        vec![
            GroundFact::Type { kind: EventKind::Payment, id: id.clone() },
            GroundFact::Role { event: id.clone(), role: Role::Agent, value: Term::name("bob") },
            GroundFact::Role { event: id.clone(), role: Role::Amount, value: Term::int(60) },
            GroundFact::Role { event: id.clone(), role: Role::Start, value: d(1, 1) },
            GroundFact::Role { event: id, role: Role::End, value: d(12, 31) },
        ]
    }

    #[test]
    fn yearly_series_folds_into_one_group() {
        let ground: Vec<_> = (2004..=2019).flat_map(payment).collect();
        let folded = fold(&ground);
        assert_eq!(folded.len(), 1, "{folded:?}");
        let Fact::ForEach(fe) = &folded[0] else { panic!() };
        assert_eq!(fe.domain, Domain::Range { from: 2004, to: 2019 });
        let mut want = ground.clone();
        want.sort();
        assert_eq!(fact_set(&folded).unwrap(), want);
    }

    #[test]
    fn an_odd_member_stays_outside_the_group() {
        let mut ground: Vec<_> = (2017..=2020).flat_map(payment).collect();
        // 2017 starts on September 16th instead of January 1st.
        ground[3] = GroundFact::Role {
            event: Term::name("bob_maintains_household_2017"),
            role: Role::Start,
            value: Term::date(NaiveDate::from_ymd_opt(2017, 9, 16).unwrap()),
        };
        let folded = fold(&ground);
        assert_eq!(folded.len(), 2);
        let mut want = ground.clone();
        want.sort();
        assert_eq!(fact_set(&folded).unwrap(), want);
    }

    #[test]
    fn small_sets_are_not_grouped() {
        let ground: Vec<_> = (2017..=2018).flat_map(payment).collect();
        assert!(fold(&ground).iter().all(|f| matches!(f, Fact::Event(_))));
    }
}

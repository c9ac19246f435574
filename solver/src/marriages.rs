//! One person in two marriages at once, a consistency check: a marriage
//! lasts from its start to its end, a spouse's death, or a decree naming
//! it (as `marriage_span` in the rules). SARA's cases marry no one twice
//! at a time; a reading that takes "they divorced" for a second wedding
//! does.

use chrono::NaiveDate;
use lexlog_data::{EventKind, GroundFact, Role, Term, Value};
use std::collections::HashMap;

struct Marriage<'a> {
    id: &'a Term,
    spouses: Vec<&'a Term>,
    start: NaiveDate,
    end: NaiveDate,
}

/// Each pair of marriages that share a spouse and overlap, in words.
pub(crate) fn overlapping(ground: &[GroundFact]) -> Vec<String> {
    let mut kinds: HashMap<&Term, EventKind> = HashMap::new();
    let mut roles: HashMap<&Term, Vec<(Role, &Term)>> = HashMap::new();
    for f in ground {
        match f {
            GroundFact::Type { kind, id } => {
                kinds.insert(id, *kind);
            }
            GroundFact::Role { event, role, value } => roles.entry(event).or_default().push((*role, value)),
            GroundFact::Assert { .. } => {}
        }
    }
    let of = |ev: &Term, want: Role| -> Vec<&Term> {
        roles.get(ev).into_iter().flatten().filter(|(r, _)| *r == want).map(|(_, v)| *v).collect()
    };
    let first_date = |ev: &Term, want: Role| {
        of(ev, want).into_iter().filter_map(|v| if let Term::Value(Value::Date(d)) = v { Some(*d) } else { None }).min()
    };

    let mut deaths: HashMap<&Term, NaiveDate> = HashMap::new();
    let mut decrees: Vec<(&Term, NaiveDate)> = Vec::new();
    for (&ev, kind) in &kinds {
        match kind {
            EventKind::Death => {
                if let Some(d) = first_date(ev, Role::Start) {
                    for p in of(ev, Role::Agent) {
                        deaths.entry(p).and_modify(|x| *x = (*x).min(d)).or_insert(d);
                    }
                }
            }
            EventKind::LegalSeparation | EventKind::Divorce => {
                if let Some(d) = first_date(ev, Role::Start) {
                    decrees.push((ev, d));
                }
            }
            _ => {}
        }
    }
    let mut marriages: Vec<Marriage> = Vec::new();
    for f in ground {
        let GroundFact::Type { kind: EventKind::Marriage, id } = f else { continue };
        let mut spouses: Vec<&Term> = of(id, Role::Agent).into_iter().chain(of(id, Role::Patient)).collect();
        spouses.retain(|t| matches!(t, Term::Value(Value::Name(_) | Value::Text(_))));
        spouses.sort_by_key(|t| format!("{t:?}"));
        spouses.dedup();
        let mut end = first_date(id, Role::End).unwrap_or(NaiveDate::MAX);
        for s in &spouses {
            if let Some(d) = deaths.get(s) {
                end = end.min(*d);
            }
        }
        for (decree, d) in &decrees {
            let names_it = of(decree, Role::Patient).contains(&id);
            let parties = of(decree, Role::Agent).into_iter().chain(of(decree, Role::Patient)).filter(|p| spouses.contains(p)).count();
            if names_it || parties >= 2 {
                end = end.min(*d);
            }
        }
        let start = first_date(id, Role::Start).unwrap_or(NaiveDate::MIN);
        marriages.push(Marriage { id, spouses, start, end });
    }
    let mut out = Vec::new();
    for (i, a) in marriages.iter().enumerate() {
        for b in &marriages[i + 1..] {
            let Some(shared) = a.spouses.iter().find(|s| b.spouses.contains(s)) else { continue };
            if a.start < b.end && b.start < a.end {
                out.push(format!("{} is in marriages {} and {} at once", name(shared), name(a.id), name(b.id)));
            }
        }
    }
    out
}

fn name(t: &Term) -> String {
    match t {
        Term::Value(Value::Name(n) | Value::Text(n)) => n.clone(),
        other => format!("{other:?}"),
    }
}

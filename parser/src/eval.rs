//! Parser metrics: fact-level precision / recall / F1 with event ids
//! matched up to renaming, whole-case exact match, query accuracy, and
//! oracle@k (is the gold IR among the k beams).

use lexlog_data::{expand, CaseIr, GroundFact, Query, Term, Value};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap, HashSet};

fn id_name(t: &Term) -> Option<&str> {
    match t {
        Term::Value(Value::Name(n)) => Some(n),
        _ => None,
    }
}

/// Event ids declared by a type fact.
fn event_ids(facts: &[GroundFact]) -> HashSet<String> {
    facts
        .iter()
        .filter_map(|f| match f {
            GroundFact::Type { id, .. } => id_name(id).map(String::from),
            _ => None,
        })
        .collect()
}

/// What identifies an event apart from its id: its types and its roles
/// whose values are not event ids.
fn signatures(facts: &[GroundFact], ids: &HashSet<String>) -> HashMap<String, HashSet<String>> {
    let mut out: HashMap<String, HashSet<String>> = HashMap::new();
    for f in facts {
        match f {
            GroundFact::Type { kind, id } => {
                if let Some(n) = id_name(id) {
                    out.entry(n.into()).or_default().insert(format!("type {kind}"));
                }
            }
            GroundFact::Role { event, role, value } => {
                if let Some(n) = id_name(event) {
                    let v = id_name(value).filter(|v| ids.contains(*v)).map_or_else(|| format!("{value:?}"), |_| "<event>".into());
                    out.entry(n.into()).or_default().insert(format!("{role} {v}"));
                }
            }
            GroundFact::Assert { .. } => {}
        }
    }
    out
}

/// A renaming of predicted event ids onto gold ones, greedily by shared
/// signature.
fn match_ids(pred: &[GroundFact], gold: &[GroundFact]) -> HashMap<String, String> {
    let (pi, gi) = (event_ids(pred), event_ids(gold));
    let (ps, gs) = (signatures(pred, &pi), signatures(gold, &gi));
    let mut pairs: Vec<(usize, String, String)> = Vec::new();
    for (p, a) in &ps {
        for (g, b) in &gs {
            let shared = a.intersection(b).count();
            if shared > 0 {
                pairs.push((shared, p.clone(), g.clone()));
            }
        }
    }
    pairs.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| x.1.cmp(&y.1)).then_with(|| x.2.cmp(&y.2)));
    let mut map = HashMap::new();
    let mut used = HashSet::new();
    for (_, p, g) in pairs {
        if !map.contains_key(&p) && !used.contains(&g) {
            used.insert(g.clone());
            map.insert(p, g);
        }
    }
    for p in pi {
        if let std::collections::hash_map::Entry::Vacant(slot) = map.entry(p) {
            let fresh = format!("<unmatched {}>", slot.key());
            slot.insert(fresh);
        }
    }
    map
}

fn rename_term(t: &Term, map: &HashMap<String, String>) -> Term {
    match t {
        Term::Value(Value::Name(n)) => map.get(n).map_or_else(|| t.clone(), |m| Term::name(m.clone())),
        other => other.clone(),
    }
}

fn rename(f: &GroundFact, map: &HashMap<String, String>) -> GroundFact {
    match f {
        GroundFact::Type { kind, id } => GroundFact::Type { kind: *kind, id: rename_term(id, map) },
        GroundFact::Role { event, role, value } => GroundFact::Role { event: rename_term(event, map), role: *role, value: rename_term(value, map) },
        GroundFact::Assert { pred, args } => GroundFact::Assert { pred: pred.clone(), args: args.iter().map(|a| rename_term(a, map)).collect() },
    }
}

fn rename_query(q: &Query, map: &HashMap<String, String>) -> Query {
    match q {
        Query::Holds { goals } => Query::Holds {
            goals: goals
                .iter()
                .map(|g| match g {
                    lexlog_data::Goal::Holds(a) => lexlog_data::Goal::Holds(lexlog_data::Assertion {
                        pred: a.pred.clone(),
                        args: a.args.iter().map(|t| rename_term(t, map)).collect(),
                    }),
                    other => other.clone(),
                })
                .collect(),
        },
        other => other.clone(),
    }
}

/// Fact counts of a prediction against the gold IR.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Counts {
    pub true_positives: usize,
    pub false_positives: usize,
    pub false_negatives: usize,
    pub exact: bool,
    pub query_correct: bool,
}

impl Counts {
    /// Whether the reading states the gold facts, whatever its query.
    pub fn facts_right(&self) -> bool {
        self.false_positives == 0 && self.false_negatives == 0
    }
}

/// The kind of a ground fact, for error breakdowns: `type payment`,
/// `role start`, `assert s151_c`.
pub fn fact_type(f: &GroundFact) -> String {
    match f {
        GroundFact::Type { kind, .. } => format!("type {kind}"),
        GroundFact::Role { role, .. } => format!("role {role}"),
        GroundFact::Assert { pred, .. } => format!("assert {}", pred.as_str()),
    }
}

/// A prediction's unrolled facts (event ids renamed onto gold's), gold's,
/// and the renaming.
type Matched = (BTreeSet<GroundFact>, BTreeSet<GroundFact>, HashMap<String, String>);

/// Both IRs unrolled, the prediction's event ids renamed onto gold's, and
/// the renaming; `None` where the prediction does not unroll.
fn matched(pred: &CaseIr, gold: &CaseIr) -> Option<Matched> {
    let (Ok(p), Ok(g)) = (expand(&pred.facts), expand(&gold.facts)) else { return None };
    let map = match_ids(&p, &g);
    Some((p.iter().map(|f| rename(f, &map)).collect(), g.into_iter().collect(), map))
}

/// What a prediction gets wrong, its event ids renamed onto gold's (an
/// unmatched one reads `<unmatched eN>`).
#[derive(Debug, Clone, Default)]
pub struct FactErrors {
    /// Gold facts it misses, sorted.
    pub missing: Vec<GroundFact>,
    /// Facts it adds, sorted.
    pub spurious: Vec<GroundFact>,
    /// Its query, renamed as [`compare`] judges it.
    pub query: Option<Query>,
}

/// What `pred` gets wrong against `gold`; a prediction that does not
/// unroll misses every gold fact.
pub fn fact_errors(pred: &CaseIr, gold: &CaseIr) -> FactErrors {
    match matched(pred, gold) {
        Some((p, g, map)) => FactErrors {
            missing: g.difference(&p).cloned().collect(),
            spurious: p.difference(&g).cloned().collect(),
            query: pred.query.as_ref().map(|q| rename_query(q, &map)),
        },
        None => FactErrors { missing: expand(&gold.facts).unwrap_or_default(), spurious: Vec::new(), query: pred.query.clone() },
    }
}

/// A ground fact as SARA's Prolog writes one: `agent(e3, alice)`,
/// `payment(e2_2018)`, `s151_c_applies(alice, charlie, 2017)`.
pub fn fact_text(f: &GroundFact) -> String {
    use lexlog_data::linear::term_text;
    match f {
        GroundFact::Type { kind, id } => format!("{kind}({})", term_text(id)),
        GroundFact::Role { event, role, value } => format!("{role}({}, {})", term_text(event), term_text(value)),
        GroundFact::Assert { pred, args } => format!("{}({})", pred.as_str(), args.iter().map(term_text).collect::<Vec<_>>().join(", ")),
    }
}

/// Compares `pred` with `gold`, event ids matched up to renaming.
pub fn compare(pred: &CaseIr, gold: &CaseIr) -> Counts {
    let Some((p, g, map)) = matched(pred, gold) else {
        let g = expand(&gold.facts).map(|g| g.len()).unwrap_or(0);
        return Counts { false_negatives: g, ..Default::default() };
    };
    let tp = p.intersection(&g).count();
    let query_correct = match (&pred.query, &gold.query) {
        (Some(a), Some(b)) => rename_query(a, &map) == *b,
        (None, None) => true,
        _ => false,
    };
    Counts { true_positives: tp, false_positives: p.len() - tp, false_negatives: g.len() - tp, exact: p == g && query_correct, query_correct }
}

/// Micro-averaged precision, recall and F1 over many cases.
pub fn prf(counts: &[Counts]) -> (f64, f64, f64) {
    let tp: usize = counts.iter().map(|c| c.true_positives).sum();
    let fp: usize = counts.iter().map(|c| c.false_positives).sum();
    let fnn: usize = counts.iter().map(|c| c.false_negatives).sum();
    let p = tp as f64 / (tp + fp).max(1) as f64;
    let r = tp as f64 / (tp + fnn).max(1) as f64;
    let f = if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 };
    (p, r, f)
}

/// The mean over cases of each case's fact F1: every case weighs the same,
/// where the micro average of [`prf`] weighs a case by its unrolled facts
/// (a yearly series over a century counts a hundred times).
pub fn macro_f1(counts: &[Counts]) -> f64 {
    let f1 = |c: &Counts| {
        let denom = 2 * c.true_positives + c.false_positives + c.false_negatives;
        if denom == 0 { 1.0 } else { 2.0 * c.true_positives as f64 / denom as f64 }
    };
    counts.iter().map(f1).sum::<f64>() / counts.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use lexlog_data::linear::parse;

    #[test]
    fn ids_match_up_to_renaming() {
        let gold = parse("marriage e1 agent=ann agent=ben\npayment e2 agent=ann purpose=e1 amount=5\nquery tax ann 2017\n").unwrap();
        let pred = parse("payment e1 agent=ann purpose=e2 amount=5\nmarriage e2 agent=ann agent=ben\nquery tax ann 2017\n").unwrap();
        let c = compare(&pred, &gold);
        assert!(c.exact, "{c:?}");
        let worse = parse("payment e1 agent=ann amount=6\nquery tax ann 2016\n").unwrap();
        let c = compare(&worse, &gold);
        assert!(!c.exact && !c.query_correct);
        assert_eq!(c.true_positives, 2);
        let (p, r, _) = prf(&[c]);
        assert!(p > 0.5 && r < 0.5);
        let perfect = compare(&gold, &gold);
        assert_eq!((c.false_positives, c.false_negatives), (1, 5));
        assert!((macro_f1(&[perfect, c]) - (1.0 + 0.4) / 2.0).abs() < 1e-9, "{c:?}");
    }

    #[test]
    fn errors_list_what_compare_counts() {
        let gold = parse("marriage e1 agent=ann agent=ben\npayment e2 agent=ann purpose=e1 amount=5\nquery s3306_c_7 e2\n").unwrap();
        let pred = parse("payment e1 agent=ann purpose=e2 amount=6\nmarriage e2 agent=ann agent=ben\nquery s3306_c_7 e1\n").unwrap();
        let e = fact_errors(&pred, &gold);
        let text = |fs: &[GroundFact]| fs.iter().map(fact_text).collect::<Vec<_>>();
        assert_eq!(text(&e.missing), ["amount(e2, 5)"]);
        assert_eq!(text(&e.spurious), ["amount(e2, 6)"]);
        let c = compare(&pred, &gold);
        assert_eq!((c.false_negatives, c.false_positives), (e.missing.len(), e.spurious.len()));
        assert!(c.query_correct);
        assert_eq!(e.query, gold.query, "the query's e1 is gold's e2");
        let other = parse("payment e1 agent=ann purpose=e2 amount=5\nmarriage e2 agent=ann agent=ben\nquery s3306_c_7 e2\n").unwrap();
        let e = fact_errors(&other, &gold);
        assert!(!compare(&other, &gold).query_correct);
        assert!(e.missing.is_empty() && e.spurious.is_empty());
        assert_ne!(e.query, gold.query);
        let unrolls_not = parse("payment e1 agent=ann start=first_day(Y)\n").unwrap();
        let e = fact_errors(&unrolls_not, &gold);
        assert_eq!((e.missing.len(), e.spurious.len()), (compare(&unrolls_not, &gold).false_negatives, 0));
        assert_eq!(e.missing.len(), 7);
    }
}

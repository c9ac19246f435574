//! Consistency checks over a case's facts, for the bridge to rank parser
//! beams: each finding is a typed [`Inconsistency`] naming the fact.
//!
//! Functional attributes (an event's start, end and amount, a person's
//! birth and death) are e-graph functions: every stated value is unioned
//! with the attribute's node, so two different values for one attribute
//! end up as two distinct constants in one e-class, a functional conflict.

use crate::solve::Solver;
use egg::{EGraph, Id, SymbolLang};
use lexlog_data::{expand, CaseIr, EventKind, Goal, GroundFact, Query, Role, Term, Value};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InconsistencyKind {
    /// A predicate no rule defines.
    UnknownPredicate,
    /// A predicate used with an arity the rules do not know.
    WrongArity,
    /// A role value of the wrong type (a start that is no date, …).
    WrongType,
    /// A date that does not exist (2017-02-30).
    InvalidDate,
    /// An event that ends before it starts, or a death before its birth.
    EndBeforeStart,
    /// Two values for an attribute that has one.
    FunctionalConflict,
    /// Roles of an event that no fact declares.
    DanglingReference,
    /// A name the query asks about that the facts never mention.
    QueryArgumentAbsent,
    /// The solver derives no answer for the query.
    NothingDerivable,
    /// One person in two marriages at once (a couple's second wedding).
    OverlappingMarriages,
}

impl InconsistencyKind {
    /// A finding the solver cannot get past (it refuses ill-typed facts and
    /// cannot run what no rule knows), so that "nothing derivable" would
    /// only say it again.
    pub fn stops_solving(self) -> bool {
        matches!(self, Self::UnknownPredicate | Self::WrongArity | Self::WrongType | Self::InvalidDate)
    }

    pub const ALL: [InconsistencyKind; 10] = [
        InconsistencyKind::UnknownPredicate,
        InconsistencyKind::WrongArity,
        InconsistencyKind::WrongType,
        InconsistencyKind::InvalidDate,
        InconsistencyKind::EndBeforeStart,
        InconsistencyKind::FunctionalConflict,
        InconsistencyKind::DanglingReference,
        InconsistencyKind::QueryArgumentAbsent,
        InconsistencyKind::NothingDerivable,
        InconsistencyKind::OverlappingMarriages,
    ];
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Inconsistency {
    pub kind: InconsistencyKind,
    /// The fact or query part at fault, in words.
    pub detail: String,
}

fn finding(kind: InconsistencyKind, detail: impl Into<String>) -> Inconsistency {
    Inconsistency { kind, detail: detail.into() }
}

fn show(t: &Term) -> String {
    match t {
        Term::Value(Value::Name(n)) | Term::Value(Value::Text(n)) => n.clone(),
        Term::Value(Value::Int(i)) => i.to_string(),
        Term::Value(Value::Date(d)) => d.to_string(),
        Term::Any => "_".into(),
        other => format!("{other:?}"),
    }
}

fn looks_like_date(s: &str) -> bool {
    s.len() == 10 && s.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() })
}

/// A role value of the wrong type: a start that is no date (or no day of
/// the calendar), an amount that is no number, a participant that is one.
fn role_type_error(ev: &str, role: Role, value: &Term) -> Option<Inconsistency> {
    use InconsistencyKind::*;
    match (role, value) {
        (Role::Start | Role::End, Term::Value(Value::Text(s))) if looks_like_date(s) => Some(finding(InvalidDate, format!("{role} of {ev} is {s}"))),
        (Role::Start | Role::End, Term::Value(Value::Date(_)) | Term::Any | Term::Window { .. }) => None,
        (Role::Start | Role::End, v) => Some(finding(WrongType, format!("{role} of {ev} is {}, not a date", show(v)))),
        (Role::Amount, Term::Value(Value::Int(_)) | Term::Any) => None,
        (Role::Amount, v) => Some(finding(WrongType, format!("amount of {ev} is {}, not a number", show(v)))),
        (Role::Agent | Role::Patient | Role::Beneficiary, Term::Value(Value::Int(_) | Value::Date(_))) => {
            Some(finding(WrongType, format!("{role} of {ev} is {}, not a participant", show(value))))
        }
        _ => None,
    }
}

/// The first fact of `ground` whose role value has the wrong type, in
/// words: the solver refuses such a case rather than answer from it.
pub(crate) fn first_type_error(ground: &[GroundFact]) -> Option<String> {
    ground.iter().find_map(|f| match f {
        GroundFact::Role { event, role, value } => role_type_error(&show(event), *role, value).map(|i| i.detail),
        _ => None,
    })
}

/// The first income, deduction, or payment to someone, with an amount and
/// no start date: the rules count an amount in the year it starts, so this
/// one would be left out of every year without a word. (A household
/// payment, to nobody or to the home, may go undated: it holds every year.)
pub(crate) fn first_undated_income(ground: &[GroundFact]) -> Option<String> {
    let mut events: HashSet<&Term> = HashSet::new();
    let mut places: HashSet<&Term> = HashSet::new();
    let mut residences: HashSet<&Term> = HashSet::new();
    let mut dated: HashSet<&Term> = HashSet::new();
    let mut amounts: HashSet<&Term> = HashSet::new();
    for f in ground {
        match f {
            GroundFact::Type { kind, id } => {
                events.insert(id);
                if *kind == EventKind::Residence {
                    residences.insert(id);
                }
            }
            GroundFact::Role { event, role: Role::Start, value: Term::Value(Value::Date(_)) | Term::Window { .. } } => {
                dated.insert(event);
            }
            GroundFact::Role { event, role: Role::Amount, .. } => {
                amounts.insert(event);
            }
            GroundFact::Role { role: Role::Location | Role::Purpose, value, .. } => {
                places.insert(value);
            }
            _ => {}
        }
    }
    let mut patients: HashMap<&Term, Vec<&Term>> = HashMap::new();
    for f in ground {
        if let GroundFact::Role { event, role: Role::Patient, value } = f {
            if residences.contains(event) {
                places.insert(value);
            }
            patients.entry(event).or_default().push(value);
        }
    }
    let paid_to_someone = |ev: &Term| {
        patients.get(ev).into_iter().flatten().any(|v| {
            matches!(v, Term::Value(Value::Name(_) | Value::Text(_))) && !events.contains(v) && !places.contains(v)
        })
    };
    ground.iter().find_map(|f| match f {
        GroundFact::Type { kind: kind @ (EventKind::Income | EventKind::Deduction | EventKind::Payment), id }
            if amounts.contains(id) && !dated.contains(id) && (*kind != EventKind::Payment || paid_to_someone(id)) =>
        {
            Some(format!("{kind} {} has an amount but no start date: no year to count it in", show(id)))
        }
        _ => None,
    })
}

impl Solver {
    /// The checks the rules state (`solver/rules/common.lex`), in one run:
    /// each person in two marriages at once (`overlapping_marriages`, each
    /// marriage spanned by `marriage_span`: its end, a spouse's death, a
    /// decree), and each death before its birth (`died_before_born`, a
    /// birth as the rules read it). Facts the solver refuses have their own
    /// findings, and none here.
    fn rule_findings(&self, ir: &CaseIr) -> Vec<Inconsistency> {
        let Ok(mut loaded) = self.load("check", ir) else { return vec![] };
        let checks = [("overlapping_marriages", 3), ("died_before_born", 3)];
        let relevant: HashSet<_> = checks
            .iter()
            .filter_map(|&(name, arity)| self.program.find(name, arity))
            .flat_map(|p| self.depends[p].iter().copied())
            .collect();
        crate::engine::run(&self.program, &self.strata, Some(&relevant), &mut loaded.db, self.limits);
        let mut out = Vec::new();
        let mut pairs: Vec<Vec<String>> = self.relation(&loaded, "overlapping_marriages", 3);
        // One finding per pair of marriages, whichever spouse they share.
        pairs.retain(|t| t[1] < t[2]);
        pairs.sort_by(|a, b| (&a[1], &a[2], &a[0]).cmp(&(&b[1], &b[2], &b[0])));
        pairs.dedup_by(|a, b| a[1] == b[1] && a[2] == b[2]);
        out.extend(pairs.into_iter().map(|t| {
            finding(InconsistencyKind::OverlappingMarriages, format!("{} is in marriages {} and {} at once", t[0], t[1], t[2]))
        }));
        let mut lives: Vec<Vec<String>> = self.relation(&loaded, "died_before_born", 3);
        lives.sort();
        out.extend(lives.into_iter().map(|t| {
            finding(InconsistencyKind::EndBeforeStart, format!("{} dies on {}, before the birth on {}", t[0], t[1], t[2]))
        }));
        out
    }

    /// Every inconsistency found in `ir`; empty for a consistent case.
    pub fn check(&self, ir: &CaseIr) -> Vec<Inconsistency> {
        let mut out = self.check_facts(ir);
        if ir.query.is_some() && !out.iter().any(|i| i.kind.stops_solving()) {
            if let Err(e) = self.solve("check", ir) {
                out.push(finding(InconsistencyKind::NothingDerivable, e.to_string()));
            }
        }
        out
    }

    /// The checks that need no solving: every kind but
    /// [`InconsistencyKind::NothingDerivable`].
    pub fn check_facts(&self, ir: &CaseIr) -> Vec<Inconsistency> {
        use InconsistencyKind::*;
        let mut out = Vec::new();
        let ground = match expand(&ir.facts) {
            Ok(g) => g,
            Err(e) => return vec![finding(WrongType, e.to_string())],
        };
        let mut events: HashSet<String> = HashSet::new();
        let mut mentioned: HashSet<String> = HashSet::new();
        for f in &ground {
            // An event is declared by its type, or by naming it in a stated
            // predicate (SARA states `s3306_b(…, bob_works, …)`).
            match f {
                GroundFact::Type { id: Term::Value(Value::Name(n)), .. } => {
                    events.insert(n.clone());
                }
                GroundFact::Assert { args, .. } => {
                    for a in args {
                        if let Term::Value(Value::Name(n)) = a {
                            events.insert(n.clone());
                        }
                    }
                }
                _ => {}
            }
            let terms: Vec<&Term> = match f {
                GroundFact::Type { id, .. } => vec![id],
                GroundFact::Role { event, value, .. } => vec![event, value],
                GroundFact::Assert { args, .. } => args.iter().collect(),
            };
            for t in terms {
                if let Term::Value(Value::Name(n) | Value::Text(n)) = t {
                    mentioned.insert(n.clone());
                }
            }
        }

        // Roles: types, dates, dangling events; and the e-graph of
        // functional attributes.
        let mut egraph: EGraph<SymbolLang, ()> = EGraph::default();
        let mut recurring: HashSet<String> = HashSet::new();
        let mut starts: HashMap<String, usize> = HashMap::new();
        for f in &ground {
            if let GroundFact::Role { event: Term::Value(Value::Name(e)), role: Role::Start, .. } = f {
                *starts.entry(e.clone()).or_default() += 1;
            }
        }
        for f in &ir.facts {
            if let lexlog_data::Fact::ForEach(fe) = f {
                for b in &fe.body {
                    if let lexlog_data::Fact::Event(ev) = b {
                        if ev.kind.is_none() && ev.roles.iter().any(|(r, _)| *r == Role::Start) {
                            recurring.insert(show(&ev.id));
                        }
                    }
                }
            }
        }
        let mut attrs: BTreeMap<(String, Role), Vec<String>> = BTreeMap::new();
        for f in &ground {
            let GroundFact::Role { event, role, value } = f else { continue };
            let ev = show(event);
            if let Term::Value(Value::Name(n)) = event {
                if !events.contains(n) {
                    out.push(finding(DanglingReference, format!("{role} of {n}, which no fact declares")));
                }
            }
            out.extend(role_type_error(&ev, *role, value));
            let functional = matches!(role, Role::End | Role::Amount) || (*role == Role::Start && !recurring.contains(&ev));
            if functional && matches!(value, Term::Value(_)) && !matches!(event, Term::Any) {
                attrs.entry((ev, *role)).or_default().push(show(value));
            }
        }
        // A person's birth and death are functional too: the starts of
        // birth and death events, by the person (one pass over the facts
        // each).
        let once_events: HashMap<String, &str> = ground
            .iter()
            .filter_map(|g| match g {
                GroundFact::Type { kind: EventKind::Birth, id } => Some((show(id), "birth")),
                GroundFact::Type { kind: EventKind::Death, id } => Some((show(id), "death")),
                _ => None,
            })
            .collect();
        let mut starts_of: HashMap<String, Vec<String>> = HashMap::new();
        for f in &ground {
            if let GroundFact::Role { event, role: Role::Start, value: v @ Term::Value(_) } = f {
                let e = show(event);
                if once_events.contains_key(&e) {
                    starts_of.entry(e).or_default().push(show(v));
                }
            }
        }
        for f in &ground {
            if let GroundFact::Role { event, role: Role::Agent, value } = f {
                let e = show(event);
                if let (Some(starts), Some(what)) = (starts_of.get(&e), once_events.get(&e)) {
                    attrs.entry((format!("{what} of:{}", show(value)), Role::Start)).or_default().extend(starts.iter().cloned());
                }
            }
        }
        let mut nodes: Vec<((String, Role), Id)> = Vec::new();
        for ((owner, role), values) in &attrs {
            let owner_id = egraph.add(SymbolLang::leaf(owner.as_str()));
            let attr = egraph.add(SymbolLang::new(role.as_str(), vec![owner_id]));
            for v in values {
                let c = egraph.add(SymbolLang::leaf(format!("={v}")));
                egraph.union(attr, c);
            }
            nodes.push(((owner.clone(), *role), attr));
        }
        egraph.rebuild();
        for ((owner, role), id) in nodes {
            let mut constants: Vec<String> = egraph[id]
                .nodes
                .iter()
                .filter(|n| n.children.is_empty())
                .map(|n| n.op.to_string())
                .filter_map(|s| s.strip_prefix('=').map(String::from))
                .collect();
            constants.sort();
            constants.dedup();
            if constants.len() > 1 {
                let what = if owner.contains(" of:") { owner.replacen(" of:", " of ", 1) } else { format!("{role} of {owner}") };
                out.push(finding(FunctionalConflict, format!("{what} is both {}", constants.join(" and "))));
            }
        }

        out.extend(self.rule_findings(ir));

        // End before start.
        let mut first_start: HashMap<String, chrono::NaiveDate> = HashMap::new();
        for f in &ground {
            if let GroundFact::Role { event, role: Role::Start, value: Term::Value(Value::Date(d)) } = f {
                let e = first_start.entry(show(event)).or_insert(*d);
                *e = (*e).min(*d);
            }
        }
        for f in &ground {
            if let GroundFact::Role { event, role: Role::End, value: Term::Value(Value::Date(d)) } = f {
                if first_start.get(&show(event)).is_some_and(|s| d < s) {
                    out.push(finding(EndBeforeStart, format!("{} ends on {d}, before it starts", show(event))));
                }
            }
        }

        // Predicates and their arities.
        let mut preds: Vec<(String, usize)> = ground
            .iter()
            .filter_map(|f| match f {
                GroundFact::Assert { pred, args } => Some((pred.as_str().to_string(), args.len())),
                _ => None,
            })
            .collect();
        let mut query_names = Vec::new();
        if let Some(Query::Holds { goals }) = &ir.query {
            for g in goals {
                if let Goal::Holds(a) = g {
                    preds.push((a.pred.as_str().to_string(), a.args.len()));
                    query_names.extend(a.args.iter().filter_map(|t| match t {
                        Term::Value(Value::Name(n)) => Some(n.clone()),
                        _ => None,
                    }));
                }
            }
        }
        if let Some(Query::Tax { person, .. }) = &ir.query {
            query_names.push(person.clone());
        }
        preds.sort();
        preds.dedup();
        for (name, arity) in preds {
            // Known to the rules as derived, or read as stated.
            if self.program.find(&name, arity).is_some() || self.program.find(&format!("stated_{name}"), arity).is_some() {
                continue;
            }
            let known: Vec<usize> = self.program.preds.iter().filter(|p| p.name == name).map(|p| p.arity).collect();
            if known.is_empty() {
                out.push(finding(UnknownPredicate, format!("{name}/{arity}")));
            } else {
                out.push(finding(WrongArity, format!("{name}/{arity} (the rules know {name}/{known:?})")));
            }
        }
        for n in query_names {
            if !mentioned.contains(&n) {
                out.push(finding(QueryArgumentAbsent, format!("the query names {n}, which no fact mentions")));
            }
        }
        out
    }

    /// The findings of [`Solver::check`] and the solver's answer, solving
    /// once (the bridge judges every beam this way).
    pub fn check_and_solve(&self, case: &str, ir: &CaseIr) -> (Vec<Inconsistency>, Result<crate::Outcome, crate::SolverError>) {
        let mut findings = self.check_facts(ir);
        let outcome = self.solve(case, ir);
        if let Err(e) = &outcome {
            if ir.query.is_some() && !findings.iter().any(|i| i.kind.stops_solving()) {
                findings.push(finding(InconsistencyKind::NothingDerivable, e.to_string()));
            }
        }
        (findings, outcome)
    }
}

//! Solving a case: statute rules compiled once, the case's facts loaded as
//! base relations, the query answered from the rules it depends on.

use crate::engine::{self, join, Database, Limits, RunReport, StopReason};
use crate::error::SolverError;
use crate::lang::Program;
use crate::program::{Arg, Atom, CmpOp, Expr, Func, Literal, PredId, VarId};
use crate::stratify::{dependencies, stratify, Stratum};
use crate::value::{Symbols, Val};
use lexlog_data::{expand, CaseIr, EventKind, Goal, GroundFact, Query, Role, Term, Value};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// The statute rules, one file per section, plus common sense.
pub const RULE_FILES: &[(&str, &str)] = &[
    ("common.lex", include_str!("../rules/common.lex")),
    ("s7703.lex", include_str!("../rules/s7703.lex")),
    ("s151.lex", include_str!("../rules/s151.lex")),
    ("s152.lex", include_str!("../rules/s152.lex")),
    ("s2.lex", include_str!("../rules/s2.lex")),
    ("s63.lex", include_str!("../rules/s63.lex")),
    ("s68.lex", include_str!("../rules/s68.lex")),
    ("s1.lex", include_str!("../rules/s1.lex")),
    ("s3306.lex", include_str!("../rules/s3306.lex")),
    ("s3301.lex", include_str!("../rules/s3301.lex")),
];

/// What the solver concludes for a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Prediction {
    Entailment,
    Contradiction,
    Dollars(i64),
}

/// A solved case.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub prediction: Prediction,
    pub stop: StopReason,
    pub report: RunReport,
}

/// The compiled statutes, shared by every case.
pub struct Solver {
    pub program: Program,
    pub(crate) strata: Vec<Stratum>,
    /// For each predicate, the predicates it depends on (itself included).
    pub(crate) depends: Vec<Vec<PredId>>,
    calendar_year: PredId,
    event: PredId,
    member_of: PredId,
    mentioned: PredId,
    asked_number: PredId,
    list_of_one: PredId,
    mentions: PredId,
    text: PredId,
    asked_date: PredId,
    tax: PredId,
    /// The places the rules type as a year and nothing else
    /// ([`crate::signature`]), by predicate and arity; inferred when first
    /// asked, as few queries need them.
    year_places: std::sync::OnceLock<HashMap<(String, usize), Vec<usize>>>,
    pub limits: Limits,
}

/// A case's facts loaded against the statutes.
pub struct Loaded {
    pub db: Database,
    pub symbols: Symbols,
    /// Predicates the case states that no rule mentions.
    extra: HashMap<(String, usize), PredId>,
}

/// The predicate a query asks by a rule predicate's name: `stated_p`
/// (what a case's facts state of `p`) asks `p`; none for auxiliary
/// relations a query cannot name.
fn query_name(name: &str) -> Option<&str> {
    let name = name.strip_prefix("stated_").unwrap_or(name);
    lexlog_data::Predicate::parse(name).is_some().then_some(name)
}

impl Solver {
    /// Compiles the built-in statute rules.
    pub fn new() -> Result<Solver, SolverError> {
        Solver::with_rules(RULE_FILES.iter().map(|(f, s)| (f.to_string(), s.to_string())))
    }

    pub fn with_rules(files: impl IntoIterator<Item = (String, String)>) -> Result<Solver, SolverError> {
        let mut program = Program::default();
        for k in EventKind::ALL {
            program.pred(k.as_str(), 1);
        }
        for r in Role::ALL {
            program.pred(r.as_str(), 2);
        }
        let calendar_year = program.pred("calendar_year", 1);
        let event = program.pred("event", 1);
        let member_of = program.pred("member_of", 2);
        let mentioned = program.pred("mentioned", 1);
        let asked_number = program.pred("asked_number", 1);
        let list_of_one = program.pred("list_of_one", 2);
        let mentions = program.pred("mentions", 2);
        let text = program.pred("text", 1);
        let asked_date = program.pred("asked_date", 1);
        let tax = program.pred("tax", 3);
        for (file, source) in files {
            program.add_source(&file, &source)?;
        }
        let strata = stratify(&program)?;
        let mut depends = Vec::new();
        for p in 0..program.preds.len() {
            let mut seen = HashSet::from([p]);
            let mut stack = vec![p];
            while let Some(q) = stack.pop() {
                for rule in program.rules.iter().filter(|r| r.head.pred == q) {
                    let mut deps = Vec::new();
                    dependencies(&rule.body, false, &mut deps);
                    for (d, _) in deps {
                        if seen.insert(d) {
                            stack.push(d);
                        }
                    }
                }
            }
            depends.push(seen.into_iter().collect());
        }
        Ok(Solver {
            program,
            strata,
            depends,
            calendar_year,
            event,
            member_of,
            mentioned,
            asked_number,
            list_of_one,
            mentions,
            text,
            asked_date,
            tax,
            year_places: std::sync::OnceLock::new(),
            limits: Limits::default(),
        })
    }

    /// What each predicate's arguments hold, by name and arity, inferred
    /// from the rules ([`crate::signature`]).
    pub fn argument_types(&self) -> HashMap<(String, usize), Vec<crate::ArgType>> {
        crate::signature::by_name(&self.program)
    }

    /// The predicates a query may ask, each with the argument types of its
    /// arities; `tax` asks a person and a year.
    pub fn query_signatures(&self) -> HashMap<String, Vec<Vec<crate::ArgType>>> {
        let mut out: HashMap<String, Vec<Vec<crate::ArgType>>> = HashMap::new();
        let mut types: Vec<((String, usize), Vec<crate::ArgType>)> = self.argument_types().into_iter().collect();
        // The rules' own predicates first: a `stated_p` that only the
        // case's facts fill is typed by nothing, so it only adds arities.
        types.sort_by_key(|((name, arity), _)| (name.starts_with("stated_"), name.clone(), *arity));
        for ((name, _), types) in types {
            if let Some(name) = query_name(&name).filter(|n| *n != "tax") {
                let sigs = out.entry(name.to_string()).or_default();
                if !sigs.iter().any(|s| s.len() == types.len()) {
                    sigs.push(types);
                }
            }
        }
        out.insert("tax".into(), vec![vec![crate::ArgType::NAME, crate::ArgType::YEAR]]);
        for sigs in out.values_mut() {
            sigs.sort_by_key(Vec::len);
        }
        out
    }

    /// The event kinds each place of a query predicate takes, by name
    /// ([`query_name`]) and arity; only predicates the rules give kinds
    /// ([`crate::event_kinds`]).
    pub fn query_event_kinds(&self) -> HashMap<(String, usize), Vec<Vec<lexlog_data::EventKind>>> {
        let mut merged: HashMap<(String, usize), Vec<crate::event_kinds::KindSet>> = HashMap::new();
        for ((name, arity), places) in crate::event_kinds::by_name(&self.program) {
            let Some(name) = query_name(&name) else { continue };
            let m = merged.entry((name.to_string(), arity)).or_insert_with(|| vec![Default::default(); arity]);
            for (m, k) in m.iter_mut().zip(places) {
                *m = m.union(k);
            }
        }
        merged.into_iter().filter(|(_, p)| p.iter().any(|k| !k.is_empty())).map(|(key, p)| (key, p.into_iter().map(|k| k.kinds()).collect())).collect()
    }

    /// The places of each query predicate that the built-in rules
    /// document ([`crate::places`]), where the count matches one of its
    /// arities.
    pub fn query_place_names(&self) -> HashMap<String, Vec<String>> {
        let signatures = self.query_signatures();
        let sources: Vec<&str> = RULE_FILES.iter().map(|(_, s)| *s).collect();
        let mut places = crate::places::documented(&sources);
        places.retain(|name, p| signatures.get(name).is_some_and(|sigs| sigs.iter().any(|s| s.len() == p.len())));
        places
    }

    /// For each query predicate (by [`query_name`], over its arities), the
    /// pairs of places (first < second) that some rule's head fills with
    /// one variable.
    pub fn query_shared_places(&self) -> HashMap<String, Vec<(usize, usize)>> {
        let mut out: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
        for rule in &self.program.rules {
            let Some(name) = query_name(&self.program.preds[rule.head.pred].name) else { continue };
            let args = &rule.head.args;
            for (i, a) in args.iter().enumerate() {
                for (j, b) in args.iter().enumerate().skip(i + 1) {
                    if let (crate::program::Arg::Var(x), crate::program::Arg::Var(y)) = (a, b) {
                        if x == y {
                            let pairs = out.entry(name.to_string()).or_default();
                            if !pairs.contains(&(i, j)) {
                                pairs.push((i, j));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn pred_id(&self, loaded: &mut Loaded, name: &str, arity: usize) -> PredId {
        if let Some(p) = self.program.find(name, arity) {
            return p;
        }
        let next = self.program.preds.len() + loaded.extra.len();
        *loaded.extra.entry((name.to_string(), arity)).or_insert_with(|| {
            loaded.db.relations.push(engine::Relation::default().with_arity(arity));
            next
        })
    }

    /// `mentions(Name, Word)` for each word of a name or text, so rules can
    /// read "a plan for employees in case of sickness".
    fn register_words(&self, loaded: &mut Loaded, sym: crate::value::Sym) {
        let text = loaded.symbols.name(sym).to_lowercase();
        for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            let w = Val::Sym(loaded.symbols.intern(word));
            loaded.db.insert(self.mentions, &[Val::Sym(sym), w]);
        }
    }

    /// Lists become `member_of(Item, List)` and `list_of_one(List, Item)`.
    fn register_list(&self, loaded: &mut Loaded, v: Val) {
        if let Val::List(i) = v {
            let items = loaded.symbols.list_items(i).to_vec();
            for item in &items {
                loaded.db.insert(self.member_of, &[*item, v]);
            }
            if let [only] = items.as_slice() {
                loaded.db.insert(self.list_of_one, &[v, *only]);
            }
        }
    }

    /// Loads the case's facts (unrolled) as base relations.
    pub fn load(&self, case: &str, ir: &CaseIr) -> Result<Loaded, SolverError> {
        let ground = expand(&ir.facts).map_err(|e| SolverError::Case { case: case.into(), message: e.to_string() })?;
        if let Some(message) = crate::check::first_type_error(&ground).or_else(|| crate::check::first_undated_income(&ground)) {
            return Err(SolverError::Case { case: case.into(), message });
        }
        let mut loaded = Loaded { db: Database::new(&self.program), symbols: self.program.symbols.clone(), extra: HashMap::new() };
        let mut years: Vec<i64> = Vec::new();
        for fact in &ground {
            if let GroundFact::Role { value: Term::Value(Value::Text(t)), .. } = fact {
                let v = Val::Sym(loaded.symbols.intern(t));
                loaded.db.insert(self.text, &[v]);
            }
            let (pred, tuple) = match fact {
                GroundFact::Type { kind, id } => {
                    let id = term_val(&mut loaded.symbols, id);
                    loaded.db.insert(self.event, &[id]);
                    (self.program.find(kind.as_str(), 1).expect("kinds are declared"), vec![id])
                }
                GroundFact::Role { event, role, value } => (
                    self.program.find(role.as_str(), 2).expect("roles are declared"),
                    vec![term_val(&mut loaded.symbols, event), term_val(&mut loaded.symbols, value)],
                ),
                GroundFact::Assert { pred, args } => {
                    let tuple: Vec<Val> = args.iter().map(|a| term_val(&mut loaded.symbols, a)).collect();
                    // Rules may ask what the case states, apart from what they derive.
                    if let Some(stated) = self.program.find(&format!("stated_{}", pred.as_str()), args.len()) {
                        loaded.db.insert(stated, &tuple);
                    }
                    (self.pred_id(&mut loaded, pred.as_str(), args.len()), tuple)
                }
            };
            for v in &tuple {
                if let Val::Sym(sym) = v {
                    loaded.db.insert(self.mentioned, &[*v]);
                    self.register_words(&mut loaded, *sym);
                }
                self.register_list(&mut loaded, *v);
            }
            collect_years(&tuple, &mut years);
            loaded.db.insert(pred, &tuple);
        }
        // Years the query asks about; they bound the years the rules range
        // over (demand), with the fact years as the fallback.
        let mut asked_years: Vec<i64> = Vec::new();
        match &ir.query {
            Some(Query::Tax { person, year }) => {
                calendar_year(case, "tax", *year)?;
                asked_years.push(*year);
                let p = Val::Sym(loaded.symbols.intern(person));
                loaded.db.insert(self.mentioned, &[p]);
            }
            Some(Query::Holds { goals }) => {
                for g in goals {
                    match g {
                        Goal::Holds(a) => {
                            for (i, t) in a.args.iter().enumerate() {
                                match t {
                                    Term::Value(Value::Int(n)) => {
                                        // Demand: numbers the query asks about seed the
                                        // rules that compute from a given amount.
                                        loaded.db.insert(self.asked_number, &[Val::Int(*n)]);
                                        if is_year(*n) {
                                            asked_years.push(*n);
                                        } else if self.is_year_place(a.pred.as_str(), a.args.len(), i) {
                                            // A year by the rules' types, however far off.
                                            calendar_year(case, a.pred.as_str(), *n)?;
                                            asked_years.push(*n);
                                        }
                                    }
                                    Term::Value(v @ Value::List(_)) => {
                                        let l = value_val(&mut loaded.symbols, v);
                                        self.register_list(&mut loaded, l);
                                    }
                                    Term::Value(Value::Date(d)) => {
                                        loaded.db.insert(self.asked_date, &[Val::Date(*d)]);
                                        asked_years.push(chrono::Datelike::year(d) as i64)
                                    }
                                    Term::Value(Value::Name(n)) => {
                                        let v = Val::Sym(loaded.symbols.intern(n));
                                        loaded.db.insert(self.mentioned, &[v]);
                                    }
                                    _ => {}
                                }
                            }
                        }
                        Goal::FirstDay { year, .. } => {
                            calendar_year(case, "first_day", *year)?;
                            asked_years.push(*year)
                        }
                        _ => {}
                    }
                }
            }
            None => {}
        }
        // The statutes look back at most two years (§2(a)(1)(A)) and one
        // more for the year before that (§3306(a)). Each asked year brings
        // its own window, so that years far apart do not span the centuries
        // between them.
        let windows: Vec<(i64, i64)> = if asked_years.is_empty() {
            years.iter().min().zip(years.iter().max()).map(|(&lo, &hi)| (lo - 1, hi + 1)).into_iter().collect()
        } else {
            asked_years.iter().map(|&y| (y - YEARS_BACK, y + 1)).collect()
        };
        for (lo, hi) in windows {
            for y in lo..=hi {
                loaded.db.insert(self.calendar_year, &[Val::Int(y)]);
            }
        }
        Ok(loaded)
    }

    /// Whether the rules type place `i` of `pred`/`arity` as a year and
    /// nothing else.
    fn is_year_place(&self, pred: &str, arity: usize, i: usize) -> bool {
        let places = self.year_places.get_or_init(|| {
            let years = |types: &[crate::ArgType]| types.iter().enumerate().filter(|(_, t)| **t == crate::ArgType::YEAR).map(|(i, _)| i).collect();
            self.argument_types().into_iter().map(|(key, types)| (key, years(&types))).collect()
        });
        places.get(&(pred.to_string(), arity)).is_some_and(|p: &Vec<usize>| p.contains(&i))
    }

    /// Solves a case: its query against its facts.
    pub fn solve(&self, case: &str, ir: &CaseIr) -> Result<Outcome, SolverError> {
        let (outcome, _) = self.solve_loaded(case, ir)?;
        // A run cut short has not derived everything, and negation over
        // what it lacks could answer wrongly: no answer rather than that.
        if outcome.stop != StopReason::Saturated {
            return Err(SolverError::Case {
                case: case.into(),
                message: format!("the solver stopped before deriving everything ({:?}, {} tuples derived): no answer", outcome.stop, outcome.report.derived),
            });
        }
        Ok(outcome)
    }

    /// Solves a case and returns the database it derived, for explanations.
    pub fn solve_loaded(&self, case: &str, ir: &CaseIr) -> Result<(Outcome, Loaded), SolverError> {
        let query = ir.query.as_ref().ok_or_else(|| SolverError::Case { case: case.into(), message: "the case has no query".into() })?;
        let mut loaded = self.load(case, ir)?;
        let (body, asked) = self.query_body(case, &mut loaded, query)?;
        let relevant: HashSet<PredId> = asked.iter().flat_map(|&p| self.depends.get(p).cloned().unwrap_or_else(|| vec![p])).collect();
        let (stop, report) = engine::run(&self.program, &self.strata, Some(&relevant), &mut loaded.db, self.limits);
        let prediction = match query {
            Query::Tax { .. } => {
                let mut amounts = HashSet::new();
                let nvars = 1;
                let mut env = vec![None; nvars];
                join(&body, 0, &mut loaded.db, &None, &mut env, &mut |e| {
                    if let Some(Val::Int(x)) = e[0] {
                        amounts.insert(x);
                    }
                });
                match amounts.len() {
                    1 => Prediction::Dollars(amounts.into_iter().next().expect("one amount")),
                    0 => return Err(SolverError::Case { case: case.into(), message: "no tax is derivable for the query".into() }),
                    _ => {
                        let mut a: Vec<_> = amounts.into_iter().collect();
                        a.sort();
                        return Err(SolverError::Case { case: case.into(), message: format!("several tax amounts are derivable: {a:?}") });
                    }
                }
            }
            Query::Holds { .. } => {
                let nvars = max_var(&body) + 1;
                let mut env = vec![None; nvars];
                let mut found = false;
                join(&body, 0, &mut loaded.db, &None, &mut env, &mut |_| found = true);
                if found { Prediction::Entailment } else { Prediction::Contradiction }
            }
        };
        Ok((Outcome { prediction, stop, report }, loaded))
    }

    /// The tuples of a predicate after solving, shown as text.
    pub fn relation(&self, loaded: &Loaded, name: &str, arity: usize) -> Vec<Vec<String>> {
        let Some(p) = self.program.find(name, arity).or_else(|| loaded.extra.get(&(name.to_string(), arity)).copied()) else {
            return vec![];
        };
        loaded.db.relations[p].iter().map(|t| t.iter().map(|v| loaded.symbols.show(*v)).collect()).collect()
    }

    /// The query as a rule body, and the predicates it asks.
    pub(crate) fn query_body(&self, case: &str, loaded: &mut Loaded, query: &Query) -> Result<(Vec<Literal>, Vec<PredId>), SolverError> {
        match query {
            Query::Tax { person, year } => {
                let p = Val::Sym(loaded.symbols.intern(person));
                let atom = Atom { pred: self.tax, args: vec![Arg::Const(p), Arg::Const(Val::Int(*year)), Arg::Var(0)] };
                Ok((vec![Literal::Pos(atom)], vec![self.tax]))
            }
            Query::Holds { goals } => {
                let mut vars: HashMap<String, VarId> = HashMap::new();
                let mut bound: HashSet<VarId> = HashSet::new();
                let mut body = Vec::new();
                let mut asked = Vec::new();
                for g in goals {
                    match g {
                        Goal::Holds(a) => {
                            let name = a.pred.as_str();
                            let pred = match self.program.find(name, a.args.len()) {
                                Some(p) => p,
                                None if loaded.extra.contains_key(&(name.to_string(), a.args.len())) => loaded.extra[&(name.to_string(), a.args.len())],
                                None => return Err(SolverError::UnknownQuery { case: case.into(), pred: name.into(), arity: a.args.len() }),
                            };
                            asked.push(pred);
                            let args = a
                                .args
                                .iter()
                                .map(|t| match t {
                                    Term::Var(v) => {
                                        let n = vars.len() as VarId;
                                        let id = *vars.entry(v.clone()).or_insert(n);
                                        bound.insert(id);
                                        Arg::Var(id)
                                    }
                                    Term::Any => Arg::Wild,
                                    other => Arg::Const(term_val(&mut loaded.symbols, other)),
                                })
                                .collect();
                            body.push(Literal::Pos(Atom { pred, args }));
                        }
                        Goal::Unbound { var } => {
                            let n = vars.len() as VarId;
                            body.push(Literal::IsOpen { var: *vars.entry(var.clone()).or_insert(n), open: true });
                        }
                        Goal::FirstDay { year, var } => {
                            let n = vars.len() as VarId;
                            let id = *vars.entry(var.clone()).or_insert(n);
                            let e = Expr::Call(Func::FirstDay, vec![Expr::Const(Val::Int(*year))]);
                            body.push(if bound.insert(id) { Literal::Assign(id, e) } else { Literal::Test(CmpOp::Eq, Expr::Var(id), e) });
                        }
                        Goal::Before { left, right } => {
                            let mut expr = |t: &Term| match t {
                                Term::Var(v) => vars.get(v).map(|&id| Expr::Var(id)),
                                other => Some(Expr::Const(term_val(&mut loaded.symbols, other))),
                            };
                            let (l, r) = (expr(left), expr(right));
                            let (Some(l), Some(r)) = (l, r) else {
                                return Err(SolverError::Case { case: case.into(), message: "`before` reads an unbound variable".into() });
                            };
                            body.push(Literal::Test(CmpOp::Lt, l, r));
                        }
                    }
                }
                Ok((body, asked))
            }
        }
    }
}

pub(crate) fn max_var(body: &[Literal]) -> usize {
    let mut m = 0;
    for l in body {
        match l {
            Literal::Pos(a) | Literal::Neg(a) => {
                for x in &a.args {
                    if let Arg::Var(v) = x {
                        m = m.max(*v as usize);
                    }
                }
            }
            Literal::Assign(v, _) | Literal::IsOpen { var: v, .. } => m = m.max(*v as usize),
            _ => {}
        }
    }
    m
}

/// How many years before the asked ones the rules may need.
const YEARS_BACK: i64 = 3;

/// A year the query asks must have calendar dates: no answer is given for
/// one that has none.
fn calendar_year(case: &str, asked: &str, year: i64) -> Result<(), SolverError> {
    if (1..=9999).contains(&year) {
        return Ok(());
    }
    let message = format!("the query asks {asked} for the year {year}, which has no calendar dates (1-9999)");
    Err(SolverError::Case { case: case.into(), message })
}

/// A number that could be a year is taken for one (an amount of 2000 too:
/// the years asked only bound what the rules range over).
fn is_year(y: i64) -> bool {
    (1900..=2200).contains(&y)
}

fn collect_years(tuple: &[Val], years: &mut Vec<i64>) {
    for v in tuple {
        if let Val::Date(d) = v {
            years.push(chrono::Datelike::year(d) as i64);
        }
    }
}

/// A ground IR term as an engine value.
pub fn term_val(symbols: &mut Symbols, t: &Term) -> Val {
    match t {
        Term::Value(v) => value_val(symbols, v),
        Term::Window { after, before } => Val::Window(*after, *before),
        _ => Val::Any,
    }
}

fn value_val(symbols: &mut Symbols, v: &Value) -> Val {
    match v {
        Value::Name(n) | Value::Text(n) => Val::Sym(symbols.intern(n)),
        Value::Int(i) => Val::Int(*i),
        Value::Date(d) => Val::Date(*d),
        Value::List(items) => {
            let vals = items.iter().map(|i| value_val(symbols, i)).collect();
            symbols.list(vals)
        }
    }
}

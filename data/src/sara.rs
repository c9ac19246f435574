//! Reading one SARA case file (`% Text`, `% Question`, `% Facts`, `% Test`)
//! into a [`Case`]: the facts are evaluated with the small Prolog machine
//! and folded back into a compact IR.

use crate::errata;
use crate::error::{DataError, Result};
use crate::fold::fold;
use crate::ground::{fact_set, GroundFact};
use crate::ir::{Answer, Assertion, Case, CaseIr, CaseKind, Goal, Predicate, Query, Term, Value};
use crate::prolog::eval::{offset, EvalError, Machine, Program};
use crate::prolog::{parse_clauses, Clause, PTerm};
use crate::vocab::{Aux, EventKind, Role};
use chrono::NaiveDate;
use std::collections::HashSet;
use std::path::Path;

/// Most resolution steps one case's facts may take.
const STEP_BUDGET: u64 = 20_000_000;

/// Reads the case file at `path`; its id is the file stem.
pub fn read_case_file(path: &Path) -> Result<Case> {
    let source = std::fs::read_to_string(path).map_err(|e| DataError::io(path, e))?;
    let id = path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| DataError::Case {
            file: path.display().to_string(),
            message: "file name is not valid UTF-8".into(),
        })?;
    parse_case(id, &path.display().to_string(), &source)
}

struct Sections<'a> {
    text: Vec<&'a str>,
    question: Vec<&'a str>,
    /// (first line number, source) of the facts and the test.
    facts: (usize, String),
    test: (usize, String),
}

fn split_sections<'a>(file: &str, source: &'a str) -> Result<Sections<'a>> {
    #[derive(PartialEq, Clone, Copy, Debug)]
    enum S {
        Start,
        Text,
        Question,
        Facts,
        Test,
    }
    let mut state = S::Start;
    let mut seen = Vec::new();
    let mut out = Sections {
        text: vec![],
        question: vec![],
        facts: (0, String::new()),
        test: (0, String::new()),
    };
    for (i, line) in source.lines().enumerate() {
        let n = i + 1;
        let header = match line.trim_end() {
            "% Text" => Some(S::Text),
            "% Question" => Some(S::Question),
            "% Facts" => Some(S::Facts),
            "% Test" => Some(S::Test),
            _ => None,
        };
        if let Some(h) = header {
            if seen.contains(&h) {
                return Err(syntax(file, n, format!("second {line:?} header")));
            }
            seen.push(h);
            state = h;
            match h {
                S::Facts => out.facts.0 = n + 1,
                S::Test => out.test.0 = n + 1,
                _ => {}
            }
            continue;
        }
        match state {
            S::Start if line.trim().is_empty() => {}
            S::Start => return Err(syntax(file, n, "text before the `% Text` header")),
            S::Text | S::Question => {
                if let Some(rest) = line.strip_prefix('%') {
                    let target = if state == S::Text { &mut out.text } else { &mut out.question };
                    if !rest.trim().is_empty() {
                        target.push(rest.trim());
                    }
                } else if !line.trim().is_empty() {
                    return Err(syntax(file, n, "expected a `% ` comment line"));
                }
            }
            S::Facts => {
                out.facts.1.push_str(line);
                out.facts.1.push('\n');
            }
            S::Test => {
                out.test.1.push_str(line);
                out.test.1.push('\n');
            }
        }
    }
    for (h, name) in [(S::Text, "% Text"), (S::Question, "% Question"), (S::Facts, "% Facts"), (S::Test, "% Test")] {
        if !seen.contains(&h) {
            return Err(DataError::Case { file: file.into(), message: format!("missing {name:?} section") });
        }
    }
    Ok(out)
}

fn syntax(file: &str, line: usize, message: impl Into<String>) -> DataError {
    DataError::Syntax { file: file.into(), line, message: message.into() }
}

fn unsupported(file: &str, line: usize, message: impl Into<String>) -> DataError {
    DataError::Unsupported { file: file.into(), line, message: message.into() }
}

/// Splits "… is equal to $4000. Entailment" into the question and answer.
fn parse_question(file: &str, lines: &[&str]) -> Result<(String, Answer)> {
    let joined = lines.join(" ");
    let (question, last) = joined.trim().rsplit_once(' ').ok_or_else(|| DataError::Case {
        file: file.into(),
        message: "the question has no answer".into(),
    })?;
    let answer = match last {
        "Entailment" => Answer::Entailment,
        "Contradiction" => Answer::Contradiction,
        dollars => {
            let digits = dollars.strip_prefix('$').unwrap_or("x").replace(',', "");
            Answer::Dollars(digits.parse().map_err(|_| DataError::Case {
                file: file.into(),
                message: format!("answer {last:?} is neither Entailment, Contradiction nor $amount"),
            })?)
        }
    };
    Ok((question.trim().to_string(), answer))
}

/// What a clause head states.
#[derive(Debug, Clone)]
enum HeadKind {
    Type(EventKind),
    Role(Role),
    Assert(Predicate),
    Helper,
}

fn classify(file: &str, line: usize, name: &str, arity: usize) -> Result<HeadKind> {
    if let Some(base) = name.strip_suffix('_') {
        if let (2, Some(aux @ Aux::Country)) = (arity, Aux::from_name(base)) {
            return Ok(HeadKind::Assert(Predicate::Aux(aux)));
        }
        return match (arity, EventKind::from_name(base), Role::from_name(base)) {
            (1, Some(k), _) => Ok(HeadKind::Type(k)),
            (2, _, Some(r)) => Ok(HeadKind::Role(r)),
            (1, None, _) => Err(unsupported(file, line, format!("unknown event type {name}"))),
            (2, _, None) => Err(unsupported(file, line, format!("unknown role {name}"))),
            _ => Err(unsupported(file, line, format!("{name}/{arity}: types take 1 argument, roles 2"))),
        };
    }
    Ok(match Predicate::parse(name) {
        Some(p) => HeadKind::Assert(p),
        None => HeadKind::Helper,
    })
}

/// Every predicate called from a rule body.
fn called(t: &PTerm, out: &mut HashSet<(String, usize)>) {
    if let Some((name, arity)) = t.functor() {
        out.insert((name.to_string(), arity));
        for a in t.args() {
            called(a, out);
        }
    }
}

/// Rewrites `h(.., V, ..) :- (nonvar(V), is_before(A,V), is_before(V,B)) ; var(V).`
/// (an open date window) into the fact `h(.., $window(A,B), ..)`.
fn window_fact(clause: &Clause) -> Option<Clause> {
    let body = clause.body.as_ref()?;
    let [bound, unbound] = body.args() else { return None };
    if body.functor()?.0 != ";" || unbound.functor()? != ("var", 1) {
        return None;
    }
    let v = unbound.args()[0].clone();
    let [nonvar, rest] = bound.args() else { return None };
    let [before_a, before_b] = rest.args() else { return None };
    if nonvar.functor()? != ("nonvar", 1) || nonvar.args()[0] != v {
        return None;
    }
    let (a, b) = (before_a.args(), before_b.args());
    if before_a.functor()? != ("is_before", 2) || before_b.functor()? != ("is_before", 2) || a[1] != v || b[0] != v {
        return None;
    }
    let window = PTerm::Compound("$window".into(), vec![a[0].clone(), b[1].clone()]);
    let head = substitute(clause.head.as_ref()?, &v, &window);
    Some(Clause { head: Some(head), body: None, ..clause.clone() })
}

fn substitute(t: &PTerm, v: &PTerm, by: &PTerm) -> PTerm {
    match t {
        _ if t == v => by.clone(),
        PTerm::Compound(f, args) => PTerm::Compound(f.clone(), args.iter().map(|a| substitute(a, v, by)).collect()),
        PTerm::List(items) => PTerm::List(items.iter().map(|a| substitute(a, v, by)).collect()),
        other => other.clone(),
    }
}

fn parse_date(s: &str) -> Option<NaiveDate> {
    let d = NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()?;
    (s.len() == 10).then_some(d)
}

/// `YYYY-MM-DD` in shape, whether or not such a day exists.
fn looks_like_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10 && b.iter().enumerate().all(|(i, c)| if i == 4 || i == 7 { *c == b'-' } else { c.is_ascii_digit() })
}

/// A resolved Prolog term as a ground IR term.
fn to_term(t: &PTerm) -> std::result::Result<Term, String> {
    Ok(match t {
        PTerm::Var(_) => Term::Any,
        PTerm::Compound(f, args) if f == "$window" => {
            let date = |t: &PTerm| match t {
                PTerm::Str(s) | PTerm::Atom(s) => parse_date(s),
                _ => None,
            };
            match (date(&args[0]), date(&args[1])) {
                (Some(after), Some(before)) => Term::Window { after, before },
                _ => return Err(format!("date window bounds are not dates: {t}")),
            }
        }
        other => Term::Value(to_value(other)?),
    })
}

fn to_value(t: &PTerm) -> std::result::Result<Value, String> {
    Ok(match t {
        PTerm::Atom(a) => Value::Name(a.clone()),
        PTerm::Str(s) if looks_like_date(s) => Value::Date(parse_date(s).ok_or_else(|| format!("\"{s}\" is no date of the calendar"))?),
        PTerm::Str(s) => Value::Text(s.clone()),
        PTerm::Int(i) => Value::Int(*i),
        PTerm::List(items) => Value::List(items.iter().map(to_value).collect::<std::result::Result<_, _>>()?),
        PTerm::Var(_) => return Err("a list holds an unbound variable".into()),
        PTerm::Compound(..) => return Err(format!("unsupported term {t}")),
    })
}

/// Resolved heads of `clause`, with its first arguments preset.
fn ground_clause(program: &Program, clause: &Clause, presets: &[PTerm]) -> std::result::Result<Vec<PTerm>, EvalError> {
    let mut m = Machine::new(program, STEP_BUDGET);
    let base = m.fresh(clause.nvars());
    let head = offset(clause.head.as_ref().expect("output clauses have heads"), base);
    let mut goal = clause.body.as_ref().map_or(PTerm::Atom("true".into()), |b| offset(b, base));
    for (arg, preset) in head.args().iter().zip(presets) {
        goal = PTerm::Compound(",".into(), vec![PTerm::Compound("=".into(), vec![arg.clone(), preset.clone()]), goal]);
    }
    let mut out = Vec::new();
    m.solve(goal, &mut |m| {
        out.push(m.resolve(&head));
        Ok(false)
    })?;
    Ok(out)
}

/// Evaluates the facts section into ground facts, in clause order.
fn ground_facts(file: &str, clauses: &[Clause]) -> Result<Vec<GroundFact>> {
    let mut calls = HashSet::new();
    for c in clauses.iter().filter(|c| c.head.is_some()) {
        if let Some(b) = &c.body {
            called(b, &mut calls);
        }
    }
    let mut outputs = Vec::new();
    let mut rules = Vec::new();
    for c in clauses {
        let Some(head) = &c.head else {
            let body = c.body.as_ref().expect("directives have a body");
            match body.functor() {
                Some(("discontiguous", 1)) => {}
                _ if matches!(body, PTerm::List(_)) => {}
                _ => return Err(unsupported(file, c.line, format!("unsupported directive :- {body}"))),
            }
            continue;
        };
        let Some((name, arity)) = head.functor() else {
            return Err(unsupported(file, c.line, format!("{head} is not a fact")));
        };
        let c = window_fact(c).unwrap_or_else(|| c.clone());
        match classify(file, c.line, name, arity)? {
            HeadKind::Helper if !calls.contains(&(name.to_string(), arity)) && c.body.is_some() => {
                tracing::debug!("{file}:{}: rule for {name}/{arity} is used by no other rule", c.line);
            }
            HeadKind::Helper if !calls.contains(&(name.to_string(), arity)) => {
                return Err(unsupported(
                    file,
                    c.line,
                    format!("unknown predicate {name}/{arity}: not an event type, role or section, and used by no rule"),
                ))
            }
            HeadKind::Helper => rules.push(c),
            kind => {
                outputs.push((kind, c.clone()));
                rules.push(c);
            }
        }
    }
    let program = Program::new(&rules);
    let eval_err = |c: &Clause, e: EvalError| unsupported(file, c.line, e.to_string());

    // First pass: clauses that evaluate on their own; the rest need the
    // event they describe bound (SARA's split_string rules).
    let mut heads: Vec<Option<Vec<PTerm>>> = Vec::new();
    for (_, c) in &outputs {
        match ground_clause(&program, c, &[]) {
            Ok(h) => heads.push(Some(h)),
            Err(EvalError::Instantiation(_)) => heads.push(None),
            Err(e) => return Err(eval_err(c, e)),
        }
    }
    let mut ids: Vec<PTerm> = Vec::new();
    let mut seen_ids = HashSet::new();
    for ((kind, _), h) in outputs.iter().zip(&heads) {
        if let (HeadKind::Type(_), Some(h)) = (kind, h) {
            for t in h {
                if let Some(id @ PTerm::Atom(_)) = t.args().first() {
                    if seen_ids.insert(id.clone()) {
                        ids.push(id.clone());
                    }
                }
            }
        }
    }
    for (i, (_, c)) in outputs.iter().enumerate() {
        if heads[i].is_some() {
            continue;
        }
        let mut all = Vec::new();
        for id in &ids {
            match ground_clause(&program, c, std::slice::from_ref(id)) {
                Ok(h) => all.extend(h),
                Err(EvalError::Instantiation(_)) => {
                    for id2 in &ids {
                        all.extend(ground_clause(&program, c, &[id.clone(), id2.clone()]).map_err(|e| eval_err(c, e))?);
                    }
                }
                Err(e) => return Err(eval_err(c, e)),
            }
        }
        heads[i] = Some(all);
    }

    let mut facts = Vec::new();
    let mut seen = HashSet::new();
    for ((kind, c), h) in outputs.iter().zip(heads) {
        for head in h.unwrap_or_default() {
            let args: Vec<Term> = head
                .args()
                .iter()
                .map(to_term)
                .collect::<std::result::Result<_, _>>()
                .map_err(|m| unsupported(file, c.line, m))?;
            let fact = match kind {
                HeadKind::Type(k) => GroundFact::Type { kind: *k, id: args[0].clone() },
                HeadKind::Role(r) => GroundFact::Role { event: args[0].clone(), role: *r, value: args[1].clone() },
                HeadKind::Assert(p) => GroundFact::Assert { pred: p.clone(), args },
                HeadKind::Helper => unreachable!("helpers are not outputs"),
            };
            if let GroundFact::Type { id, .. } | GroundFact::Role { event: id, .. } = &fact {
                if !matches!(id, Term::Any | Term::Value(Value::Name(_))) {
                    return Err(unsupported(file, c.line, format!("event id {id:?} is not a name")));
                }
            }
            if seen.insert(fact.clone()) {
                facts.push(fact);
            }
        }
    }
    Ok(facts)
}

/// A query argument: named variables stay variables, `_` is open.
fn query_term(t: &PTerm, clause: &Clause) -> std::result::Result<Term, String> {
    match t {
        PTerm::Var(v) => {
            let name = &clause.var_names[*v as usize];
            Ok(if name.starts_with('_') { Term::Any } else { Term::Var(name.clone()) })
        }
        other => to_term(other),
    }
}

fn conjuncts(t: &PTerm, out: &mut Vec<PTerm>) {
    match t.functor() {
        Some((",", 2)) => {
            conjuncts(&t.args()[0], out);
            conjuncts(&t.args()[1], out);
        }
        _ => out.push(t.clone()),
    }
}

fn parse_query(file: &str, clauses: &[Clause], answer: Answer) -> Result<Query> {
    let tests: Vec<&Clause> = clauses
        .iter()
        .filter(|c| !(c.head.is_none() && c.body.as_ref().and_then(PTerm::functor) == Some(("halt", 0))))
        .collect();
    let [test] = tests.as_slice() else {
        let line = tests.get(1).map_or(0, |c| c.line);
        return Err(syntax(file, line, format!("expected one test directive, found {}", tests.len())));
    };
    let line = test.line;
    let (Some(body), None) = (&test.body, &test.head) else {
        return Err(syntax(file, line, "the test must be a directive `:- Goal.`"));
    };
    let (negated, goal) = match body.functor() {
        Some(("\\+", 1)) => (true, &body.args()[0]),
        _ => (false, body),
    };
    let mut parts = Vec::new();
    conjuncts(goal, &mut parts);
    let term = |t: &PTerm| query_term(t, test).map_err(|m| unsupported(file, line, m));
    let var = |t: &PTerm| match term(t)? {
        Term::Var(v) => Ok(v),
        other => Err(unsupported(file, line, format!("expected a variable, found {other:?}"))),
    };
    if let [single] = parts.as_slice() {
        if single.functor() == Some(("tax", 3)) {
            let a = single.args();
            let (PTerm::Atom(person), PTerm::Int(year), PTerm::Int(amount)) = (&a[0], &a[1], &a[2]) else {
                return Err(unsupported(file, line, "tax/3 needs a person, a year and an amount"));
            };
            if negated || answer != Answer::Dollars(*amount) {
                return Err(DataError::Case {
                    file: file.into(),
                    message: format!("test tax({person},{year},{amount}) disagrees with the answer {answer}"),
                });
            }
            return Ok(Query::Tax { person: person.clone(), year: *year });
        }
    }
    let expected = if negated { Answer::Contradiction } else { Answer::Entailment };
    if answer != expected {
        return Err(DataError::Case {
            file: file.into(),
            message: format!("the test is {}negated but the answer is {answer}", if negated { "" } else { "not " }),
        });
    }
    let mut goals = Vec::new();
    for p in &parts {
        let Some((name, arity)) = p.functor() else {
            return Err(unsupported(file, line, format!("unsupported goal {p}")));
        };
        let a = p.args();
        goals.push(match (name, arity) {
            ("var", 1) => Goal::Unbound { var: var(&a[0])? },
            ("first_day_year", 2) => match &a[0] {
                PTerm::Int(year) => Goal::FirstDay { year: *year, var: var(&a[1])? },
                _ => return Err(unsupported(file, line, "first_day_year needs a year")),
            },
            ("is_before", 2) => Goal::Before { left: term(&a[0])?, right: term(&a[1])? },
            _ => match Predicate::parse(name) {
                Some(pred) if pred != Predicate::Aux(Aux::Tax) => Goal::Holds(Assertion {
                    pred,
                    args: a.iter().map(term).collect::<Result<_>>()?,
                }),
                _ => return Err(unsupported(file, line, format!("unsupported goal {name}/{arity}"))),
            },
        });
    }
    Ok(Query::Holds { goals })
}

/// Parses a case from its source; `file` names it in errors.
pub fn parse_case(id: &str, file: &str, source: &str) -> Result<Case> {
    let (source, corrections) = errata::apply(id, source);
    let sections = split_sections(file, &source)?;
    let (question, answer) = parse_question(file, &sections.question)?;
    let kind = match answer {
        Answer::Dollars(_) => CaseKind::Tax,
        _ => CaseKind::Entailment,
    };
    let clauses = parse_clauses(&sections.facts.1, file, sections.facts.0)?;
    let ground = ground_facts(file, &clauses)?;
    let facts = fold(&ground);
    let mut want = ground.clone();
    want.sort();
    let got = fact_set(&facts).map_err(|e| DataError::Case { file: file.into(), message: e.to_string() })?;
    if got != want {
        return Err(DataError::Case {
            file: file.into(),
            message: "internal error: folded facts do not unroll to the source facts".into(),
        });
    }
    let test = parse_clauses(&sections.test.1, file, sections.test.0)?;
    let query = parse_query(file, &test, answer)?;
    Ok(Case {
        id: id.to_string(),
        kind,
        text: sections.text.join(" "),
        question,
        answer,
        ir: CaseIr { facts, query: Some(query) },
        prolog_facts: format!("{}{}", sections.facts.1.trim(), sections.test.1.trim_end()),
        corrections,
    })
}

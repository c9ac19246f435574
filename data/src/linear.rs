//! The linear text form of the IR, the parser's seq2seq target.
//!
//! One fact per line; a `for` group opens a block:
//!
//! ```text
//! payment e1 agent=jail patient=alice purpose=e2 amount=1200 start=2019-05-05
//! s151_c alice _ 2000 2015
//! for Y in 2017..2117 {
//!   payment e3_{Y} agent=bob amount=1 start=first_day(Y) end=last_day(Y)
//! }
//! query s7703_b_3 alice _ e4 2018
//! ```
//!
//! A line starts with an event type (`event` when the type is stated
//! elsewhere), a predicate, `for`, `}` or `query`. Terms: names
//! (`alice`, `'two words'`, `e3_{Y}` splices a variable), `"text"`,
//! integers, ISO dates, `[lists]`, `_`, variables (`Y`), `first_day(Y)`,
//! `last_day(Y)` and `within(after,before)` (a date strictly between, or
//! none). A query joins goals with `&`: a predicate with arguments,
//! `unbound V`, `first_day YEAR V`, `before A B`, or `tax PERSON YEAR`.
//!
//! [`canonical_ids`] renames event ids to `e1`, `e2`, … in order of first
//! appearance, so the parser never invents names the text does not give.

use crate::error::{DataError, Result};
use crate::ir::*;
use crate::vocab::{Aux, EventKind, Role};
use chrono::NaiveDate;
use std::collections::HashMap;
use std::fmt::Write;

// ---------------------------------------------------------------- printing

/// Prints facts and query, one line each.
pub fn print(ir: &CaseIr) -> String {
    let mut out = String::new();
    print_facts(&ir.facts, 0, &mut out);
    if let Some(q) = &ir.query {
        out.push_str("query ");
        print_query(q, &mut out);
        out.push('\n');
    }
    out
}

fn print_facts(facts: &[Fact], depth: usize, out: &mut String) {
    for fact in facts {
        out.push_str(&"  ".repeat(depth));
        match fact {
            Fact::Event(e) => {
                out.push_str(e.kind.map_or("event", EventKind::as_str));
                out.push(' ');
                print_term(&e.id, out);
                for (role, t) in &e.roles {
                    let _ = write!(out, " {role}=");
                    print_term(t, out);
                }
            }
            Fact::Assert(a) => print_assertion(a, out),
            Fact::ForEach(fe) => {
                let _ = write!(out, "for {} in ", fe.var);
                match &fe.domain {
                    Domain::Range { from, to } => {
                        let _ = write!(out, "{from}..{to}");
                    }
                    Domain::List { values } => print_list(values, out),
                }
                out.push_str(" {\n");
                print_facts(&fe.body, depth + 1, out);
                out.push_str(&"  ".repeat(depth));
                out.push('}');
            }
        }
        out.push('\n');
    }
}

fn print_assertion(a: &Assertion, out: &mut String) {
    out.push_str(a.pred.as_str());
    for t in &a.args {
        out.push(' ');
        print_term(t, out);
    }
}

fn print_query(q: &Query, out: &mut String) {
    match q {
        Query::Tax { person, year } => {
            out.push_str("tax ");
            print_name(&[Part::Lit(person.clone())], out);
            let _ = write!(out, " {year}");
        }
        Query::Holds { goals } => {
            for (i, g) in goals.iter().enumerate() {
                if i > 0 {
                    out.push_str(" & ");
                }
                match g {
                    Goal::Holds(a) => print_assertion(a, out),
                    Goal::Unbound { var } => {
                        let _ = write!(out, "unbound {var}");
                    }
                    Goal::FirstDay { year, var } => {
                        let _ = write!(out, "first_day {year} {var}");
                    }
                    Goal::Before { left, right } => {
                        out.push_str("before ");
                        print_term(left, out);
                        out.push(' ');
                        print_term(right, out);
                    }
                }
            }
        }
    }
}

fn print_list(values: &[Value], out: &mut String) {
    out.push('[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        print_value(v, out);
    }
    out.push(']');
}

/// A value as the linear form writes it (`alice`, `'two words'`, `"text"`,
/// `1200`, `2017-01-01`, `[a, b]`).
pub fn value_text(v: &Value) -> String {
    let mut out = String::new();
    print_value(v, &mut out);
    out
}

/// A term as the linear form writes it (`bob_pays_{Y}`, `_`, `first_day(Y)`).
pub fn term_text(t: &Term) -> String {
    let mut out = String::new();
    print_term(t, &mut out);
    out
}

fn print_value(v: &Value, out: &mut String) {
    match v {
        Value::Name(n) => print_name(&[Part::Lit(n.clone())], out),
        Value::Text(s) => {
            out.push('"');
            for c in s.chars() {
                match c {
                    '"' | '\\' => {
                        out.push('\\');
                        out.push(c);
                    }
                    '\n' => out.push_str("\\n"),
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Date(d) => {
            let _ = write!(out, "{}", d.format("%Y-%m-%d"));
        }
        Value::List(items) => print_list(items, out),
    }
}

fn is_bare_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A name, bare when it is `[a-z][a-z0-9_]*` with `{V}` splices, else quoted.
fn print_name(parts: &[Part], out: &mut String) {
    let bare = parts.iter().all(|p| match p {
        Part::Lit(s) => !s.is_empty() && s.chars().all(is_bare_char),
        Part::Var(v) => is_var_name(v),
    }) && match parts.first() {
        Some(Part::Lit(s)) => s.starts_with(|c: char| c.is_ascii_lowercase()),
        Some(Part::Var(_)) => true,
        None => false,
    } && parts.windows(2).all(|w| !matches!(w, [Part::Lit(_), Part::Lit(_)]));
    if !bare {
        out.push('\'');
    }
    for p in parts {
        match p {
            Part::Lit(s) if bare => out.push_str(s),
            Part::Lit(s) => {
                for c in s.chars() {
                    if matches!(c, '\'' | '\\' | '{' | '}') {
                        out.push('\\');
                    }
                    out.push(c);
                }
            }
            Part::Var(v) => {
                let _ = write!(out, "{{{v}}}");
            }
        }
    }
    if !bare {
        out.push('\'');
    }
}

fn is_var_name(v: &str) -> bool {
    v.starts_with(|c: char| c.is_ascii_uppercase()) && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn print_term(t: &Term, out: &mut String) {
    match t {
        Term::Value(v) => print_value(v, out),
        Term::Any => out.push('_'),
        Term::Var(v) => out.push_str(v),
        Term::Concat(parts) => print_name(parts, out),
        Term::FirstDay(v) => {
            let _ = write!(out, "first_day({v})");
        }
        Term::LastDay(v) => {
            let _ = write!(out, "last_day({v})");
        }
        Term::Window { after, before } => {
            let _ = write!(out, "within({},{})", after.format("%Y-%m-%d"), before.format("%Y-%m-%d"));
        }
    }
}

// ----------------------------------------------------------------- reading

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// A bare or quoted name, possibly with `{V}` splices.
    Name(Vec<Part>, bool),
    Var(String),
    Text(String),
    Int(i64),
    Date(NaiveDate),
    Punct(&'static str),
    Newline,
}

fn lex(src: &str) -> Result<Vec<(Tok, usize)>> {
    let chars: Vec<char> = src.chars().collect();
    let mut i = 0;
    let mut line = 1;
    let mut out = Vec::new();
    let err = |line: usize, m: String| DataError::Linear { line, message: m };
    while i < chars.len() {
        let c = chars[i];
        let splice_at = |i: usize| {
            chars.get(i) == Some(&'{') && chars.get(i + 1).is_some_and(|c| c.is_ascii_uppercase())
        };
        if c == '\n' {
            out.push((Tok::Newline, line));
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_lowercase() || splice_at(i) {
            let mut parts = Vec::new();
            let mut lit = String::new();
            while i < chars.len() {
                if splice_at(i) {
                    let close = chars[i..].iter().position(|&c| c == '}').ok_or_else(|| err(line, "unclosed {".into()))?;
                    if !lit.is_empty() {
                        parts.push(Part::Lit(std::mem::take(&mut lit)));
                    }
                    parts.push(Part::Var(chars[i + 1..i + close].iter().collect()));
                    i += close + 1;
                } else if is_bare_char(chars[i]) {
                    lit.push(chars[i]);
                    i += 1;
                } else {
                    break;
                }
            }
            if !lit.is_empty() {
                parts.push(Part::Lit(lit));
            }
            out.push((Tok::Name(parts, false), line));
        } else if c.is_ascii_uppercase() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((Tok::Var(chars[start..i].iter().collect()), line));
        } else if c == '\'' || c == '"' {
            let quote = c;
            i += 1;
            let mut parts = Vec::new();
            let mut lit = String::new();
            loop {
                match chars.get(i) {
                    None | Some('\n') => return Err(err(line, "unterminated quote".into())),
                    Some(&q) if q == quote => {
                        i += 1;
                        break;
                    }
                    Some('\\') => {
                        let e = *chars.get(i + 1).ok_or_else(|| err(line, "unterminated escape".into()))?;
                        lit.push(if e == 'n' { '\n' } else { e });
                        i += 2;
                    }
                    Some('{') if quote == '\'' => {
                        let close = chars[i..].iter().position(|&c| c == '}').ok_or_else(|| err(line, "unclosed {".into()))?;
                        if !lit.is_empty() {
                            parts.push(Part::Lit(std::mem::take(&mut lit)));
                        }
                        parts.push(Part::Var(chars[i + 1..i + close].iter().collect()));
                        i += close + 1;
                    }
                    Some(&c) => {
                        lit.push(c);
                        i += 1;
                    }
                }
            }
            if quote == '"' {
                out.push((Tok::Text(lit), line));
            } else {
                if !lit.is_empty() || parts.is_empty() {
                    parts.push(Part::Lit(lit));
                }
                out.push((Tok::Name(parts, true), line));
            }
        } else if c.is_ascii_digit() || (c == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let is_date = i - start == 4 && chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if is_date {
                i += 1;
                while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '-') {
                    i += 1;
                }
                let text: String = chars[start..i].iter().collect();
                let d = NaiveDate::parse_from_str(&text, "%Y-%m-%d").map_err(|_| err(line, format!("invalid date {text}")))?;
                out.push((Tok::Date(d), line));
            } else {
                let text: String = chars[start..i].iter().collect();
                let n = text.parse().map_err(|_| err(line, format!("number out of range: {text}")))?;
                out.push((Tok::Int(n), line));
            }
        } else {
            let p = ["..", "{", "}", "[", "]", "(", ")", ",", "=", "&", "_"]
                .into_iter()
                .find(|p| chars[i..].starts_with(&p.chars().collect::<Vec<_>>()))
                .ok_or_else(|| err(line, format!("unexpected character {c:?}")))?;
            out.push((Tok::Punct(p), line));
            i += p.len();
        }
    }
    Ok(out)
}

struct Reader {
    toks: Vec<(Tok, usize)>,
    pos: usize,
}

impl Reader {
    fn line(&self) -> usize {
        self.toks.get(self.pos).or(self.toks.last()).map_or(1, |t| t.1)
    }
    fn err(&self, m: impl Into<String>) -> DataError {
        DataError::Linear { line: self.line(), message: m.into() }
    }
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.peek().cloned();
        self.pos += 1;
        t
    }
    fn eat(&mut self, p: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Punct(q)) if *q == p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, p: &str) -> Result<()> {
        if self.eat(p) {
            Ok(())
        } else {
            Err(self.err(format!("expected '{p}', found {}", self.found())))
        }
    }
    fn found(&self) -> String {
        match self.peek() {
            None => "the end".into(),
            Some(Tok::Newline) => "the end of the line".into(),
            Some(t) => format!("{t:?}"),
        }
    }
    fn at_line_end(&self) -> bool {
        matches!(self.peek(), None | Some(Tok::Newline))
    }
    fn end_line(&mut self) -> Result<()> {
        match self.next() {
            None | Some(Tok::Newline) => Ok(()),
            Some(t) => {
                self.pos -= 1;
                Err(self.err(format!("unexpected {t:?} at the end of the line")))
            }
        }
    }
    fn skip_blank(&mut self) {
        while self.peek() == Some(&Tok::Newline) {
            self.pos += 1;
        }
    }
    fn word(&mut self) -> Result<String> {
        match self.next() {
            Some(Tok::Name(parts, false)) if parts.len() == 1 => match &parts[0] {
                Part::Lit(s) => Ok(s.clone()),
                Part::Var(_) => Err(self.err("expected a word")),
            },
            _ => {
                self.pos -= 1;
                Err(self.err(format!("expected a word, found {}", self.found())))
            }
        }
    }
    fn var(&mut self) -> Result<String> {
        match self.next() {
            Some(Tok::Var(v)) => Ok(v),
            _ => {
                self.pos -= 1;
                Err(self.err(format!("expected a variable, found {}", self.found())))
            }
        }
    }
    fn int(&mut self) -> Result<i64> {
        match self.next() {
            Some(Tok::Int(i)) => Ok(i),
            _ => {
                self.pos -= 1;
                Err(self.err(format!("expected a number, found {}", self.found())))
            }
        }
    }

    fn value(&mut self) -> Result<Value> {
        match self.term()? {
            Term::Value(v) => Ok(v),
            other => Err(self.err(format!("expected a value, found {other:?}"))),
        }
    }

    fn term(&mut self) -> Result<Term> {
        let tok = self.next().ok_or_else(|| self.err("expected a term, found the end"))?;
        Ok(match tok {
            Tok::Punct("_") => Term::Any,
            Tok::Var(v) => Term::Var(v),
            Tok::Text(s) => Term::Value(Value::Text(s)),
            Tok::Int(i) => Term::int(i),
            Tok::Date(d) => Term::date(d),
            Tok::Punct("[") => {
                let mut items = Vec::new();
                if !self.eat("]") {
                    loop {
                        items.push(self.value()?);
                        if self.eat("]") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                Term::Value(Value::List(items))
            }
            Tok::Name(parts, quoted) => {
                let word = match parts.as_slice() {
                    [Part::Lit(w)] if !quoted => Some(w.as_str()),
                    _ => None,
                };
                match word {
                    Some(f @ ("first_day" | "last_day" | "within")) if self.eat("(") => {
                        let t = if f == "within" {
                            let after = self.date()?;
                            self.expect(",")?;
                            Term::Window { after, before: self.date()? }
                        } else {
                            let v = self.var()?;
                            if f == "first_day" { Term::FirstDay(v) } else { Term::LastDay(v) }
                        };
                        self.expect(")")?;
                        t
                    }
                    _ => match parts.as_slice() {
                        [Part::Lit(s)] => Term::name(s.clone()),
                        [Part::Var(v)] if !quoted => Term::Var(v.clone()),
                        _ => Term::Concat(parts),
                    },
                }
            }
            other => {
                self.pos -= 1;
                return Err(self.err(format!("expected a term, found {other:?}")));
            }
        })
    }

    fn date(&mut self) -> Result<NaiveDate> {
        match self.next() {
            Some(Tok::Date(d)) => Ok(d),
            _ => {
                self.pos -= 1;
                Err(self.err(format!("expected a date, found {}", self.found())))
            }
        }
    }

    fn args(&mut self) -> Result<Vec<Term>> {
        let mut args = Vec::new();
        while !self.at_line_end() && !matches!(self.peek(), Some(Tok::Punct("&"))) {
            args.push(self.term()?);
        }
        Ok(args)
    }

    fn predicate(&mut self) -> Result<Predicate> {
        let w = self.word()?;
        Predicate::parse(&w).ok_or_else(|| {
            self.pos -= 1;
            self.err(format!("unknown predicate {w}"))
        })
    }

    /// Facts until the end of input, a `}` or a `query` line.
    fn facts(&mut self, in_block: bool) -> Result<Vec<Fact>> {
        let mut facts = Vec::new();
        loop {
            self.skip_blank();
            match self.peek() {
                None => return Ok(facts),
                Some(Tok::Punct("}")) if in_block => return Ok(facts),
                Some(Tok::Name(p, false)) if p == &[Part::Lit("query".into())] => return Ok(facts),
                _ => {}
            }
            facts.push(self.fact()?);
        }
    }

    fn fact(&mut self) -> Result<Fact> {
        let w = self.word()?;
        if w == "for" {
            let var = self.var()?;
            if self.word()? != "in" {
                self.pos -= 1;
                return Err(self.err("expected 'in'"));
            }
            let domain = match self.term()? {
                Term::Value(Value::Int(from)) => {
                    self.expect("..")?;
                    Domain::Range { from, to: self.int()? }
                }
                Term::Value(Value::List(values)) => Domain::List { values },
                other => return Err(self.err(format!("expected a range or list, found {other:?}"))),
            };
            self.expect("{")?;
            self.end_line()?;
            let body = self.facts(true)?;
            self.expect("}")?;
            self.end_line()?;
            return Ok(Fact::ForEach(ForEach { var, domain, body }));
        }
        let kind = match w.as_str() {
            "event" => Some(None),
            _ => EventKind::from_name(&w).map(Some),
        };
        if let Some(kind) = kind {
            let id = self.term()?;
            let mut roles = Vec::new();
            while !self.at_line_end() {
                let r = self.word()?;
                let role = Role::from_name(&r).ok_or_else(|| {
                    self.pos -= 1;
                    self.err(format!("unknown role {r}"))
                })?;
                self.expect("=")?;
                roles.push((role, self.term()?));
            }
            self.end_line()?;
            return Ok(Fact::Event(Event { kind, id, roles }));
        }
        self.pos -= 1;
        let pred = self.predicate()?;
        let args = self.args()?;
        self.end_line()?;
        Ok(Fact::Assert(Assertion { pred, args }))
    }

    fn query(&mut self) -> Result<Query> {
        if matches!(self.peek(), Some(Tok::Name(p, false)) if p == &[Part::Lit("tax".into())]) {
            self.pos += 1;
            let person = match self.term()? {
                Term::Value(Value::Name(n)) => n,
                other => return Err(self.err(format!("expected a person, found {other:?}"))),
            };
            let year = self.int()?;
            return Ok(Query::Tax { person, year });
        }
        let mut goals = Vec::new();
        loop {
            let goal = match self.peek() {
                Some(Tok::Name(p, false)) if p == &[Part::Lit("unbound".into())] => {
                    self.pos += 1;
                    Goal::Unbound { var: self.var()? }
                }
                Some(Tok::Name(p, false)) if p == &[Part::Lit("first_day".into())] => {
                    self.pos += 1;
                    let year = self.int()?;
                    Goal::FirstDay { year, var: self.var()? }
                }
                Some(Tok::Name(p, false)) if p == &[Part::Lit("before".into())] => {
                    self.pos += 1;
                    let left = self.term()?;
                    Goal::Before { left, right: self.term()? }
                }
                _ => {
                    let pred = self.predicate()?;
                    if pred == Predicate::Aux(Aux::Tax) {
                        return Err(self.err("tax is asked alone: `query tax PERSON YEAR`"));
                    }
                    Goal::Holds(Assertion { pred, args: self.args()? })
                }
            };
            goals.push(goal);
            if !self.eat("&") {
                return Ok(Query::Holds { goals });
            }
        }
    }
}

/// Reads the linear form back into the IR.
pub fn parse(text: &str) -> Result<CaseIr> {
    let mut r = Reader { toks: lex(text)?, pos: 0 };
    let facts = r.facts(false)?;
    if r.peek().is_some() && r.word()? == "query" {
        let query = r.query()?;
        r.end_line()?;
        r.skip_blank();
        if r.peek().is_some() {
            return Err(r.err("nothing may follow the query"));
        }
        return Ok(CaseIr { facts, query: Some(query) });
    }
    if r.peek().is_some() {
        return Err(r.err("unexpected '}'"));
    }
    Ok(CaseIr { facts, query: None })
}

// ------------------------------------------------------------ canonical ids

/// Renames every event id (the id of an event line, also where it is
/// spliced into a group's names) to `e1`, `e2`, … in order of first
/// appearance, consistently in the facts and the query. Participants that
/// are not event ids (people, places) keep their names.
pub fn canonical_ids(ir: &CaseIr) -> CaseIr {
    let mut map: HashMap<Vec<Part>, Vec<Part>> = HashMap::new();
    collect_ids(&ir.facts, &mut map);
    let mut out = ir.clone();
    rename_facts(&mut out.facts, &map);
    if let Some(Query::Holds { goals }) = &mut out.query {
        for g in goals {
            match g {
                Goal::Holds(a) => a.args.iter_mut().for_each(|t| rename_term(t, &map)),
                Goal::Before { left, right } => {
                    rename_term(left, &map);
                    rename_term(right, &map);
                }
                _ => {}
            }
        }
    }
    out
}

fn id_parts(t: &Term) -> Option<Vec<Part>> {
    match t {
        Term::Value(Value::Name(n)) => Some(vec![Part::Lit(n.clone())]),
        Term::Concat(parts) => Some(parts.clone()),
        _ => None,
    }
}

fn collect_ids(facts: &[Fact], map: &mut HashMap<Vec<Part>, Vec<Part>>) {
    for f in facts {
        match f {
            Fact::Event(e) => {
                if let Some(parts) = id_parts(&e.id) {
                    if !map.contains_key(&parts) {
                        let mut new = vec![Part::Lit(format!("e{}", map.len() + 1))];
                        // Keep the splices so that a group's ids stay distinct.
                        for v in parts.iter().filter(|p| matches!(p, Part::Var(_))) {
                            new.push(Part::Lit("_".into()));
                            new.push(v.clone());
                        }
                        map.insert(parts, merge_lits(new));
                    }
                }
            }
            Fact::ForEach(fe) => collect_ids(&fe.body, map),
            Fact::Assert(_) => {}
        }
    }
}

fn merge_lits(parts: Vec<Part>) -> Vec<Part> {
    let mut out: Vec<Part> = Vec::new();
    for p in parts {
        match (out.last_mut(), p) {
            (Some(Part::Lit(a)), Part::Lit(b)) => a.push_str(&b),
            (_, p) => out.push(p),
        }
    }
    out
}

fn rename_term(t: &mut Term, map: &HashMap<Vec<Part>, Vec<Part>>) {
    let Some(parts) = id_parts(t) else { return };
    if let Some(new) = map.get(&parts) {
        *t = match new.as_slice() {
            [Part::Lit(s)] => Term::name(s.clone()),
            _ => Term::Concat(new.clone()),
        };
        return;
    }
    // A ground name of one member of a group: `alice_pays_bob` against
    // `alice_pays_{X}` becomes `e2_bob`.
    let [Part::Lit(name)] = parts.as_slice() else { return };
    for (template, new) in map {
        if let Some(filled) = match_template(template, name).and_then(|value| fill(new, &value)) {
            *t = Term::name(filled);
            return;
        }
    }
}

/// The text spliced for the single variable of `template` to give `name`.
fn match_template(template: &[Part], name: &str) -> Option<String> {
    let (prefix, suffix) = match template {
        [Part::Var(_)] => ("", ""),
        [Part::Lit(p), Part::Var(_)] => (p.as_str(), ""),
        [Part::Var(_), Part::Lit(s)] => ("", s.as_str()),
        [Part::Lit(p), Part::Var(_), Part::Lit(s)] => (p.as_str(), s.as_str()),
        _ => return None,
    };
    let rest = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
    (!rest.is_empty()).then(|| rest.to_string())
}

fn fill(template: &[Part], value: &str) -> Option<String> {
    let mut out = String::new();
    for p in template {
        match p {
            Part::Lit(s) => out.push_str(s),
            Part::Var(_) => out.push_str(value),
        }
    }
    Some(out)
}

fn rename_facts(facts: &mut [Fact], map: &HashMap<Vec<Part>, Vec<Part>>) {
    for f in facts {
        match f {
            Fact::Event(e) => {
                rename_term(&mut e.id, map);
                e.roles.iter_mut().for_each(|(_, t)| rename_term(t, map));
            }
            Fact::Assert(a) => a.args.iter_mut().for_each(|t| rename_term(t, map)),
            Fact::ForEach(fe) => rename_facts(&mut fe.body, map),
        }
    }
}

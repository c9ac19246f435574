//! `lexlog variants --out DIR`: perturbed copies of SARA's case files, for
//! the parser and the joint pipeline on cases they have never seen. Each
//! case's people get names that neither SARA nor the training augmentation
//! uses, and its dollar amounts are scaled by a factor the augmentation
//! never applies (with `--years N`, every year and date moves N years too),
//! in the text, the question, the facts and the test alike.
//! A copy is written only where its facts read back as the original's with
//! the same substitution; its answer is the solver's on those facts.

use anyhow::{Context, Result};
use chrono::Datelike;
use lexlog_bridge::names::{map_words, rename_word};
use lexlog_data::{sara, ArgType, Answer, Case, CaseIr, Dataset, Domain, Fact, Goal, Query, Term, Value};
use lexlog_parser::people::CAST;
use lexlog_solver::{Prediction, Solver};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// (SARA's name, its copy's name) for the people of a case.
type Names = Vec<(String, String)>;
pub(crate) type Types = HashMap<(String, usize), Vec<ArgType>>;

/// What a copy changes.
pub(crate) struct Substitution {
    names: Names,
    amounts: BTreeMap<i64, i64>,
    /// Years every year and date moves by.
    years: i64,
}

/// The numbers that can be years (a century-long series ends in 2117).
const YEARS: std::ops::RangeInclusive<i64> = 1800..=2200;

impl Substitution {
    /// Years and dates moved, nothing else.
    pub(crate) fn years(years: i64) -> Substitution {
        Substitution { names: Vec::new(), amounts: BTreeMap::new(), years }
    }
    fn is_empty(&self) -> bool {
        self.names.is_empty() && self.amounts.is_empty() && self.years == 0
    }
    /// A number's new value: an amount scaled, else a year moved.
    fn number(&self, n: i64, year: bool) -> i64 {
        match self.amounts.get(&n) {
            Some(new) => *new,
            None if year && YEARS.contains(&n) => n + self.years,
            None => n,
        }
    }
}

#[derive(clap::Args)]
pub struct VariantsArgs {
    /// Cases of this split.
    #[arg(long, value_enum, default_value = "test")]
    split: crate::solve_cmd::SplitArg,
    /// Where the case files go (created; files of the same name replaced).
    #[arg(long)]
    out: PathBuf,
    /// Move every year and date by this many years too (a multiple of 4
    /// keeps February 29th).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    years: i64,
}

/// The names SARA's people (`CAST`, in its order) get in their copies: none
/// of SARA's, nor of the augmentation's renames.
const NEW_NAMES: [&str; 10] = ["Nadia", "Kofi", "Lars", "Mei", "Jonas", "Elif", "Tomas", "Ines", "Ravi", "Sofia"];
/// Percentages dollar amounts are scaled by, by turns.
const FACTORS: [i64; 2] = [93, 107];

/// The dollar amounts a text spells ("$1,200" -> 1200), over $100.
fn dollar_amounts(text: &str) -> Vec<i64> {
    text.split('$')
        .skip(1)
        .filter_map(|rest| rest.chars().take_while(|c| c.is_ascii_digit() || *c == ',').filter(char::is_ascii_digit).collect::<String>().parse().ok())
        .filter(|n| *n > 100)
        .collect()
}

/// The case's people as they appear, each with its new name.
fn name_map(source: &str) -> Names {
    let words: std::collections::HashSet<String> = source.split(|c: char| !c.is_alphanumeric()).map(str::to_lowercase).collect();
    CAST.iter().zip(NEW_NAMES).filter(|(p, _)| words.contains(&p.to_lowercase())).map(|(p, n)| (p.to_lowercase(), n.to_string())).collect()
}

fn is_header(line: &str) -> bool {
    line.starts_with('%') && ["Text", "Question", "Facts", "Test"].contains(&line.trim_start_matches('%').trim())
}

/// The case file with the substitution made: in its comments (text and
/// question) the amounts spelled with `$` and the years, in its clauses
/// every number that is an amount or a year.
fn substitute(source: &str, sub: &Substitution) -> String {
    let rename = |w: &str| rename_word(w, &sub.names);
    let number = |w: &str| match w.parse::<i64>() {
        // "09" of a date stays "09".
        Ok(n) if w.chars().all(|c| c.is_ascii_digit()) && sub.number(n, true) != n => sub.number(n, true).to_string(),
        _ => move_name_years(&rename(w), sub.years),
    };
    source
        .split_inclusive('\n')
        .map(|line| match line {
            _ if is_header(line) => line.to_string(),
            _ if line.starts_with('%') => map_words(&move_spelled_years(&scale_dollars(line, &sub.amounts), sub.years), rename),
            _ => map_words(line, number),
        })
        .collect()
}

/// The four-digit years of a text line moved by `years` (an amount's digits,
/// after `$`, stay).
pub(crate) fn move_spelled_years(line: &str, years: i64) -> String {
    if years == 0 {
        return line.to_string();
    }
    let mut out = String::new();
    let mut rest = line;
    let mut prev = ' ';
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        prev = rest[..start].chars().last().unwrap_or(prev);
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let len = rest.find(|c: char| !c.is_alphanumeric()).unwrap_or(rest.len());
        let word = &rest[..len];
        match word.parse::<i64>() {
            Ok(n) if word.len() == 4 && YEARS.contains(&n) && prev != '$' => out.push_str(&(n + years).to_string()),
            _ => out.push_str(word),
        }
        prev = word.chars().last().unwrap_or(prev);
        rest = &rest[len..];
    }
    out.push_str(rest);
    out
}

/// A name's year parts moved (`alice_income_2019`): a series' names are
/// built from its years.
fn move_name_years(name: &str, years: i64) -> String {
    if years == 0 || !name.contains('_') {
        return name.to_string();
    }
    let part = |p: &str| match p.parse::<i64>() {
        Ok(n) if p.len() == 4 && YEARS.contains(&n) => (n + years).to_string(),
        _ => p.to_string(),
    };
    name.split('_').map(part).collect::<Vec<_>>().join("_")
}

/// "$1,200" as "$1284" where 1200 is scaled to 1284.
fn scale_dollars(line: &str, amounts: &BTreeMap<i64, i64>) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let mut len = rest.find(|c: char| !(c.is_ascii_digit() || c == ',')).unwrap_or(rest.len());
        // A comma that ends a clause is no part of the amount.
        while rest[..len].ends_with(',') {
            len -= 1;
        }
        let digits: String = rest[..len].chars().filter(char::is_ascii_digit).collect();
        match digits.parse::<i64>().ok().and_then(|n| amounts.get(&n)) {
            Some(new) => out.push_str(&new.to_string()),
            None => out.push_str(&rest[..len]),
        }
        rest = &rest[len..];
    }
    out.push_str(rest);
    out
}

/// Numbers a text spells without `$`.
fn bare_numbers(text: &str) -> Vec<i64> {
    let mut out = Vec::new();
    map_words(text, |w| {
        out.extend(w.parse::<i64>().ok());
        w.to_string()
    });
    let dollars = dollar_amounts(text);
    out.retain(|n| !dollars.contains(n));
    out
}

fn substitute_value(v: &mut Value, names: &Names, amounts: &BTreeMap<i64, i64>) {
    match v {
        Value::Name(n) => *n = rename_word(n, names),
        Value::Text(s) => *s = map_words(s, |w| rename_word(w, names)),
        Value::Int(n) => *n = amounts.get(n).copied().unwrap_or(*n),
        Value::List(vs) => vs.iter_mut().for_each(|v| substitute_value(v, names, amounts)),
        Value::Date(_) => {}
    }
}

/// A date moved by `years`; `None` for a February 29th moved off a leap year.
fn move_date(d: chrono::NaiveDate, years: i64) -> Result<chrono::NaiveDate, String> {
    d.with_year(d.year() + years as i32).ok_or_else(|| format!("{d} moved {years} years is no date"))
}

fn move_value(v: &mut Value, sub: &Substitution, year: bool) -> Result<(), String> {
    match v {
        Value::Date(d) => *d = move_date(*d, sub.years)?,
        Value::Int(n) if !sub.amounts.contains_key(n) => *n = sub.number(*n, year),
        Value::List(vs) => vs.iter_mut().try_for_each(|v| move_value(v, sub, year))?,
        _ => {}
    }
    Ok(())
}

fn move_term(t: &mut Term, sub: &Substitution, year: bool) -> Result<(), String> {
    match t {
        Term::Value(v) => move_value(v, sub, year),
        Term::Window { after, before } => {
            *after = move_date(*after, sub.years)?;
            *before = move_date(*before, sub.years)?;
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The years and dates of facts and query moved: dates, a range of years,
/// and the numbers of places the rules read years in.
pub(crate) fn move_years(ir: &mut CaseIr, types: &Types, sub: &Substitution) -> Result<(), String> {
    fn args(a: &mut lexlog_data::Assertion, types: &Types, sub: &Substitution) -> Result<(), String> {
        let ts = types.get(&(a.pred.as_str().to_string(), a.args.len())).map_or(&[][..], Vec::as_slice);
        for (i, t) in a.args.iter_mut().enumerate() {
            move_term(t, sub, ts.get(i).is_some_and(|t| t.contains(ArgType::YEAR)))?;
        }
        Ok(())
    }
    fn facts(fs: &mut [Fact], types: &Types, sub: &Substitution) -> Result<(), String> {
        for f in fs {
            match f {
                Fact::Event(ev) => ev.roles.iter_mut().try_for_each(|(_, t)| move_term(t, sub, false))?,
                Fact::Assert(a) => args(a, types, sub)?,
                Fact::ForEach(fe) => {
                    match &mut fe.domain {
                        Domain::Range { from, to } if YEARS.contains(from) => {
                            *from += sub.years;
                            *to += sub.years;
                        }
                        Domain::List { values } => values.iter_mut().try_for_each(|v| move_value(v, sub, true))?,
                        Domain::Range { .. } => {}
                    }
                    facts(&mut fe.body, types, sub)?;
                }
            }
        }
        Ok(())
    }
    if sub.years == 0 {
        return Ok(());
    }
    facts(&mut ir.facts, types, sub)?;
    match &mut ir.query {
        Some(Query::Tax { year, .. }) => *year += sub.years,
        Some(Query::Holds { goals }) => {
            for g in goals {
                match g {
                    Goal::Holds(a) => args(a, types, sub)?,
                    Goal::FirstDay { year, .. } => *year += sub.years,
                    Goal::Before { left, right } => {
                        move_term(left, sub, false)?;
                        move_term(right, sub, false)?;
                    }
                    Goal::Unbound { .. } => {}
                }
            }
        }
        None => {}
    }
    Ok(())
}

/// The original facts and query under the same substitution.
fn expected(ir: &CaseIr, types: &Types, sub: &Substitution) -> Result<CaseIr, String> {
    let mut ir = ir.clone();
    move_years(&mut ir, types, sub)?;
    let (names, amounts) = (&sub.names, &sub.amounts);
    ir.for_each_term_mut(&mut |t| match t {
        Term::Value(Value::Name(n)) => *n = move_name_years(&rename_word(n, names), sub.years),
        Term::Value(v) => substitute_value(v, names, amounts),
        Term::Concat(parts) => parts.iter_mut().for_each(|p| {
            if let lexlog_data::Part::Lit(s) = p {
                *s = rename_word(s, names);
            }
        }),
        _ => {}
    });
    Ok(ir)
}

/// The question's answer, and the test that checks it, made `answer`:
/// the test negated for a contradiction, the tax it names the new one.
fn with_answer(source: &str, answer: Answer) -> String {
    let mut out = String::new();
    let mut section = "";
    // The test's first clause, gathered over its lines up to its full stop.
    let mut clause = String::new();
    for line in source.split_inclusive('\n') {
        if is_header(line) {
            section = if line.contains("Question") { "question" } else if line.contains("Test") { "test" } else { "" };
            out.push_str(line);
            continue;
        }
        let body = line.trim_end();
        match section {
            "question" if body.len() > 1 => {
                let cut = body.rfind(' ').map_or(body.len(), |i| i + 1);
                out.push_str(&format!("{}{answer}\n", &body[..cut]));
                section = "";
            }
            "test" if (!clause.is_empty() || body.starts_with(":-")) && body != ":- halt." => {
                clause.push_str(body.trim());
                clause.push(' ');
                if body.ends_with('.') {
                    out.push_str(&test_clause(clause.trim(), answer));
                    out.push('\n');
                    section = "";
                }
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// `:- goals.` made to check `answer`: negated, `\+ (goals)`, for a
/// contradiction; for a tax, the amount `tax(P, Y, N)` names made the new one.
fn test_clause(clause: &str, answer: Answer) -> String {
    let mut goals = clause.trim_start_matches(":-").trim().trim_end_matches('.').trim();
    if let Some(rest) = goals.strip_prefix("\\+") {
        goals = rest.trim();
        if goals.starts_with('(') && goals.ends_with(')') {
            goals = goals[1..goals.len() - 1].trim();
        }
    }
    let goals = match answer {
        Answer::Dollars(d) => match goals.rfind(',') {
            Some(at) => format!("{},{d})", &goals[..at]),
            None => goals.to_string(),
        },
        _ => goals.to_string(),
    };
    match answer {
        Answer::Contradiction => format!(":- \\+ ({goals})."),
        _ => format!(":- {goals}."),
    }
}

/// A case's copy: its id, its file, its answer.
struct Copy {
    id: String,
    text: String,
    answer: Answer,
}

/// One case's copy, or why there is none.
fn variant(case: &Case, index: usize, raw: &str, years: i64, solver: &Solver, types: &Types) -> Result<Copy, String> {
    let (source, _) = lexlog_data::errata::apply(&case.id, raw);
    let names = name_map(&source);
    let factor = FACTORS[index % FACTORS.len()];
    let text_amounts: Vec<i64> = dollar_amounts(&case.text).into_iter().chain(dollar_amounts(&case.question)).collect();
    let mut scaled: BTreeMap<i64, i64> = text_amounts.iter().map(|&n| (n, n * factor / 100)).collect();
    // An amount the text also spells bare ("3200 dollars", a year) stays,
    // and so, where years move, does one that could be a year.
    let bare = bare_numbers(&format!("{} {}", case.text, case.question));
    let year_like = |n: &i64| years != 0 && YEARS.contains(n);
    if scaled.keys().any(|n| bare.contains(n) || year_like(n)) || scaled.values().any(|n| scaled.contains_key(n) || bare.contains(n) || year_like(n)) {
        scaled.clear();
    }
    let id = format!("{}_variant", case.id);
    let mut tried = Vec::new();
    // Everything; else all but the amounts; else names and amounts; else names.
    let tries = [(true, years), (false, years), (true, 0), (false, 0)];
    for (i, &(with_amounts, years)) in tries.iter().enumerate() {
        if tries[..i].contains(&(with_amounts, years)) || (with_amounts && scaled.is_empty()) {
            continue;
        }
        let sub = Substitution { names: names.clone(), amounts: if with_amounts { scaled.clone() } else { BTreeMap::new() }, years };
        if sub.is_empty() {
            continue;
        }
        // Read back with the original answer: a tax the test names can look
        // like a year that moved ($1844).
        let changed = substitute(&source, &sub);
        let read = sara::parse_case(&id, &format!("{id}.pl"), &with_answer(&changed, case.answer)).map_err(|e| e.to_string())?;
        let what = format!(
            "names {}; amounts {}; years {}",
            names.iter().map(|(a, b)| format!("{a}->{b}")).collect::<Vec<_>>().join(", "),
            if sub.amounts.is_empty() { "kept".to_string() } else { format!("x{factor}%") },
            if years == 0 { "kept".to_string() } else { format!("{years:+}") }
        );
        if expected(&case.ir, types, &sub).ok().as_ref() != Some(&read.ir) {
            tried.push(what);
            continue;
        }
        let answer = match solver.solve(&id, &read.ir).map_err(|e| e.to_string())?.prediction {
            Prediction::Entailment => Answer::Entailment,
            Prediction::Contradiction => Answer::Contradiction,
            Prediction::Dollars(d) => Answer::Dollars(d),
        };
        let note = format!("% lexlog variants: {} with {what}; the answer is lexlog's solver's on these facts (SARA's was {}).\n", case.id, case.answer);
        let text = with_answer(&changed, answer).replacen("% Facts\n", &format!("% Facts\n{note}"), 1);
        // The file as written reads back with its new answer.
        sara::parse_case(&id, &format!("{id}.pl"), &text).map_err(|e| e.to_string())?;
        return Ok(Copy { id, text, answer });
    }
    Err(if tried.is_empty() { "nothing to change".into() } else { format!("the facts do not read back as substituted ({})", tried.join("; nor ")) })
}

pub fn run(args: VariantsArgs) -> Result<()> {
    let data = Dataset::load_default().context("loading SARA")?;
    let solver = Solver::new()?;
    let types = solver.argument_types();
    let (cases, _) = crate::eval_cmd::split_cases(&data, args.split);
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let (mut written, mut moved) = (0, 0);
    for (i, case) in cases.iter().enumerate() {
        let path = data.dir.join("cases").join(format!("{}.pl", case.id));
        let raw = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        match variant(case, i, &raw, args.years, &solver, &types) {
            Ok(copy) => {
                let out = args.out.join(format!("{}.pl", copy.id));
                std::fs::write(&out, &copy.text).with_context(|| format!("writing {}", out.display()))?;
                written += 1;
                moved += usize::from(copy.answer != case.answer);
            }
            Err(why) => println!("{}: no copy: {why}", case.id),
        }
    }
    println!("{written} of {} cases written to {} ({moved} with another answer than SARA's original)", cases.len(), args.out.display());
    Ok(())
}

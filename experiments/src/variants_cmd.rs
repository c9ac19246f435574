//! `lexlog variants --out DIR`: perturbed copies of SARA's case files, for
//! the parser and the joint pipeline on cases they have never seen. Each
//! case's people get names that neither SARA nor the training augmentation
//! uses, and its dollar amounts are scaled by a factor the augmentation
//! never applies, in the text, the question, the facts and the test alike.
//! A copy is written only where its facts read back as the original's with
//! the same substitution; its answer is the solver's on those facts.

use anyhow::{Context, Result};
use lexlog_parser::people::CAST;
use lexlog_data::{sara, Answer, Case, CaseIr, Dataset, Term, Value};
use lexlog_solver::{Prediction, Solver};
use lexlog_bridge::names::{map_words, rename_word};
use std::collections::BTreeMap;

/// (SARA's name, its copy's name) for the people of a case.
type Names = Vec<(String, String)>;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct VariantsArgs {
    /// Cases of this split.
    #[arg(long, value_enum, default_value = "test")]
    split: crate::solve_cmd::SplitArg,
    /// Where the case files go (created; files of the same name replaced).
    #[arg(long)]
    out: PathBuf,
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

/// The case file with names and amounts replaced: in its comments (text
/// and question) the amounts spelled with `$`, in its clauses every number
/// that is one.
fn substitute(source: &str, names: &Names, amounts: &BTreeMap<i64, i64>) -> String {
    let rename = |w: &str| rename_word(w, names);
    let number = |w: &str| w.parse::<i64>().ok().and_then(|n| amounts.get(&n)).map_or_else(|| rename(w), i64::to_string);
    source
        .split_inclusive('\n')
        .map(|line| match line {
            _ if is_header(line) => line.to_string(),
            _ if line.starts_with('%') => map_words(&scale_dollars(line, amounts), rename),
            _ => map_words(line, number),
        })
        .collect()
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

/// The original facts and query under the same substitution.
fn expected(ir: &CaseIr, names: &Names, amounts: &BTreeMap<i64, i64>) -> CaseIr {
    let mut ir = ir.clone();
    ir.for_each_term_mut(&mut |t| match t {
        Term::Value(v) => substitute_value(v, names, amounts),
        Term::Concat(parts) => parts.iter_mut().for_each(|p| {
            if let lexlog_data::Part::Lit(s) = p {
                *s = rename_word(s, names);
            }
        }),
        _ => {}
    });
    ir
}

/// The question's answer, and the test that checks it, made `answer`:
/// the test negated for a contradiction, the tax it names the new one.
fn with_answer(source: &str, answer: Answer) -> String {
    let mut out = String::new();
    let mut section = "";
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
            "test" if body.starts_with(":-") && body != ":- halt." => {
                let goal = body.trim_start_matches(":-").trim().trim_start_matches("\\+").trim();
                let goal = match answer {
                    Answer::Dollars(d) => match goal.rfind(',') {
                        Some(at) => format!("{},{d}).", &goal[..at]),
                        None => goal.to_string(),
                    },
                    _ => goal.to_string(),
                };
                let negation = if answer == Answer::Contradiction { "\\+ " } else { "" };
                out.push_str(&format!(":- {negation}{goal}\n"));
                section = "";
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// One case's copy, or why there is none.
fn variant(case: &Case, index: usize, raw: &str, solver: &Solver) -> Result<(String, String), String> {
    let (source, _) = lexlog_data::errata::apply(&case.id, raw);
    let names = name_map(&source);
    let factor = FACTORS[index % FACTORS.len()];
    let text_amounts: Vec<i64> = dollar_amounts(&case.text).into_iter().chain(dollar_amounts(&case.question)).collect();
    let mut scaled: BTreeMap<i64, i64> = text_amounts.iter().map(|&n| (n, n * factor / 100)).collect();
    // An amount the text also spells bare ("3200 dollars", a year) stays.
    let bare = bare_numbers(&format!("{} {}", case.text, case.question));
    if scaled.keys().any(|n| bare.contains(n)) || scaled.values().any(|n| scaled.contains_key(n) || bare.contains(n)) {
        scaled.clear();
    }
    let id = format!("{}_variant", case.id);
    let mut tried = Vec::new();
    // With amounts scaled; else names alone.
    for amounts in [scaled, BTreeMap::new()] {
        if names.is_empty() && amounts.is_empty() {
            break;
        }
        let changed = substitute(&source, &names, &amounts);
        let read = sara::parse_case(&id, &format!("{id}.pl"), &changed).map_err(|e| e.to_string())?;
        if read.ir != expected(&case.ir, &names, &amounts) {
            tried.push(if amounts.is_empty() { "names" } else { "amounts" });
            continue;
        }
        let answer = match solver.solve(&id, &read.ir).map_err(|e| e.to_string())?.prediction {
            Prediction::Entailment => Answer::Entailment,
            Prediction::Contradiction => Answer::Contradiction,
            Prediction::Dollars(d) => Answer::Dollars(d),
        };
        let what = format!("names {}; amounts {}", names.iter().map(|(a, b)| format!("{a}->{b}")).collect::<Vec<_>>().join(", "), if amounts.is_empty() { "kept".to_string() } else { format!("x{factor}%") });
        let note = format!("% lexlog variants: {} with {what}; the answer is lexlog's solver's on these facts (SARA's was {}).\n", case.id, case.answer);
        let text = with_answer(&changed, answer).replacen("% Facts\n", &format!("% Facts\n{note}"), 1);
        return Ok((id, text));
    }
    Err(if tried.is_empty() { "nothing to change".into() } else { format!("the facts do not read back as substituted ({})", tried.join(", then ")) })
}

pub fn run(args: VariantsArgs) -> Result<()> {
    let data = Dataset::load_default().context("loading SARA")?;
    let solver = Solver::new()?;
    let (cases, _) = crate::eval_cmd::split_cases(&data, args.split);
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let (mut written, mut moved) = (0, 0);
    for (i, case) in cases.iter().enumerate() {
        let path = data.dir.join("cases").join(format!("{}.pl", case.id));
        let raw = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        match variant(case, i, &raw, &solver) {
            Ok((id, text)) => {
                let out = args.out.join(format!("{id}.pl"));
                std::fs::write(&out, &text).with_context(|| format!("writing {}", out.display()))?;
                let read = sara::parse_case(&id, &out.display().to_string(), &text)?;
                written += 1;
                moved += usize::from(read.answer != case.answer);
            }
            Err(why) => println!("{}: no copy: {why}", case.id),
        }
    }
    println!("{written} of {} cases written to {} ({moved} with another answer than SARA's original)", cases.len(), args.out.display());
    Ok(())
}

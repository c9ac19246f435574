//! `lexlog explain CASE`: which subsections apply (with their statute
//! text), a derivation of the query, the tax arithmetic step by step, and
//! the consistency findings.

use anyhow::{bail, Context, Result};
use lexlog_data::{CaseIr, Dataset, Goal, Query, Term, Value};
use serde::Serialize;
use lexlog_solver::{Derivation, Prediction, Solver, WhyNot};

#[derive(clap::Args)]
pub struct ExplainArgs {
    case: String,
    /// Also print these relations, as name/arity (e.g. gross_income/3).
    #[arg(long, value_delimiter = ',')]
    dump: Vec<String>,
    /// How many rules deep the derivation under "Why" goes.
    #[arg(long, default_value_t = WHY_DEPTH)]
    depth: usize,
    /// Everything as JSON.
    #[arg(long)]
    json: bool,
}

/// How many rules deep a derivation is shown by default.
pub const WHY_DEPTH: usize = 6;
/// How many rules deep a failure is followed (each rule of a goal is an
/// attempt, so the tree widens fast).
const WHY_NOT_DEPTH: usize = 3;

/// Names and years the query asks about: the subsections shown are those
/// that mention them.
fn focus(query: &Query) -> (Vec<String>, Vec<String>) {
    match query {
        Query::Tax { person, year } => (vec![person.clone()], vec![year.to_string()]),
        Query::Holds { goals } => {
            let mut names = Vec::new();
            let mut years = Vec::new();
            for g in goals {
                if let Goal::Holds(a) = g {
                    for t in &a.args {
                        match t {
                            Term::Value(Value::Name(n) | Value::Text(n)) => names.push(n.clone()),
                            Term::Value(Value::Int(y)) if (1900..2200).contains(y) => years.push(y.to_string()),
                            Term::Value(Value::Date(d)) => years.push(chrono::Datelike::year(d).to_string()),
                            _ => {}
                        }
                    }
                }
            }
            (names, years)
        }
    }
}

pub fn run(args: ExplainArgs) -> Result<()> {
    let data = Dataset::load_default().context("loading SARA")?;
    let Some(case) = data.case(&args.case) else {
        bail!("no case named {} in {}", args.case, data.dir.display());
    };
    let solver = Solver::new()?;
    let gold = case.answer.to_string();
    let ex = gather(&data, &solver, &case.id, &case.ir, &case.question, Some(&gold), &args.dump, args.depth)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&ex)?);
    } else {
        print(&ex);
    }
    Ok(())
}

/// Everything `lexlog explain` says of a case (`--json` prints it so).
#[derive(Serialize)]
pub struct Explanation {
    pub case: String,
    pub prediction: Prediction,
    pub gold: Option<String>,
    pub question: String,
    pub stop: String,
    pub rounds: usize,
    pub derived: usize,
    /// Each subsection that applies to the query's names and years, with
    /// the tuple and the statute's words.
    pub applies: Vec<Applies>,
    /// Why the query holds (a derivation per goal), or why not.
    pub why: Vec<Derivation>,
    pub why_not: Option<WhyNot>,
    /// The tax arithmetic, for a tax query.
    pub arithmetic: Option<lexlog_solver::money::TaxExplanation>,
    pub findings: Vec<lexlog_solver::Inconsistency>,
    /// The relations `--dump` asks for, by name/arity.
    pub dumped: Vec<(String, Vec<Vec<String>>)>,
}

#[derive(Serialize)]
pub struct Applies {
    pub subsection: String,
    pub args: Vec<String>,
    pub text: String,
}

/// Why the solver answers as it does for `ir`: the subsections that apply,
/// a derivation of the query `depth` rules deep (or why it fails), the tax
/// arithmetic, the consistency findings, and the relations named in `dump`
/// (as name/arity).
#[allow(clippy::too_many_arguments)]
pub fn gather(data: &Dataset, solver: &Solver, id: &str, ir: &CaseIr, question: &str, gold: Option<&str>, dump: &[String], depth: usize) -> Result<Explanation> {
    let query = ir.query.as_ref().with_context(|| format!("{id} has no query"))?;
    let (outcome, mut loaded) = solver.solve_loaded(id, ir)?;

    let (names, years) = focus(query);
    let mut nodes = Vec::new();
    data.statutes.walk(&mut nodes);
    let mut applies = Vec::new();
    for node in nodes.iter().filter(|n| n.id.starts_with('s')) {
        for arity in 1..=11 {
            for row in solver.relation(&loaded, &node.id, arity) {
                let names_ok = names.is_empty() || row.iter().any(|c| names.contains(c));
                let years_ok = years.is_empty() || row.iter().any(|c| years.iter().any(|y| c == y || c.starts_with(&format!("{y}-"))));
                if names_ok && years_ok {
                    applies.push(Applies { subsection: node.id.clone(), args: row, text: node.text.replace('\n', " ") });
                }
            }
        }
    }

    let why = solver.why(id, &mut loaded, query, depth)?;
    let why_not = solver.why_not(id, &mut loaded, query, depth.min(WHY_NOT_DEPTH))?;
    let arithmetic = match (query, outcome.prediction) {
        (Query::Tax { person, year }, Prediction::Dollars(d)) => Some(solver.explain_tax(&loaded, person, *year, d)),
        _ => None,
    };
    let mut dumped = Vec::new();
    for spec in dump {
        let (name, arity) = spec.split_once('/').context("--dump takes name/arity")?;
        let arity: usize = arity.parse().context("arity")?;
        dumped.push((spec.clone(), solver.relation(&loaded, name, arity)));
    }
    Ok(Explanation {
        case: id.to_string(),
        prediction: outcome.prediction,
        gold: gold.map(String::from),
        question: question.to_string(),
        stop: format!("{:?}", outcome.stop),
        rounds: outcome.report.rounds,
        derived: outcome.report.derived,
        applies,
        why,
        why_not,
        arithmetic,
        findings: solver.check(ir),
        dumped,
    })
}

/// Prints an explanation as `lexlog explain` does.
pub fn print(ex: &Explanation) {
    match &ex.gold {
        Some(g) => println!("# {}: {:?} (gold {g})", ex.case, ex.prediction),
        None => println!("# {}: {:?}", ex.case, ex.prediction),
    }
    println!("{}", ex.question);
    println!("(solver stopped: {}; {} rounds, {} tuples derived)", ex.stop, ex.rounds, ex.derived);

    println!("\n## Subsections that apply");
    for a in &ex.applies {
        println!("{}({})\n    {}", a.subsection, a.args.join(", "), shortened(&a.text));
    }

    println!("\n## Why");
    for d in &ex.why {
        print_derivation(d, 0);
    }
    if let Some(w) = &ex.why_not {
        println!("the query does not hold:");
        print_why_not(w, 1);
    }

    if let Some(t) = &ex.arithmetic {
        println!("\n## Arithmetic");
        for s in &t.steps {
            let v = s.value.map_or("?".to_string(), |v| format!("${v}"));
            println!("{:<70} {:>12}   {}", s.label, v, s.term);
        }
        if !t.consistent {
            println!("(the folded arithmetic does not reproduce the answer)");
        }
    }

    println!("\n## Consistency");
    if ex.findings.is_empty() {
        println!("no findings");
    }
    for f in &ex.findings {
        println!("{:?}: {}", f.kind, f.detail);
    }

    for (spec, rows) in &ex.dumped {
        let name = spec.split_once('/').map_or(spec.as_str(), |(n, _)| n);
        println!("\n## {spec}");
        for row in rows {
            println!("{name}({})", row.join(", "));
        }
    }
}

/// One derivation as an indented tree: each tuple with the rule that
/// derives it (or `given`), the rule's other conditions, then its premises.
fn print_derivation(d: &Derivation, indent: usize) {
    let pad = "  ".repeat(indent);
    let source = match (&d.rule, d.cut, d.repeated) {
        (Some(r), _, true) => format!("{r} (as above)"),
        (Some(r), _, false) => r.clone(),
        (None, true, _) => "(not expanded)".into(),
        (None, false, _) => "given".into(),
    };
    println!("{pad}{}   {source}", d.fact);
    for c in &d.conditions {
        println!("{pad}  · {c}");
    }
    for p in &d.premises {
        print_derivation(p, indent + 1);
    }
}

/// Why a goal fails: per rule, the conditions that hold, then the first
/// that does not, followed deeper where the rules derive it.
fn print_why_not(w: &WhyNot, indent: usize) {
    let pad = "  ".repeat(indent);
    if w.cut {
        println!("{pad}{}: (not followed further)", w.goal);
    } else if w.attempts.is_empty() {
        println!("{pad}{}: no such fact", w.goal);
    }
    for a in &w.attempts {
        println!("{pad}{} by {}:", w.goal, a.rule);
        for h in &a.holds {
            println!("{pad}  ✓ {h}");
        }
        println!("{pad}  ✗ {}", a.fails);
        if let Some(d) = &a.deeper {
            print_why_not(d, indent + 2);
        }
    }
}

/// A statute's words cut to one line of about 110 characters.
fn shortened(t: &str) -> String {
    if t.chars().count() > 110 {
        format!("{}…", t.chars().take(110).collect::<String>())
    } else {
        t.to_string()
    }
}

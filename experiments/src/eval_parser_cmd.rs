//! `lexlog eval-parser --split test --model DIR [--json]`: parser metrics.

use anyhow::{Context, Result};
use lexlog_data::Dataset;
use lexlog_parser::decode::{BeamConfig, StatedScope};
use lexlog_parser::eval::{compare, fact_errors, fact_text, fact_type, macro_f1, prf, Counts, FactErrors};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct EvalParserArgs {
    #[command(flatten)]
    common: crate::eval_cmd::ModelArgs,
    /// Write every case's beams (JSON lines) here, for `lexlog eval`.
    #[arg(long)]
    save_beams: Option<PathBuf>,
    /// Only the first N cases of the split (quick checks).
    #[arg(long)]
    limit: Option<usize>,
    /// Only these cases (repeatable).
    #[arg(long = "case")]
    cases: Vec<String>,
    /// The case files of this directory instead of --split (SARA's format;
    /// `lexlog variants` writes such).
    #[arg(long = "cases")]
    case_dir: Option<PathBuf>,
    /// Evaluate on the model's dev cases (held out of its training, from
    /// the train split) instead of --split: for choosing decoding settings.
    #[arg(long)]
    dev: bool,
    /// Evaluate on the train cases the model's config holds out besides
    /// its dev set (`held_out`): a probe of a phenomenon.
    #[arg(long)]
    held_out: bool,
    /// The question asked by this model (by its query checkpoint, where it
    /// has one) instead of --model's: e.g. a refit's facts with the main
    /// recipe's query (`experiments/results/refit-query/`). Models of
    /// marked sentences; with --held-out it must hold those cases out too.
    /// Repeated, the models ask it together, as --ensemble's state the
    /// facts (`experiments/results/query-ensemble/`).
    #[arg(long)]
    query_model: Vec<PathBuf>,
    /// Beam scores are logprob / length^alpha.
    #[arg(long, default_value_t = crate::joint::LENGTH_ALPHA)]
    length_alpha: f64,
    /// Where a query's names come from: the question only, or the whole text
    #[arg(long, value_enum, default_value_t = QueryNames::default_for(&BeamConfig::default()))]
    query_names: QueryNames,
    /// A sentence's facts name only people the sentence mentions, unless it
    /// refers back to someone ("She", "their son", "her spouse"): models
    /// of marked sentences (`experiments/results/sentence-names/`)
    #[arg(long)]
    sentence_names: bool,
    /// Let the query name years the question does not give, from the text
    /// or the vocabulary (for comparison: the joint pipeline keeps to the
    /// question's since `experiments/results/query-years/`)
    #[arg(long)]
    any_query_years: bool,
    /// Leave the query's event arguments as decoded, even where they name
    /// no event of a kind the section asks of (for comparison).
    #[arg(long)]
    keep_query_events: bool,
    /// Let a query goal name a value or a variable in two places, even
    /// where no rule's head fills both with one variable (for comparison).
    #[arg(long)]
    repeated_names: bool,
    /// What a finished sentence beam loses, in length-normalised score, for
    /// each dollar amount or percentage its sentence states and it does not
    /// write (0: nothing).
    #[arg(long, default_value_t = BeamConfig::default().stated_penalty)]
    stated_penalty: f64,
    /// Which beams lose it: every beam that leaves one unwritten, or one
    /// that also writes an amount its sentence does not state.
    #[arg(long, value_enum, default_value_t = Scope::from(BeamConfig::default().stated_scope))]
    stated_scope: Scope,
    /// Keep this many whole readings from the combinations of the
    /// sentences' k beams (default k; models of sentence units): oracle@N
    /// then says whether the gold reading is among those combinations at
    /// all, which no reranking of the k readings can go beyond.
    #[arg(long)]
    readings: Option<usize>,
    /// Also print a line per case: gold facts (unrolled), true and false
    /// positives, misses, exact, query, rank of the gold IR among the beams.
    #[arg(long)]
    per_case: bool,
    /// Also list what each case's top beam gets wrong: at most N of the
    /// gold facts it misses and N of the facts it adds (unrolled, its event
    /// ids renamed onto gold's), and its query where that is wrong.
    #[arg(long, value_name = "N")]
    errors: Option<usize>,
}

/// Where a query's names may come from (the grammar's constraint).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum QueryNames {
    /// Any name the case's text or question mentions.
    Text,
    /// Only names the question mentions.
    Question,
}

impl QueryNames {
    fn default_for(cfg: &BeamConfig) -> Self {
        if cfg.query_names_from_question { QueryNames::Question } else { QueryNames::Text }
    }
}

impl std::fmt::Display for QueryNames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if *self == QueryNames::Question { "question" } else { "text" })
    }
}

/// [`StatedScope`] on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scope {
    Always,
    Replaced,
}

impl From<StatedScope> for Scope {
    fn from(s: StatedScope) -> Self {
        match s {
            StatedScope::Always => Scope::Always,
            StatedScope::Replaced => Scope::Replaced,
        }
    }
}

impl From<Scope> for StatedScope {
    fn from(s: Scope) -> Self {
        match s {
            Scope::Always => StatedScope::Always,
            Scope::Replaced => StatedScope::Replaced,
        }
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if *self == Scope::Always { "always" } else { "replaced" })
    }
}

#[derive(Serialize, serde::Deserialize)]
pub struct SavedBeam {
    pub text: String,
    pub logprob: f64,
}

#[derive(Serialize, serde::Deserialize)]
pub struct SavedCase {
    pub case: String,
    pub beams: Vec<SavedBeam>,
}

#[derive(Serialize)]
struct Report {
    split: String,
    cases: usize,
    fact_precision: f64,
    fact_recall: f64,
    fact_f1: f64,
    /// The mean of per-case F1 (every case weighs the same).
    fact_f1_macro: f64,
    exact_match: f64,
    query_accuracy: f64,
    oracle_at_k: BTreeMap<String, f64>,
    /// The same for the facts alone (every fact right, whatever the
    /// query) and for the query alone: which half keeps the gold IR out.
    facts_oracle_at_k: BTreeMap<String, f64>,
    query_oracle_at_k: BTreeMap<String, f64>,
    cases_per_second: f64,
    by_section: BTreeMap<String, SectionReport>,
    /// Cases whose gold query asks only predicates that some train-split
    /// case the model trained on asks (`asked_in_train`), and the others.
    by_query_predicate: BTreeMap<String, SectionReport>,
    /// Gold facts the top beam misses, and facts it adds, by fact type.
    missing_by_type: BTreeMap<String, usize>,
    spurious_by_type: BTreeMap<String, usize>,
    per_case: Vec<CaseReport>,
}

#[derive(Serialize)]
struct CaseReport {
    case: String,
    section: String,
    #[serde(flatten)]
    counts: Counts,
    /// Where the gold IR is among the beams (0 = top), if it is.
    gold_rank: Option<usize>,
    /// The first beam with the gold facts (whatever its query), and the
    /// first with the gold query (whatever its facts).
    facts_rank: Option<usize>,
    query_rank: Option<usize>,
    /// With `--errors N`: what the top beam gets wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<TopErrors>,
}

/// The first N gold facts the top beam misses and facts it adds, and the
/// two queries where they differ; for the text, the first N lines of each
/// with a yearly series folded into one.
#[derive(Serialize)]
struct TopErrors {
    missing: Vec<String>,
    spurious: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    query: Option<QueryError>,
    #[serde(skip)]
    folded: (Vec<String>, Vec<String>),
}

#[derive(Serialize)]
struct QueryError {
    gold: String,
    top: String,
}

impl TopErrors {
    fn of(e: &FactErrors, gold: &lexlog_data::CaseIr, n: usize) -> TopErrors {
        // Each fact written once: the first N as they are, all folded for the text.
        let lists = |fs: &[lexlog_data::GroundFact]| {
            let texts: Vec<String> = fs.iter().map(fact_text).collect();
            let folded = fold_series(&texts).into_iter().take(n).collect();
            (texts.into_iter().take(n).collect::<Vec<_>>(), folded)
        };
        let query_text = |q: &Option<lexlog_data::Query>| lexlog_data::linear::print(&lexlog_data::CaseIr { query: q.clone(), ..Default::default() }).trim().to_string();
        let query = (e.query != gold.query).then(|| QueryError { gold: query_text(&gold.query), top: query_text(&e.query) });
        let ((missing, folded_missing), (spurious, folded_spurious)) = (lists(&e.missing), lists(&e.spurious));
        TopErrors { missing, spurious, query, folded: (folded_missing, folded_spurious) }
    }
}

/// The year a fact's event id ends in (`purpose(e5_2018, e3)`,
/// `payment('<unmatched e4_2005>')`): a fact of a yearly series.
fn series_year(fact: &str) -> Option<&str> {
    let first = fact.split_once('(')?.1.split([',', ')']).next()?;
    let id = first.trim_matches(|c| c == '\'' || c == '<' || c == '>');
    let (_, year) = id.rsplit_once('_')?;
    (year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit())).then_some(year)
}

/// Facts as lines, each yearly series one line: `purpose(e5_{Y}, e3) for
/// Y in 2018..2117` (its year read as `{Y}` in the id and in dates of that
/// year), in the order of their first fact.
fn fold_series(facts: &[String]) -> Vec<String> {
    let mut groups: Vec<(String, Vec<&str>, &String)> = Vec::new();
    for f in facts {
        let Some(year) = series_year(f) else {
            groups.push((f.clone(), Vec::new(), f));
            continue;
        };
        let template = f.replace(&format!("_{year}"), "_{Y}").replace(&format!("{year}-"), "{Y}-");
        match groups.iter_mut().find(|(t, years, _)| !years.is_empty() && *t == template) {
            Some((_, years, _)) => years.push(year),
            None => groups.push((template, vec![year], f)),
        }
    }
    groups
        .into_iter()
        .map(|(template, mut years, first)| {
            years.sort();
            let numbers: Vec<u32> = years.iter().filter_map(|y| y.parse().ok()).collect();
            match numbers.as_slice() {
                [] | [_] => first.clone(),
                [a, .., b] if numbers.windows(2).all(|w| w[1] == w[0] + 1) => format!("{template} for Y in {a}..{b}"),
                _ => format!("{template} for Y in [{}]", years.join(", ")),
            }
        })
        .collect()
}

#[derive(Serialize)]
struct SectionReport {
    cases: usize,
    fact_f1: f64,
    exact_match: f64,
    query_accuracy: f64,
}

pub fn run(args: EvalParserArgs) -> Result<()> {
    let data = Dataset::load_default().context("loading SARA")?;
    anyhow::ensure!(!(args.dev && args.held_out), "--dev and --held-out are two sets: ask one");
    let own: Vec<lexlog_data::Case>;
    let (all_cases, split_name) = if let Some(dir) = &args.case_dir {
        anyhow::ensure!(!args.dev && !args.held_out, "--cases is a set of its own: ask it without --dev or --held-out");
        own = lexlog_data::read_cases(dir).with_context(|| format!("reading {}", dir.display()))?;
        (own.iter().collect(), "cases")
    } else if args.dev {
        (crate::joint::dev_cases(data.cases_in(Some(lexlog_data::Split::Train)).collect(), &args.common.model)?, "dev")
    } else if args.held_out {
        (crate::joint::held_out_cases(data.cases_in(Some(lexlog_data::Split::Train)).collect(), &args.common.model)?, "held_out")
    } else {
        crate::eval_cmd::split_cases(&data, args.common.split)
    };
    anyhow::ensure!(!args.dev || args.common.ensemble.is_empty(), "--dev holds --model's dev cases, which the ensemble's other models may have trained on");
    anyhow::ensure!(!args.dev || args.query_model.is_empty(), "--dev holds --model's dev cases, which --query-model may have trained on");
    anyhow::ensure!(!args.dev || args.common.vote.is_empty(), "--dev holds --model's dev cases, which the --vote models may have trained on");
    let solver = lexlog_solver::Solver::new()?;
    let mut saved = match &args.save_beams {
        Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?)),
        None => None,
    };
    let mut top1: Vec<Counts> = Vec::new();
    let mut ranks: Vec<Option<usize>> = Vec::new();
    let (mut fact_ranks, mut query_ranks): (Vec<Option<usize>>, Vec<Option<usize>>) = (Vec::new(), Vec::new());
    let mut sections: BTreeMap<String, Vec<Counts>> = BTreeMap::new();
    let mut missing: BTreeMap<String, usize> = BTreeMap::new();
    let mut spurious: BTreeMap<String, usize> = BTreeMap::new();
    let mut per_case = Vec::new();
    let start = Instant::now();
    let cases: Vec<_> = all_cases
        .into_iter()
        .filter(|c| args.cases.is_empty() || args.cases.contains(&c.id))
        .take(args.limit.unwrap_or(usize::MAX))
        .collect();
    // What the model's training asked: the train split less the cases evaluated.
    let asked = crate::parser_cmd::asked_predicates(data.cases_in(Some(lexlog_data::Split::Train)).filter(|c| !cases.iter().any(|e| e.id == c.id)));
    let mut by_predicate: BTreeMap<String, Vec<Counts>> = BTreeMap::new();
    // The joint pipeline's decoding, less the constraints switched off here.
    let joint = crate::joint::beam_config(args.common.k, &solver);
    let cfg = BeamConfig {
        readings: args.readings,
        length_alpha: args.length_alpha,
        query_names_from_question: args.query_names == QueryNames::Question,
        sentence_names: args.sentence_names,
        query_years_from_question: joint.query_years_from_question && !args.any_query_years,
        event_slots: joint.event_slots.clone().filter(|_| !args.keep_query_events),
        shared_places: joint.shared_places.clone().filter(|_| !args.repeated_names),
        stated_penalty: args.stated_penalty,
        stated_scope: args.stated_scope.into(),
        ..joint
    };
    if args.held_out {
        let others = args.query_model.iter().map(|q| ("--query-model", q)).chain(args.common.vote.iter().map(|v| ("--vote", v))).chain(args.common.ensemble.iter().map(|e| ("--ensemble", e)));
        for (flag, dir) in others {
            let its = crate::joint::held_out_cases(data.cases_in(Some(lexlog_data::Split::Train)).collect(), dir)?;
            if let Some(c) = cases.iter().find(|c| !its.iter().any(|h| h.id == c.id)) {
                anyhow::bail!("{flag} {} trained on {}, which --model holds out", dir.display(), c.id);
            }
        }
    }
    let decoded = crate::joint::decode_cases(&cases, &args.common.model, &args.common.ensemble, &args.query_model, &cfg, &args.common.reading(&solver)?)?;
    for (case, beams) in cases.iter().zip(decoded) {
        let gold = lexlog_data::linear::canonical_ids(&case.ir);
        let counts: Vec<_> = beams.iter().map(|b| compare(&b.ir, &gold)).collect();
        let c = counts.first().copied().unwrap_or_else(|| compare(&lexlog_data::CaseIr::default(), &gold));
        let gold_rank = counts.iter().position(|c| c.exact);
        let facts_rank = counts.iter().position(Counts::facts_right);
        let query_rank = counts.iter().position(|c| c.query_correct);
        ranks.push(gold_rank);
        fact_ranks.push(facts_rank);
        query_ranks.push(query_rank);
        let top_errors = beams.first().map_or_else(|| fact_errors(&lexlog_data::CaseIr::default(), &gold), |b| fact_errors(&b.ir, &gold));
        if !beams.is_empty() {
            for f in &top_errors.missing {
                *missing.entry(fact_type(f)).or_default() += 1;
            }
            for f in &top_errors.spurious {
                *spurious.entry(fact_type(f)).or_default() += 1;
            }
        }
        let section = crate::solve_cmd::section_of(case);
        let errors = args.errors.map(|n| TopErrors::of(&top_errors, &gold, n));
        per_case.push(CaseReport { case: case.id.clone(), section: section.clone(), counts: c, gold_rank, facts_rank, query_rank, errors });
        sections.entry(section).or_default().push(c);
        let seen = crate::parser_cmd::asks_only(case, &asked);
        by_predicate.entry(if seen { "asked_in_train" } else { "never_asked_in_train" }.to_string()).or_default().push(c);
        top1.push(c);
        if let Some(w) = saved.as_mut() {
            let line = SavedCase { case: case.id.clone(), beams: beams.iter().map(|b| SavedBeam { text: b.text.clone(), logprob: b.logprob }).collect() };
            writeln!(w, "{}", serde_json::to_string(&line)?)?;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let (p, r, f) = prf(&top1);
    let n = top1.len().max(1) as f64;
    let at = oracle_points(args.common.k, args.readings);
    let within = |ranks: &[Option<usize>]| -> BTreeMap<String, f64> {
        at.iter().map(|&k| (k.to_string(), ranks.iter().filter(|r| r.is_some_and(|r| r < k)).count() as f64 / n)).collect()
    };
    let report = Report {
        split: split_name.to_string(),
        cases: top1.len(),
        fact_precision: p,
        fact_recall: r,
        fact_f1: f,
        fact_f1_macro: macro_f1(&top1),
        exact_match: top1.iter().filter(|c| c.exact).count() as f64 / n,
        query_accuracy: top1.iter().filter(|c| c.query_correct).count() as f64 / n,
        oracle_at_k: within(&ranks),
        facts_oracle_at_k: within(&fact_ranks),
        query_oracle_at_k: within(&query_ranks),
        cases_per_second: top1.len() as f64 / secs.max(1e-9),
        by_section: grouped(&sections),
        by_query_predicate: grouped(&by_predicate),
        missing_by_type: missing,
        spurious_by_type: spurious,
        per_case,
    };
    if args.common.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    if args.per_case {
        println!("{:<16} {:<8} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}", "case", "section", "gold", "tp", "fp", "fn", "query", "rank");
        for c in &report.per_case {
            let k = &c.counts;
            let rank = c.gold_rank.map_or("-".to_string(), |r| r.to_string());
            println!("{:<16} {:<8} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}", c.case, c.section, k.true_positives + k.false_negatives, k.true_positives, k.false_positives, k.false_negatives, k.query_correct, rank);
        }
    }
    for c in report.per_case.iter().filter(|c| !c.counts.exact) {
        let Some(e) = &c.errors else { continue };
        println!("{}: misses {} gold facts, adds {}", c.case, c.counts.false_negatives, c.counts.false_positives);
        for f in &e.folded.0 {
            println!("  - {f}");
        }
        for f in &e.folded.1 {
            println!("  + {f}");
        }
        if let Some(q) = &e.query {
            println!("  - {}\n  + {}", q.gold, q.top);
        }
    }
    println!("split {}: {} cases, {:.2} cases/s (k = {})", report.split, report.cases, report.cases_per_second, args.common.k);
    println!("fact precision {:.3}  recall {:.3}  F1 {:.3} (per-case mean F1 {:.3})", p, r, f, report.fact_f1_macro);
    println!("exact match {:.3}  query accuracy {:.3}", report.exact_match, report.query_accuracy);
    println!("oracle@k {:?}", report.oracle_at_k);
    println!("  facts alone {:?}, query alone {:?}", report.facts_oracle_at_k, report.query_oracle_at_k);
    println!("{:<8} {:>6} {:>8} {:>8} {:>8}", "section", "cases", "fact F1", "exact", "query");
    for (s, r) in &report.by_section {
        println!("{s:<8} {:>6} {:>8.3} {:>8.3} {:>8.3}", r.cases, r.fact_f1, r.exact_match, r.query_accuracy);
    }
    for (s, r) in &report.by_query_predicate {
        println!("query predicate {s}: {} cases, fact F1 {:.3}, exact {:.3}, query {:.3}", r.cases, r.fact_f1, r.exact_match, r.query_accuracy);
    }
    let top = |m: &BTreeMap<String, usize>| {
        let mut v: Vec<_> = m.iter().collect();
        v.sort_by_key(|(_, n)| std::cmp::Reverse(**n));
        v.into_iter().take(12).map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
    };
    println!("missing facts by type: {}", top(&report.missing_by_type));
    println!("spurious facts by type: {}", top(&report.spurious_by_type));
    Ok(())
}

/// Fact F1, exact match and query accuracy of each group of cases.
fn grouped(groups: &BTreeMap<String, Vec<Counts>>) -> BTreeMap<String, SectionReport> {
    groups
        .iter()
        .map(|(s, cs)| {
            let share = |hit: fn(&Counts) -> bool| cs.iter().filter(|c| hit(c)).count() as f64 / cs.len() as f64;
            (s.clone(), SectionReport { cases: cs.len(), fact_f1: prf(cs).2, exact_match: share(|c| c.exact), query_accuracy: share(|c| c.query_correct) })
        })
        .collect()
}

/// The beam counts oracle@N is reported at: 1, 4 and k, and the number of
/// readings kept (k unless `--readings` says); none beyond what was kept
/// (at k = 1 no oracle@4).
fn oracle_points(k: usize, readings: Option<usize>) -> Vec<usize> {
    let kept = readings.unwrap_or(k);
    let mut at: Vec<usize> = [1, 4, k].into_iter().chain(readings).filter(|&n| n <= kept).collect();
    at.sort_unstable();
    at.dedup();
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracle_is_reported_only_within_the_beams_kept() {
        assert_eq!(oracle_points(8, None), [1, 4, 8]);
        assert_eq!(oracle_points(1, None), [1]);
        assert_eq!(oracle_points(2, None), [1, 2]);
        assert_eq!(oracle_points(4, Some(16)), [1, 4, 16]);
        assert_eq!(oracle_points(8, Some(2)), [1, 2]);
    }

    #[test]
    fn a_yearly_series_folds_into_one_line() {
        let facts: Vec<String> = ["amount(e2, 5)", "purpose(e5_2018, e3)", "start(e5_2018, 2018-01-01)", "purpose(e5_2019, e3)", "start(e5_2019, 2019-01-01)", "payment('<unmatched e4_2005>')", "payment('<unmatched e4_2007>')", "agent(e6_2017, bob)"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            fold_series(&facts),
            [
                "amount(e2, 5)",
                "purpose(e5_{Y}, e3) for Y in 2018..2019",
                "start(e5_{Y}, {Y}-01-01) for Y in 2018..2019",
                "payment('<unmatched e4_{Y}>') for Y in [2005, 2007]",
                "agent(e6_2017, bob)",
            ]
        );
        assert_eq!(series_year("s151_c_applies(alice, charlie, 2017)"), None);
    }
}

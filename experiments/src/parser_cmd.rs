//! `lexlog parser …`: inspecting the parser's target representation.

use anyhow::{Context, Result};
use std::collections::HashMap;
use clap::Subcommand;
use lexlog_data::{Dataset, Split};
use lexlog_parser::example::Example;
use lexlog_parser::target::{Action, Token, Vocab, UNK};

#[derive(Subcommand)]
pub enum ParserCommand {
    /// How much of each split's gold targets the copy + vocabulary scheme
    /// (vocabulary from the train split) can express, which cases it
    /// cannot, and how many cases ask a predicate no train query asks.
    Coverage,
    /// A case's sentence units as the sentence-unit model learns them: each
    /// sentence with the gold facts aligned to it, then the query.
    Units {
        /// The case's id (its file name without `.pl`).
        case: String,
        /// Show instead the copy that training's `augment_since` adds: its
        /// "from Y1 to Y2" sentence said with "since" a date of Y1.
        #[arg(long)]
        since: bool,
        /// Show instead the copy that training's `augment_conjoin` adds
        /// (its first pair of adjacent stating sentences joined), or
        /// with `--pair N` its N-th.
        #[arg(long)]
        conjoin: bool,
        #[arg(long, default_value_t = 0)]
        pair: u64,
        /// Show instead the copy that training's `augment_split_cost` adds
        /// (its one-payer sentence's costs split), with `--salt N` picking
        /// the share and the second payer.
        #[arg(long)]
        split_cost: bool,
        /// With `--split-cost`: the copy's salt (training salts each case
        /// by the seed and its index).
        #[arg(long, default_value_t = 1)]
        salt: u64,
    },
    /// How sure a trained model is of a case's gold units: each unit's
    /// teacher-forced log-probability, and every gold token it gives less
    /// than half its mass, with the action it prefers there.
    Score {
        /// The case's id.
        case: String,
        /// A model directory written by `lexlog train`.
        #[arg(long)]
        model: std::path::PathBuf,
    },
    /// Where a model's sentence errors are: each sentence of the split,
    /// told by whether a case the model trained on says it word for word
    /// (with the same gold facts, or others), and whether the model is sure
    /// of its gold facts (every gold action given at least half the mass,
    /// teacher-forced, as `score` reports).
    Seen {
        /// A model directory written by `lexlog train`.
        #[arg(long)]
        model: std::path::PathBuf,
        /// The model's dev cases (held out of its training) instead of test.
        #[arg(long)]
        dev: bool,
        /// Also list the sentences a case the model trained on says word
        /// for word with other gold facts: each with its facts and train's.
        #[arg(long)]
        list: bool,
    },
    /// Training speed without a whole run: the first steps of a config's
    /// first epoch (the steps `lexlog train` takes), timed after a few
    /// untimed ones; prints JSON with units and steps per second.
    StepTiming {
        /// A training configuration, e.g. parser/configs/main.json.
        #[arg(long)]
        config: std::path::PathBuf,
        /// Steps taken before the clock starts.
        #[arg(long, default_value_t = 5)]
        warmup: usize,
        /// Steps timed.
        #[arg(long, default_value_t = 60)]
        steps: usize,
    },
}

/// Each sentence unit of `example` (the query's last) with what it reads:
/// its sentence, or the question.
fn said_units(example: &Example) -> Result<Vec<(Example, String)>> {
    let (text, question) = example.source.split_once(lexlog_parser::mentions::QUESTION_MARKER).context("a source without its question")?;
    let sentences = lexlog_parser::sentences::split(text).into_iter().map(|(s, e)| text[s..e].to_string());
    let said = sentences.chain([question.to_string()]);
    Ok(lexlog_parser::sentences::units(std::slice::from_ref(example)).into_iter().zip(said).collect())
}

/// The fact units of `case` (not the query): id, sentence, gold facts.
fn said_facts(case: &lexlog_data::Case) -> Result<Vec<(String, String, String)>> {
    let mut units = said_units(&Example::from_case(case))?;
    units.pop();
    Ok(units.into_iter().map(|(u, said)| (u.id, said, lexlog_parser::target::render(&u.target))).collect())
}

/// The predicates a case's gold query asks (`tax` for a tax case).
pub fn query_preds(case: &lexlog_data::Case) -> Vec<String> {
    match &case.ir.query {
        Some(lexlog_data::Query::Holds { goals }) => goals
            .iter()
            .filter_map(|g| match g {
                lexlog_data::Goal::Holds(a) => Some(a.pred.as_str().to_string()),
                _ => None,
            })
            .collect(),
        Some(lexlog_data::Query::Tax { .. }) => vec!["tax".into()],
        None => Vec::new(),
    }
}

/// The predicates some of `cases` ask in their gold queries.
pub fn asked_predicates<'a>(cases: impl IntoIterator<Item = &'a lexlog_data::Case>) -> std::collections::HashSet<String> {
    cases.into_iter().flat_map(query_preds).collect()
}

/// Whether every predicate `case`'s gold query asks is in `asked`.
pub fn asks_only(case: &lexlog_data::Case, asked: &std::collections::HashSet<String>) -> bool {
    query_preds(case).iter().all(|p| asked.contains(p))
}

/// Every subsection id of the statutes: the predicates a query may ask.
pub fn statute_ids(data: &Dataset) -> Vec<String> {
    let mut nodes = Vec::new();
    data.statutes.walk(&mut nodes);
    nodes.iter().filter(|n| n.id.starts_with('s')).map(|n| n.id.clone()).collect()
}

pub fn run(cmd: ParserCommand) -> Result<()> {
    let data = Dataset::load_default().context("loading SARA")?;
    match cmd {
        ParserCommand::Coverage => {
            let train_cases: Vec<&lexlog_data::Case> = data.cases_in(Some(Split::Train)).collect();
            let test_cases: Vec<&lexlog_data::Case> = data.cases_in(Some(Split::Test)).collect();
            let train: Vec<Example> = train_cases.iter().map(|c| Example::from_case(c)).collect();
            let test: Vec<Example> = test_cases.iter().map(|c| Example::from_case(c)).collect();
            let vocab = Vocab::build(train.iter().map(|e| (e.target.as_slice(), e.mentions.as_slice())), &statute_ids(&data));
            println!("vocabulary: {} tokens (from the train split)", vocab.len());
            let asked = asked_predicates(train_cases.iter().copied());
            for (name, set, cases) in [("train", &train, &train_cases), ("test", &test, &test_cases)] {
                let (mut tokens, mut values, mut copied, mut unk, mut whole) = (0, 0, 0, 0, 0);
                // Dates no mention gives, by case: the vocabulary spells them.
                let (mut dates, mut dates_spelled) = (0, std::collections::BTreeMap::<&str, usize>::new());
                let mut lengths: Vec<usize> = Vec::new();
                let mut missing: std::collections::BTreeMap<String, usize> = Default::default();
                let mut inexpressible: Vec<String> = Vec::new();
                for e in set.iter() {
                    let actions = vocab.encode(&e.target, &e.mentions);
                    lengths.push(actions.len());
                    tokens += e.target.len();
                    values += e.target.iter().filter(|t| matches!(t, Token::Value(_))).count();
                    copied += actions.iter().filter(|a| matches!(a, Action::Copy(_))).count();
                    let u = actions.iter().filter(|a| **a == Action::Vocab(UNK)).count();
                    unk += u;
                    whole += (u == 0) as usize;
                    if u > 0 {
                        inexpressible.push(e.id.clone());
                    }
                    for (t, a) in e.target.iter().zip(&actions) {
                        if matches!(t, Token::Value(lexlog_data::Value::Date(_))) {
                            dates += 1;
                            if !matches!(a, Action::Copy(_)) {
                                *dates_spelled.entry(e.id.as_str()).or_default() += 1;
                            }
                        }
                        if *a == Action::Vocab(UNK) {
                            *missing.entry(lexlog_parser::target::render(std::slice::from_ref(t))).or_default() += 1;
                        }
                    }
                }
                let unseen = cases.iter().filter(|c| !asks_only(c, &asked)).count();
                lengths.sort_unstable();
                println!(
                    "{name}: {} cases; {tokens} target tokens, {values} values, {copied} copied; {unk} unknown ({:.2} %); {whole} cases fully expressible; actions median {} max {}",
                    set.len(),
                    100.0 * unk as f64 / tokens.max(1) as f64,
                    lengths[lengths.len() / 2],
                    lengths[lengths.len() - 1]
                );
                let mut top: Vec<_> = missing.into_iter().collect();
                top.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
                println!("  most frequent unknown: {:?}", &top[..top.len().min(15)]);
                println!("  not expressible: {}", if inexpressible.is_empty() { "none".to_string() } else { inexpressible.join(", ") });
                println!("  asking a predicate no train query asks: {unseen} of {} cases", set.len());
                let mut spelled: Vec<_> = dates_spelled.into_iter().collect();
                spelled.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
                println!(
                    "  dates: {dates}, {} given by no mention, in {} cases (most: {:?})",
                    spelled.iter().map(|(_, n)| n).sum::<usize>(),
                    spelled.len(),
                    &spelled[..spelled.len().min(8)]
                );
            }
        }
        ParserCommand::Units { case: id, since, conjoin, pair, split_cost, salt } => {
            let case = data.case(&id).with_context(|| format!("no case {id:?} in SARA"))?;
            let mut example = Example::from_case(case);
            if split_cost {
                example = lexlog_parser::split_cost::split_cost_variant(&example, salt)
                    .with_context(|| format!("case {id}: no sentence where one person \"furnished the costs of\" a home that can be split faithfully"))?
                    .0;
            }
            if since {
                example = lexlog_parser::since::since_variant(&example, 0)
                    .with_context(|| format!("case {id}: no \"from Y1 to Y2\" sentence whose facts can be said with \"since\""))?;
            }
            if conjoin {
                example = lexlog_parser::conjoin::conjoined_variant(&example, pair)
                    .with_context(|| format!("case {id}: no two adjacent sentences that state facts and join faithfully"))?
                    .0;
            }
            for (unit, said) in said_units(&example)? {
                println!("# {}: {said}\n{}", unit.id, lexlog_parser::target::render(&unit.target));
            }
        }
        ParserCommand::StepTiming { config, warmup, steps } => {
            let cfg = crate::train_cmd::read_config(&config)?;
            let train: Vec<Example> = data.cases_in(Some(Split::Train)).map(Example::from_case).collect();
            let device = lexlog_parser::device::best_device();
            let timing = lexlog_parser::step_timing::time_steps(&cfg, train, &statute_ids(&data), &lexlog_parser::source::minilm_dir()?, warmup, steps, device)?;
            println!("{}", serde_json::to_string_pretty(&timing)?);
        }
        ParserCommand::Seen { model, dev: on_dev, list } => {
            let trained = crate::joint::load_models(&model, &[])?.remove(0);
            // What the model trained on: the train split without its dev
            // cases and its held-out ones.
            let train: Vec<&lexlog_data::Case> = data.cases_in(Some(Split::Train)).collect();
            let dev = crate::joint::dev_cases(train.clone(), &model)?;
            let held = crate::joint::held_out_cases(train.clone(), &model)?;
            let mut trained_on: HashMap<String, Vec<String>> = HashMap::new();
            for case in train.iter().filter(|c| !dev.iter().chain(&held).any(|d| d.id == c.id)) {
                for (_, said, gold) in said_facts(case)? {
                    trained_on.entry(said).or_default().push(gold);
                }
            }
            let cases: Vec<&lexlog_data::Case> = if on_dev { dev } else { data.cases_in(Some(Split::Test)).collect() };
            // (kind, sure) -> (sentences, gold actions)
            let mut table: std::collections::BTreeMap<(&str, bool), (usize, usize)> = Default::default();
            for case in cases {
                let examples = [Example::from_case(case)];
                let units = lexlog_parser::sentences::units_for(&examples, trained.meta.train.unit);
                for (id, said, gold) in said_facts(case)? {
                    let unit = units.iter().find(|u| u.id == id).with_context(|| format!("{id}: no unit"))?;
                    let scored = trained.score(unit)?;
                    let sure = scored.iter().all(|s| s.logprob >= 0.5f64.ln());
                    let kind = match trained_on.get(&said) {
                        Some(golds) if golds.contains(&gold) => "said in training, same facts",
                        Some(golds) => {
                            if list {
                                println!("# {id}: {said}\n{gold}\n## in training:");
                                let mut seen_golds: Vec<&String> = golds.iter().collect();
                                seen_golds.sort();
                                seen_golds.dedup();
                                for g in seen_golds {
                                    println!("{g}");
                                }
                                println!();
                            }
                            "said in training, other facts"
                        }
                        None => "not said in training",
                    };
                    let e = table.entry((kind, sure)).or_default();
                    e.0 += 1;
                    e.1 += scored.len();
                }
            }
            let what = if on_dev { "the model's dev" } else { "test" };
            println!("sentences of {what} cases | model sure of every gold action | sentences | gold actions");
            println!("---|---|---|---");
            for ((kind, sure), (n, actions)) in &table {
                println!("{kind} | {} | {n} | {actions}", if *sure { "yes" } else { "no" });
            }
        }
        ParserCommand::Score { case, model } => {
            let case = data.case(&case).with_context(|| format!("no case {case:?} in SARA"))?;
            let trained = crate::joint::load_models(&model, &[])?.remove(0);
            let examples = [Example::from_case(case)];
            let units = lexlog_parser::sentences::units_for(&examples, trained.meta.train.unit);
            for unit in &units {
                let scored = trained.score(unit)?;
                let total: f64 = scored.iter().map(|s| s.logprob).sum();
                println!("# {}: log-probability {total:.3} over {} actions", unit.id, scored.len());
                for (i, s) in scored.iter().enumerate().filter(|(_, s)| s.logprob < 0.5f64.ln()) {
                    let before: Vec<&str> = scored[i.saturating_sub(6)..i].iter().map(|s| s.gold.as_str()).collect();
                    println!("  after {:?}: gold {} p={:.3}; prefers {} p={:.3}", before.join(" "), s.gold, s.logprob.exp(), s.best, s.best_logprob.exp());
                }
            }
        }
    }
    Ok(())
}

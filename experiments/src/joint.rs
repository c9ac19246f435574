//! Joint evaluation: text -> parser beams -> bridge -> answer, scored as in
//! the SARA paper (entailment accuracy; tax within max(10 %, $5,000)) and
//! exactly, with abstentions and the penalty cost of Jurayj et al.

use anyhow::{Context, Result};
use crate::shifts::{self, Reading};
use crate::vote;
use lexlog_bridge::names::StandIns;
use lexlog_bridge::pipeline::{decide, Beam, Decision, PipelineConfig};
use lexlog_data::{linear, Answer, Case, CaseKind};
use lexlog_parser::decode::BeamConfig;
use lexlog_parser::example::Example;
use lexlog_parser::train::Trained;
use lexlog_solver::{Prediction, Solver};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CaseBeams {
    pub case: String,
    pub beams: Vec<Beam>,
}

/// The predicates a query may ask, with the argument types of each arity:
/// what the solver's rules define or read as stated, and `tax PERSON YEAR`.
pub fn query_signatures(solver: &Solver) -> std::sync::Arc<lexlog_parser::grammar::Signatures> {
    std::sync::Arc::new(solver.query_signatures())
}

/// The query predicates' signatures and documented places, for training
/// and decoding a model that reads the query's schema.
pub fn query_schema(solver: &Solver) -> lexlog_parser::schema::QuerySchema {
    lexlog_parser::schema::QuerySchema { signatures: query_signatures(solver), places: std::sync::Arc::new(solver.query_place_names()) }
}

/// The event kinds of the query predicates' places, for checking a
/// joined query's event arguments against its facts.
pub fn query_event_slots(solver: &Solver) -> std::sync::Arc<lexlog_parser::query_events::EventSlots> {
    std::sync::Arc::new(solver.query_event_kinds())
}

/// The places a query goal may name one person in: those a rule's head
/// fills with one variable.
pub fn query_shared_places(solver: &Solver) -> std::sync::Arc<lexlog_parser::grammar::SharedPlaces> {
    std::sync::Arc::new(solver.query_shared_places())
}

/// Which way of standing in for unfamiliar people decoded a beam cache
/// (`lexlog_bridge::names`): a new one decodes anew.
const STAND_INS_VERSION: u32 = 1;

/// A case's beams as `reading` says: its unfamiliar people read under
/// the stand-in names of SARA's cast and given their own names back in
/// every beam (or the text as it is), and with its years moved too where
/// asked ([`crate::shifts`]).
/// `askers` ask the question: `models` themselves, or others
/// ([`lexlog_parser::sentences::decode_split`]).
pub fn decode_case(models: &[&Trained], askers: &[&Trained], text: &str, question: &str, cfg: &BeamConfig, reading: &Reading) -> Result<Vec<lexlog_parser::decode::Beam>> {
    let beams = decode_shifted(models, askers, text, question, cfg, reading)?;
    Ok(if reading.share_rests { with_share_rests(text, beams) } else { beams })
}

/// The version of [`with_share_rests`]'s completion, in the name of a beam
/// cache read with it: raise it whenever what it writes changes. 2: a
/// share written as the whole costs is given its percentage; 3: a home
/// furnished from one year to another its yearly payments.
pub const COMPLETION_VERSION: u32 = 3;

/// Beams with each home's stated costs completed where they lack them: a
/// home furnished from one year to another given its yearly payments
/// ([`crate::home_costs::complete`]), then each stated share its rest
/// ([`crate::shares::complete`]); a beam that then reads as one before it
/// is dropped.
fn with_share_rests(text: &str, beams: Vec<lexlog_parser::decode::Beam>) -> Vec<lexlog_parser::decode::Beam> {
    let mut out: Vec<lexlog_parser::decode::Beam> = Vec::with_capacity(beams.len());
    for mut b in beams {
        let furnished = crate::home_costs::complete(text, &b.ir);
        let completed = crate::shares::complete(text, furnished.as_ref().unwrap_or(&b.ir)).or(furnished);
        if let Some(ir) = completed {
            b.text = linear::print(&ir);
            b.ir = ir;
        }
        if !out.iter().any(|o| o.text == b.text) {
            out.push(b);
        }
    }
    out
}

/// [`decode_case`] before the shares' rests.
fn decode_shifted(models: &[&Trained], askers: &[&Trained], text: &str, question: &str, cfg: &BeamConfig, reading: &Reading) -> Result<Vec<lexlog_parser::decode::Beam>> {
    let once = decode_named(models, askers, text, question, cfg, reading.stand_ins)?;
    if reading.year_shifts.is_empty() {
        return Ok(once);
    }
    let mut all = vec![once];
    for &years in &reading.year_shifts {
        let beams = decode_named(models, askers, &shifts::moved_text(text, years), &shifts::moved_text(question, years), cfg, reading.stand_ins)?;
        // A reading whose years do not move back is left out.
        all.extend(shifts::moved_back(beams, years, &reading.types));
    }
    Ok(vote::most_agreed(all))
}

/// A case's beams as [`decode_case`] reads it with `models`, or, with
/// `voters`, the reading of `models` or of one voter that the others agree
/// with most ([`vote::most_agreed`]; a tie keeps `models`'). A voter asks
/// the question itself unless `askers` are another model's
/// (`shared_askers`).
fn decode_voted(models: &[&Trained], askers: &[&Trained], voters: &[&Trained], shared_askers: bool, case: &Case, cfg: &BeamConfig, reading: &Reading) -> Result<Vec<lexlog_parser::decode::Beam>> {
    let first = decode_case(models, askers, &case.text, &case.question, cfg, reading)?;
    if voters.is_empty() {
        return Ok(first);
    }
    let mut readings = vec![first];
    for &voter in voters {
        let own = [voter];
        let voter_askers = if shared_askers { askers } else { &own[..] };
        readings.push(decode_case(&own, voter_askers, &case.text, &case.question, cfg, reading)?);
    }
    Ok(vote::most_agreed(readings))
}

/// A case's beams, its unfamiliar people read under stand-in names where
/// `stand_ins`.
fn decode_named(models: &[&Trained], askers: &[&Trained], text: &str, question: &str, cfg: &BeamConfig, stand_ins: bool) -> Result<Vec<lexlog_parser::decode::Beam>> {
    let familiar: Vec<&str> = lexlog_parser::people::CAST.iter().chain(&lexlog_parser::people::RENAMES).copied().collect();
    let stand_ins = if stand_ins { StandIns::for_text(&format!("{text}\n{question}"), &familiar, &lexlog_parser::people::CAST) } else { StandIns::default() };
    if stand_ins.is_empty() {
        return Ok(lexlog_parser::sentences::decode_split(models, askers, text, question, cfg)?);
    }
    let beams = lexlog_parser::sentences::decode_split(models, askers, &stand_ins.hide(text), &stand_ins.hide(question), cfg)?;
    beams
        .into_iter()
        .map(|mut b| {
            b.text = stand_ins.restore(&b.text);
            b.ir = linear::parse(&b.text).with_context(|| format!("a beam with its names given back reads no more: {}", b.text))?;
            Ok(b)
        })
        .collect()
}

/// The most workers [`decode_cases`] runs unless told: each holds its own
/// copy of the models (about 0.2 GB for a main model's two checkpoints).
const DEFAULT_MAX_WORKERS: usize = 8;

/// How many workers [`decode_cases`] runs: `LEXLOG_DECODE_WORKERS` where
/// set, else on the CPU one per core (at most [`DEFAULT_MAX_WORKERS`]) and
/// on a GPU one; never more than the cases.
fn decode_workers(cases: usize, on_cpu: bool) -> Result<usize> {
    let n = match std::env::var("LEXLOG_DECODE_WORKERS") {
        Ok(v) => v.trim().parse::<usize>().ok().filter(|&n| n > 0).with_context(|| format!("LEXLOG_DECODE_WORKERS={v:?} is no positive number"))?,
        Err(_) if on_cpu => std::thread::available_parallelism().map_or(1, |n| n.get()).min(DEFAULT_MAX_WORKERS),
        Err(_) => 1,
    };
    Ok(n.min(cases).max(1))
}

/// Every case's beams, in the cases' order, by the model in `model_dir`
/// (with those of `ensemble`; the question asked by those in
/// `query_models` together, where given), or by one of `reading`'s voters where
/// they outvote it. On the CPU several workers take the cases
/// in turn, each with its own copy of the models and one libtorch thread
/// (a step's ops are too small to share out between threads); on a GPU
/// the cases go one after another unless `LEXLOG_DECODE_WORKERS` asks for
/// more (not yet measured there).
pub fn decode_cases(cases: &[&Case], model_dir: &Path, ensemble: &[PathBuf], query_models: &[PathBuf], cfg: &BeamConfig, reading: &Reading) -> Result<Vec<Vec<lexlog_parser::decode::Beam>>> {
    let workers = decode_workers(cases.len(), lexlog_parser::device::best_device() == tch::Device::Cpu)?;
    let decode_share = |worker: usize| -> Result<Vec<(usize, Vec<lexlog_parser::decode::Beam>)>> {
        if workers > 1 {
            // Set in each worker: libgomp keeps the count per thread (MKL's,
            // global, is restored below).
            tch::set_num_threads(1);
        }
        let models = load_models(model_dir, ensemble)?;
        let models: Vec<&Trained> = models.iter().collect();
        let asking = query_models.split_first().map(|(dir, more)| load_models(dir, more)).transpose()?;
        let askers = askers(asking.as_deref(), &models);
        let voters = reading.voters.iter().map(|dir| load_models(dir, &[])).collect::<Result<Vec<_>>>()?;
        let voters: Vec<&Trained> = voters.iter().flatten().collect();
        let decode = |(i, case): (usize, &&Case)| Ok((i, decode_voted(&models, &askers, &voters, !query_models.is_empty(), case, cfg, reading).with_context(|| format!("decoding case {}", case.id))?));
        cases.iter().enumerate().skip(worker).step_by(workers).map(decode).collect()
    };
    if workers == 1 {
        return Ok(decode_share(0)?.into_iter().map(|(_, beams)| beams).collect());
    }
    let threads = tch::get_num_threads();
    let shares: Vec<Result<_>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers).map(|w| s.spawn(move || decode_share(w))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(anyhow::anyhow!("a decoding worker panicked")))).collect()
    });
    tch::set_num_threads(threads);
    let mut out = vec![Vec::new(); cases.len()];
    for share in shares {
        for (i, beams) in share? {
            out[i] = beams;
        }
    }
    Ok(out)
}

/// Beams of every case, decoded with beam size `k` by the model in
/// `model_dir`; cached in that directory as `beams-<tag>-k<k>-d<decoder>-a<alpha>-n<stand-ins>[-y<shift>...]-s<sources>.jsonl`.
pub fn beams_for(cases: &[&Case], model_dir: &Path, k: usize, tag: &str, solver: &Solver) -> Result<BTreeMap<String, Vec<Beam>>> {
    ensemble_beams_for(cases, model_dir, &[], &[], k, tag, &Reading::once(true), solver)
}

/// As [`beams_for`], decoded by the model in `model_dir` and those in
/// `ensemble` together, the question asked by those in `query_models`
/// together where given; the cache's tag then names them (a hash of their
/// directories).
/// `reading` as for [`decode_case`].
#[allow(clippy::too_many_arguments)]
pub fn ensemble_beams_for(cases: &[&Case], model_dir: &Path, ensemble: &[PathBuf], query_models: &[PathBuf], k: usize, tag: &str, reading: &Reading, solver: &Solver) -> Result<BTreeMap<String, Vec<Beam>>> {
    // A query checkpoint asks the query (one decodes otherwise without it).
    let tag = if model_dir.join(lexlog_parser::train::QUERY_WEIGHTS).is_file() { format!("{tag}-q") } else { tag.to_string() };
    let tag = match ensemble {
        [] => tag,
        more => format!("{tag}-ens{:016x}", dirs_hash(more)),
    };
    let tag = match query_models {
        [] => tag,
        asking => format!("{tag}-ask{:016x}", dirs_hash(asking)),
    };
    let names = if reading.stand_ins { format!("n{STAND_INS_VERSION}") } else { "kept".to_string() };
    let cache = model_dir.join(beam_cache_name(&tag, k, &format!("{names}{}", reading.cache_tag())));
    let mut out = BTreeMap::new();
    if cache.is_file() {
        let f = std::fs::File::open(&cache).with_context(|| format!("reading {}", cache.display()))?;
        for (n, line) in std::io::BufReader::new(f).lines().enumerate() {
            let cb: CaseBeams = serde_json::from_str(&line?).with_context(|| format!("{} line {}", cache.display(), n + 1))?;
            out.insert(cb.case, cb.beams);
        }
        if cases.iter().all(|c| out.contains_key(&c.id)) {
            return Ok(out);
        }
        out.clear();
    }
    let decoded = decode_cases(cases, model_dir, ensemble, query_models, &beam_config(k, solver), reading)?;
    let mut w = std::io::BufWriter::new(std::fs::File::create(&cache).with_context(|| format!("creating {}", cache.display()))?);
    for (case, beams) in cases.iter().zip(decoded) {
        let beams: Vec<Beam> = beams.into_iter().map(|b| Beam { text: b.text, logprob: b.logprob }).collect();
        writeln!(w, "{}", serde_json::to_string(&CaseBeams { case: case.id.clone(), beams: beams.clone() })?)?;
        out.insert(case.id.clone(), beams);
    }
    Ok(out)
}

/// The hash of the sources a beam depends on (`experiments/build.rs`).
const BEAM_SOURCES: &str = env!("LEXLOG_BEAM_SOURCES");

/// A beam cache's file name: keyed by the decoder's version, the length
/// normalisation and the code that wrote it, so that any of them changed
/// decodes anew.
fn beam_cache_name(tag: &str, k: usize, names: &str) -> String {
    format!("beams-{tag}-k{k}-d{}-a{LENGTH_ALPHA}-{names}-s{}.jsonl", lexlog_parser::decode::VERSION, &BEAM_SOURCES[..8])
}

/// Length normalisation of beam scores at test (log-prob / len^α),
/// chosen over the main seeds' dev cases (`experiments/results/alpha-v37/`);
/// training's dev queries keep `BeamConfig::default()`'s 0.6.
pub const LENGTH_ALPHA: f64 = 0.45;

/// The decoding the joint pipeline uses: beams of `k`, under every
/// constraint the solver's rules give (query signatures, event slots,
/// shared and documented places), scored with [`LENGTH_ALPHA`].
pub fn beam_config(k: usize, solver: &Solver) -> BeamConfig {
    BeamConfig {
        k,
        length_alpha: LENGTH_ALPHA,
        signatures: Some(query_signatures(solver)),
        event_slots: Some(query_event_slots(solver)),
        shared_places: Some(query_shared_places(solver)),
        places: Some(std::sync::Arc::new(solver.query_place_names())),
        // Adopted on the folds (experiments/results/query-years/).
        query_years_from_question: true,
        suspect: inconsistent_reading(),
        ..Default::default()
    }
}

/// A reading the solver's checks find no case can be: two values of a
/// functional attribute, an end before its start (a death before the
/// birth), a role of an undeclared event, one person in two marriages at
/// once, or ill-typed facts (`experiments/results/consistent-first/`).
fn inconsistent_reading() -> Option<lexlog_parser::decode::Suspect> {
    use lexlog_solver::InconsistencyKind::*;
    // The caller's solver compiled the same built-in rules.
    let solver = std::sync::Arc::new(Solver::new().ok()?);
    Some(lexlog_parser::decode::Suspect(std::sync::Arc::new(move |ir| {
        solver.check_facts(ir).iter().any(|f| {
            matches!(f.kind, FunctionalConflict | EndBeforeStart | DanglingReference | OverlappingMarriages | WrongType | InvalidDate)
        })
    })))
}

/// The models that ask the question: those of a query model where one is
/// loaded, else `models` themselves.
pub fn askers<'a>(asking: Option<&'a [Trained]>, models: &[&'a Trained]) -> Vec<&'a Trained> {
    asking.map_or_else(|| models.to_vec(), |a| a.iter().collect())
}

/// The model in `model_dir`, then those in `ensemble`, on the best device.
pub fn load_models(model_dir: &Path, ensemble: &[PathBuf]) -> Result<Vec<Trained>> {
    let device = lexlog_parser::device::best_device();
    let minilm = lexlog_parser::source::minilm_dir()?;
    std::iter::once(model_dir)
        .chain(ensemble.iter().map(PathBuf::as_path))
        .map(|dir| Trained::load(dir, &minilm, device).with_context(|| format!("loading the model in {}", dir.display())))
        .collect()
}

/// FNV-1a of a byte stream: short, stable cache keys.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// A short, stable key for a list of model directories (beam caches'
/// names).
pub fn dirs_hash<P: AsRef<Path>>(dirs: impl IntoIterator<Item = P>) -> u64 {
    fnv1a(dirs.into_iter().flat_map(|p| p.as_ref().to_string_lossy().bytes().chain([0]).collect::<Vec<_>>()))
}

/// The gold IR as the only beam (the gold-facts row).
pub fn gold_beams(cases: &[&Case]) -> BTreeMap<String, Vec<Beam>> {
    cases.iter().map(|c| (c.id.clone(), vec![Beam { text: linear::print(&c.ir), logprob: 0.0 }])).collect()
}

#[derive(Debug, Clone, Serialize)]
pub struct EntailmentScore {
    pub cases: usize,
    pub correct: usize,
    pub abstained: usize,
    pub accuracy: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct TaxScore {
    pub cases: usize,
    /// |y - ŷ| / max(0.1 y, 5000) < 1, as in the SARA paper.
    pub within_delta: usize,
    pub exact: usize,
    pub abstained: usize,
    /// Mean cost per tax case: overpayment in full, underpayment beyond
    /// max($5,000, 10 %) a 20 % penalty, an abstention $270.
    pub penalty_cost: f64,
    pub accuracy: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct JointReport {
    pub name: String,
    pub split: String,
    pub entailment: EntailmentScore,
    pub tax: TaxScore,
    pub abstention_rate: f64,
    /// (coverage, accuracy) as the confidence threshold rises.
    pub coverage_accuracy: Vec<(f64, f64)>,
    pub by_section: BTreeMap<String, (usize, usize)>,
}

pub(crate) fn correct(gold: Answer, p: Option<Prediction>) -> bool {
    match (gold, p) {
        (Answer::Entailment, Some(Prediction::Entailment)) | (Answer::Contradiction, Some(Prediction::Contradiction)) => true,
        (Answer::Dollars(y), Some(Prediction::Dollars(x))) => within_delta(y, x),
        _ => false,
    }
}

pub fn within_delta(y: i64, x: i64) -> bool {
    ((y - x).abs() as f64) / (0.1 * y as f64).max(5000.0) < 1.0
}

fn penalty_cost(y: i64, p: Option<Prediction>) -> f64 {
    match p {
        Some(Prediction::Dollars(x)) if x >= y => (x - y) as f64,
        Some(Prediction::Dollars(x)) => {
            let under = (y - x) as f64;
            if under > (0.1 * y as f64).max(5000.0) { 0.2 * under } else { 0.0 }
        }
        _ => 270.0,
    }
}

/// Runs the bridge on every case and scores it.
pub fn evaluate(name: &str, split: &str, cases: &[&Case], beams: &BTreeMap<String, Vec<Beam>>, solver: &Solver, cfg: &PipelineConfig) -> (JointReport, Vec<Decision>) {
    let decisions: Vec<Decision> = cases.iter().map(|c| decide(solver, beams.get(&c.id).map_or(&[][..], |b| b.as_slice()), cfg)).collect();
    (score(name, split, cases, &decisions), decisions)
}

/// Scores the bridge's decisions (one per case, in order).
pub fn score(name: &str, split: &str, cases: &[&Case], decisions: &[Decision]) -> JointReport {
    let mut ent = EntailmentScore { cases: 0, correct: 0, abstained: 0, accuracy: 0.0 };
    let mut tax = TaxScore { cases: 0, within_delta: 0, exact: 0, abstained: 0, penalty_cost: 0.0, accuracy: 0.0 };
    let mut by_section: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut confidence: Vec<(f64, bool)> = Vec::new();
    for (c, d) in cases.iter().zip(decisions) {
        let ok = correct(c.answer, d.answer);
        let e = by_section.entry(crate::solve_cmd::section_of(c)).or_default();
        e.0 += 1;
        e.1 += ok as usize;
        if d.answer.is_some() {
            confidence.push((d.agreement, ok));
        }
        match c.kind {
            CaseKind::Entailment => {
                ent.cases += 1;
                ent.correct += ok as usize;
                ent.abstained += d.answer.is_none() as usize;
            }
            CaseKind::Tax => {
                let Answer::Dollars(y) = c.answer else { continue };
                tax.cases += 1;
                tax.within_delta += ok as usize;
                tax.exact += (d.answer == Some(Prediction::Dollars(y))) as usize;
                tax.abstained += d.answer.is_none() as usize;
                tax.penalty_cost += penalty_cost(y, d.answer);
            }
        }
    }
    ent.accuracy = ent.correct as f64 / ent.cases.max(1) as f64;
    tax.accuracy = tax.within_delta as f64 / tax.cases.max(1) as f64;
    tax.penalty_cost /= tax.cases.max(1) as f64;
    confidence.sort_by(|a, b| b.0.total_cmp(&a.0));
    let n = cases.len().max(1) as f64;
    let mut curve = Vec::new();
    let mut right = 0;
    for (i, (_, ok)) in confidence.iter().enumerate() {
        right += *ok as usize;
        curve.push(((i + 1) as f64 / n, right as f64 / (i + 1) as f64));
    }
    let abstained = decisions.iter().filter(|d| d.answer.is_none()).count();
    JointReport {
        name: name.to_string(),
        split: split.to_string(),
        entailment: ent,
        tax,
        abstention_rate: abstained as f64 / n,
        coverage_accuracy: curve,
        by_section,
    }
}

pub fn table(rows: &[JointReport]) -> String {
    let mut out = String::from("| configuration | entailment acc. | tax within δ | tax exact | abstained | penalty cost / tax case |\n|---|---|---|---|---|---|\n");
    for r in rows {
        out.push_str(&format!(
            "| {} | {:.1} % ({}/{}) | {:.1} % ({}/{}) | {}/{} | {:.1} % | ${:.0} |\n",
            r.name,
            100.0 * r.entailment.accuracy,
            r.entailment.correct,
            r.entailment.cases,
            100.0 * r.tax.accuracy,
            r.tax.within_delta,
            r.tax.cases,
            r.tax.exact,
            r.tax.cases,
            100.0 * r.abstention_rate,
            r.tax.penalty_cost
        ));
    }
    out
}

/// The dev cases of a trained model: the cases its run held out of its
/// training cases (same seed and fraction), never evaluation cases.
/// `pool`: the cases the model was trained from.
pub fn dev_cases<'a>(pool: Vec<&'a Case>, model_dir: &Path) -> Result<Vec<&'a Case>> {
    let meta = lexlog_parser::train::CheckpointMeta::read(model_dir)?;
    let train: Vec<Example> = pool.iter().map(|c| Example::from_case(c)).collect();
    let train = lexlog_parser::train::without_held_out(train, &meta.train.held_out);
    let (_, dev) = lexlog_parser::train::split_dev(train, meta.train.dev_fraction, meta.train.seed, meta.train.dev_groups);
    Ok(pool.into_iter().filter(|c| dev.iter().any(|e| e.id == c.id)).collect())
}

/// The train cases the model in `model_dir` held out besides its dev set
/// (its config's `held_out`): an error names one that is no train case.
pub fn held_out_cases<'a>(pool: Vec<&'a Case>, model_dir: &Path) -> Result<Vec<&'a Case>> {
    let meta = lexlog_parser::train::CheckpointMeta::read(model_dir)?;
    if let Some(id) = meta.train.unknown_held_out(|id| pool.iter().any(|c| c.id == id)) {
        anyhow::bail!("{}: held_out names {id}, which is no train case", model_dir.join("config.json").display());
    }
    Ok(pool.into_iter().filter(|c| meta.train.held_out.contains(&c.id)).collect())
}

/// Fits the bridge's weights (strategy, penalty per finding, agreement
/// threshold) on the dev cases: highest accuracy, then lowest penalty
/// cost.
pub fn fit_on_dev(data: &lexlog_data::Dataset, model_dir: &Path, k: usize, solver: &Solver) -> Result<PipelineConfig> {
    fit_on(dev_cases(data.cases_in(Some(lexlog_data::Split::Train)).collect(), model_dir)?, model_dir, k, solver)
}

/// As [`fit_on_dev`] for a cross-validation fold's model, trained on all
/// cases outside its fold.
pub fn fit_on_dev_cases(data: &lexlog_data::Dataset, model_dir: &Path, k: usize, solver: &Solver) -> Result<PipelineConfig> {
    let trained_on = std::fs::read_to_string(model_dir.join("trained_on.json")).ok().and_then(|t| serde_json::from_str::<Vec<String>>(&t).ok());
    let pool: Vec<&Case> = match trained_on {
        Some(ids) => data.cases.iter().filter(|c| ids.contains(&c.id)).collect(),
        None => data.cases_in(Some(lexlog_data::Split::Train)).collect(),
    };
    fit_on(dev_cases(pool, model_dir)?, model_dir, k, solver)
}

fn fit_on(dev: Vec<&Case>, model_dir: &Path, k: usize, solver: &Solver) -> Result<PipelineConfig> {
    if dev.is_empty() {
        // A run on all of train (`dev_fraction` 0) has nothing to fit on.
        eprintln!("{}: no dev cases to fit the bridge on; it keeps its defaults", model_dir.display());
        return Ok(PipelineConfig { k, ..Default::default() });
    }
    let beams = beams_for(&dev, model_dir, k, "dev", solver)?;
    let mut best: Option<(f64, f64, PipelineConfig)> = None;
    for strategy in [lexlog_bridge::Strategy::Rerank, lexlog_bridge::Strategy::Vote] {
        for penalty in [0.0, 1.0, 2.0, 5.0, 10.0] {
            for min_agreement in [0.0, 0.3, 0.5, 0.7] {
                if strategy == lexlog_bridge::Strategy::Rerank && min_agreement > 0.0 {
                    continue;
                }
                let cfg = PipelineConfig { strategy, k, penalty, min_agreement, ..Default::default() };
                let (r, _) = evaluate("dev", "dev", &dev, &beams, solver, &cfg);
                let acc = (r.entailment.correct + r.tax.within_delta) as f64 / dev.len().max(1) as f64;
                let better = best.as_ref().is_none_or(|(a, c, _)| acc > *a || (acc == *a && r.tax.penalty_cost < *c));
                if better {
                    best = Some((acc, r.tax.penalty_cost, cfg));
                }
            }
        }
    }
    Ok(best.map(|b| b.2).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_joint_decoding_demotes_what_the_solver_checks_flag() {
        let solver = Solver::new().unwrap();
        let suspect = beam_config(8, &solver).suspect.expect("the joint decoding sets it");
        let read = |src: &str| lexlog_data::linear::parse(src).unwrap();
        let wed = "marriage e1 agent=alice agent=bob start=2010-05-01\n";
        // "They divorced on March 3rd, 2016" read as a second wedding.
        assert!((suspect.0)(&read(&format!("{wed}marriage e2 agent=alice agent=bob start=2016-03-03\nquery tax alice 2017\n"))));
        assert!((suspect.0)(&read("birth e1 agent=bob start=1990-01-01\ndeath e2 agent=bob start=1980-01-01\nquery tax alice 2017\n")));
        assert!(!(suspect.0)(&read(&format!("{wed}divorce e2 agent=alice agent=bob start=2016-03-03\nquery tax alice 2017\n"))));
    }

    #[test]
    fn a_beam_cache_is_named_by_the_code_that_wrote_it() {
        assert_eq!(BEAM_SOURCES.len(), 16);
        assert!(BEAM_SOURCES.chars().all(|c| c.is_ascii_hexdigit()));
        let name = beam_cache_name("test", 8, "n1-rest3");
        assert_eq!(name, format!("beams-test-k8-d{}-a{LENGTH_ALPHA}-n1-rest3-s{}.jsonl", lexlog_parser::decode::VERSION, &BEAM_SOURCES[..8]));
    }
}

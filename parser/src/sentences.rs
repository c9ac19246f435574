//! Sentence by sentence: a case's text split into sentences, and each gold
//! fact aligned to the sentence that states it, by the values (names,
//! amounts, dates, years) they share. SARA's tax cases were written by
//! joining entailment cases, so a model that parses one sentence at a time,
//! reading the whole text for context, sees shorter, more regular targets.

use crate::asked_names::asks_the_unnamed;
use crate::decode::{ensemble_search, normalized, stated_values, Beam, BeamConfig, Member};
use crate::example::{source_text, Example};
use crate::grammar::Part;
use crate::config::Unit;
use crate::mentions::{extract, focused, Mention, QUESTION_MARKER};
use crate::query_events::{repoint, EventSlots};
use crate::target::{declared_events, earlier_event, lex, max_event, render, shift_events, Token, PREVIOUS};
use crate::train::Trained;
use crate::ParserError;
use lexlog_data::{linear, CaseIr, Domain, Fact, ForEach, SectionId, Term, Value};
use std::collections::HashSet;

/// How a query unit's id ends (`CASE#query`; a sentence's is `CASE#N`).
pub const QUERY_UNIT: &str = "#query";

/// What the model reads for one sentence: the whole text, then the
/// sentence in the question's place (its mentions are flagged as focus).
pub fn sentence_source(text: &str, sentence: &str) -> String {
    source_text(text, &format!("Which facts does this sentence state? {sentence}"))
}

/// A case's examples one unit at a time: each sentence with its aligned
/// facts (ids numbered within the sentence), and the question with the
/// query alone (ids as in the whole case).
pub fn units(cases: &[Example]) -> Vec<Example> {
    units_of(cases, false)
}

/// [`units`] for [`crate::config::Unit::MarkedSentence`]: every unit reads
/// the case's own source, its sentence (or the question) marked as its
/// focus.
pub fn marked_units(cases: &[Example]) -> Vec<Example> {
    units_of(cases, true)
}

/// The examples of a unit's kind: [`units`] or [`marked_units`].
pub fn units_for(cases: &[Example], unit: Unit) -> Vec<Example> {
    match unit {
        Unit::Case => cases.to_vec(),
        Unit::Sentence => units(cases),
        Unit::MarkedSentence => marked_units(cases),
    }
}

/// Copies of cases with one sentence rewritten (each with that sentence's
/// index), as `unit`s: of a sentence unit's copy only the rewritten
/// sentence, the rest being its original's; the whole copy for case units.
pub fn rewritten_units(copies: impl Iterator<Item = (Example, usize)>, unit: Unit) -> Vec<Example> {
    match unit {
        Unit::Case => copies.map(|(v, _)| v).collect(),
        _ => copies
            .flat_map(|(v, i)| {
                let id = format!("{}#{i}", v.id);
                units_for(std::slice::from_ref(&v), unit).into_iter().filter(move |u| u.id == id)
            })
            .collect(),
    }
}

/// Where a case's source gives its question, as a byte range.
fn question_range(text: &str, source: &str) -> (usize, usize) {
    (text.len() + QUESTION_MARKER.len(), source.len())
}

fn units_of(cases: &[Example], marked: bool) -> Vec<Example> {
    let mut out = Vec::new();
    for e in cases {
        let Some((text, question)) = e.source.split_once(QUESTION_MARKER) else { continue };
        let Some(ir) = e.ir() else { continue };
        let ir = split_groups(&ir);
        let home = align(text, &ir);
        let all = if marked { extract(&e.source) } else { Vec::new() };
        let unit = |id: String, range: (usize, usize), target: Vec<Token>, alone: &dyn Fn() -> String| {
            if marked {
                Example { id, source: e.source.clone(), mentions: focused(all.clone(), range), target, focus: Some(range) }
            } else {
                let source = alone();
                Example { id, mentions: extract(&source), source, target, focus: None }
            }
        };
        let earlier = Earlier::new(&ir, &home);
        for (i, &(s, t)) in split(text).iter().enumerate() {
            let facts: Vec<Fact> = ir.facts.iter().zip(&home).filter(|(_, &h)| h == i).map(|(f, _)| earlier.write_references(f, i)).collect();
            let part = linear::canonical_ids(&CaseIr { facts: merge_groups(facts), query: None });
            out.push(unit(format!("{}#{i}", e.id), (s, t), lex(&linear::print(&part)), &|| sentence_source(text, &text[s..t])));
        }
        let query = CaseIr { facts: Vec::new(), query: ir.query.clone() };
        out.push(unit(format!("{}{QUERY_UNIT}", e.id), question_range(text, &e.source), lex(&linear::print(&query)), &|| source_text(text, question)));
    }
    out
}

/// One case's linear form from its sentences' facts (ids numbered within
/// each) and its query: ids shifted past the sentences before, and each
/// `prev_KIND` the last event of that kind the sentences before declare;
/// `None` if there is none. With `slots`, the query's event arguments are
/// checked against the facts' events ([`crate::query_events::repoint`]).
pub fn join(facts: &[&str], query: &str, slots: Option<&EventSlots>) -> Option<String> {
    let mut tokens: Vec<Token> = Vec::new();
    let mut offset = 0;
    let mut last: std::collections::HashMap<String, String> = Default::default();
    for text in facts {
        let own = lex(text);
        let mut shifted = shift_events(&own, offset);
        for t in &mut shifted {
            if let Token::Value(Value::Name(n)) = t {
                if let Some(kind) = earlier_event(n) {
                    *t = Token::Sym(last.get(kind.as_str())?.clone());
                }
            }
        }
        for (kind, id) in declared_events(&shifted) {
            last.insert(kind.as_str().to_string(), id.to_string());
        }
        tokens.extend(shifted);
        offset += max_event(&own);
    }
    tokens.extend(lex(query));
    if let Some(slots) = slots {
        repoint(&mut tokens, slots);
    }
    Some(render(&tokens))
}

/// The events each sentence declares (by [`align`]'s homes), to tell
/// which references to an earlier sentence's event `prev_KIND` can make.
struct Earlier {
    /// Declared event id -> (kind, sentence, fact index).
    events: std::collections::HashMap<String, (String, usize, usize)>,
}

impl Earlier {
    fn new(ir: &CaseIr, home: &[usize]) -> Earlier {
        let mut events = std::collections::HashMap::new();
        for (j, (f, &h)) in ir.facts.iter().zip(home).enumerate() {
            if let Fact::Event(e) = f {
                if let (Some(kind), Term::Value(Value::Name(id))) = (e.kind, &e.id) {
                    events.entry(id.clone()).or_insert((kind.as_str().to_string(), h, j));
                }
            }
        }
        Earlier { events }
    }

    /// `prev_KIND` for `id` from sentence `at`, if an earlier sentence
    /// declares it and no later event of its kind comes between.
    fn reference(&self, id: &str, at: usize) -> Option<String> {
        let (kind, h, j) = self.events.get(id)?;
        let shadowed = self.events.values().any(|(k, h2, j2)| k == kind && *h2 < at && (*h2, *j2) > (*h, *j));
        (*h < at && !shadowed).then(|| format!("{PREVIOUS}{kind}"))
    }

    /// `f` (of sentence `at`) with such references written `prev_KIND`.
    fn write_references(&self, f: &Fact, at: usize) -> Fact {
        let term = |t: &Term| match t {
            Term::Value(Value::Name(n)) => self.reference(n, at).map_or_else(|| t.clone(), |r| Term::Value(Value::Name(r))),
            t => t.clone(),
        };
        match f {
            Fact::Event(e) => {
                let mut e = e.clone();
                e.roles = e.roles.iter().map(|(r, t)| (*r, term(t))).collect();
                Fact::Event(e)
            }
            Fact::Assert(a) => {
                let mut a = a.clone();
                a.args = a.args.iter().map(term).collect();
                Fact::Assert(a)
            }
            Fact::ForEach(g) => Fact::ForEach(ForEach { body: g.body.iter().map(|b| self.write_references(b, at)).collect(), ..g.clone() }),
        }
    }
}

/// Most combinations of sentence beams [`combine`] looks at, per reading
/// asked for, while it seeks readings that state no event twice.
const COMBINATIONS_PER_READING: usize = 64;

/// The k best whole-case readings (`cfg.readings` of them, where set)
/// from each unit's beams, best first by the sum of the units'
/// length-normalised scores (each unit's beams come in that order): every
/// unit's best beam, then the combinations that give up least. A reading
/// that states an event twice ([`restates_an_event`]), or whose query
/// names what neither `mentions` give nor its facts write
/// ([`asks_the_unnamed`]), or that `cfg.suspect` finds one no case can be,
/// comes after every reading that does none of these (among the first
/// `COMBINATIONS_PER_READING * k` combinations), so it is kept only where
/// too few others are found. A reading's log-probability is the sum of
/// its units'. Where no query beam ends, the readings keep their facts
/// and ask nothing.
fn combine(units: &[Vec<Beam>], query: &[Beam], mentions: &[Mention], cfg: &BeamConfig) -> Vec<Beam> {
    let (k, length_alpha) = (cfg.readings.unwrap_or(cfg.k), cfg.length_alpha);
    let no_query = [Beam { actions: Vec::new(), logprob: 0.0, text: String::new(), ir: CaseIr::default() }];
    let mut parts: Vec<&[Beam]> = units.iter().map(Vec::as_slice).collect();
    parts.push(if query.is_empty() { &no_query } else { query });
    if parts.iter().any(|p| p.is_empty()) {
        return Vec::new();
    }
    // Best-first over choice vectors (with their summed scores), each step
    // lowering one choice by one.
    let total = |c: &[usize]| c.iter().zip(&parts).map(|(&i, p)| normalized(p[i].logprob, p[i].actions.len(), length_alpha)).sum::<f64>();
    let logprob = |c: &[usize]| c.iter().zip(&parts).map(|(&i, p)| p[i].logprob).sum::<f64>();
    let first = vec![0; parts.len()];
    let mut seen: HashSet<Vec<usize>> = HashSet::from([first.clone()]);
    let mut frontier = vec![(total(&first), first)];
    let mut out = Vec::new();
    let mut demoted = Vec::new();
    let mut texts = HashSet::new();
    let mut looked_at = 0;
    while out.len() < k && !frontier.is_empty() && looked_at < COMBINATIONS_PER_READING * k {
        looked_at += 1;
        let best = (0..frontier.len()).max_by(|&a, &b| frontier[a].0.total_cmp(&frontier[b].0)).unwrap_or(0);
        let (_, choice) = frontier.swap_remove(best);
        let texts_chosen: Vec<&str> = choice.iter().zip(&parts).map(|(&i, p)| p[i].text.as_str()).collect();
        let (facts, query) = texts_chosen.split_at(units.len());
        let text = join(facts, query[0], cfg.event_slots.as_deref());
        if let Some(Ok(ir)) = text.as_deref().map(linear::parse) {
            let text = text.unwrap_or_default();
            if texts.insert(text.clone()) {
                let reading = Beam { actions: Vec::new(), logprob: logprob(&choice), text, ir };
                let suspect = cfg.suspect.as_ref().is_some_and(|s| (s.0)(&reading.ir));
                if suspect || restates_an_event(&reading.ir) || asks_the_unnamed(&reading.ir, mentions) {
                    demoted.push(reading);
                } else {
                    out.push(reading);
                }
            }
        }
        for u in 0..choice.len() {
            let mut next = choice.clone();
            next[u] += 1;
            if next[u] < parts[u].len() && seen.insert(next.clone()) {
                frontier.push((total(&next), next));
            }
        }
    }
    let room = k.saturating_sub(out.len());
    out.extend(demoted.into_iter().take(room));
    out
}

/// Whether a reading states one event twice: two events of one kind with
/// the same roles and values, as two sentences decoded apart may each
/// state (the grammar keeps one sentence's facts from it). SARA states an
/// event once; a group's events and events without roles (`plan e4`,
/// told apart by the facts naming them) are left alone.
pub fn restates_an_event(ir: &CaseIr) -> bool {
    let mut seen = HashSet::new();
    ir.facts.iter().any(|f| match f {
        Fact::Event(e) if !e.roles.is_empty() => {
            let mut roles: Vec<_> = e.roles.iter().map(|(r, t)| (*r, t)).collect();
            roles.sort_unstable();
            !seen.insert((e.kind, roles))
        }
        _ => false,
    })
}

/// The k best readings of a case by models trained on sentence units:
/// each sentence's facts and the question's query decoded apart, then
/// combined.
fn decode_by_sentence(ts: &[&Trained], text: &str, question: &str, cfg: &BeamConfig) -> Result<Vec<Beam>, ParserError> {
    let decode = |source: String, part: Part| decode_source(ts, &source, &BeamConfig { part, ..cfg.clone() });
    let mut units = Vec::new();
    for &(s, e) in &split(text) {
        units.push(decode(sentence_source(text, &text[s..e]), Part::Facts)?);
    }
    let source = source_text(text, question);
    let query = decode(source.clone(), Part::Query)?;
    Ok(combine(&units, &query, &extract(&source), cfg))
}

/// As [`decode_by_sentence`] for models of marked sentences: each model
/// encodes the case once, each sentence and the question marked in turn
/// (the question again by a query checkpoint of its own, where the model
/// has one). `askers` ask the question: `ts` themselves (`own_askers`),
/// or other models ([`decode_split`]).
fn decode_marked(ts: &[&Trained], askers: &[&Trained], own_askers: bool, text: &str, question: &str, cfg: &BeamConfig) -> Result<Vec<Beam>, ParserError> {
    let (Some(lead), Some(asker)) = (ts.first(), askers.first()) else { return Ok(Vec::new()) };
    let source = source_text(text, question);
    let all = extract(&source);
    let mut parts: Vec<((usize, usize), Part)> = split(text).into_iter().map(|r| (r, Part::Facts)).collect();
    parts.push((question_range(text, &source), Part::Query));
    let mentions: Vec<Vec<Mention>> = parts.iter().map(|&(range, _)| focused(all.clone(), range)).collect();
    let q = parts.len() - 1;
    let query_source = if asker.meta.train.schema_hint {
        let (Some(signatures), Some(places)) = (&cfg.signatures, &cfg.places) else {
            return Err(ParserError::Config("a model trained with schema_hint decodes with the solver's query signatures and places".into()));
        };
        format!("{source}{}", crate::schema::hint(&mentions[q], signatures, places))
    } else {
        source.clone()
    };
    let sources = parts
        .iter()
        .zip(&mentions)
        .enumerate()
        .map(|(i, (&(range, _), ms))| lead.tokenizer.encode(if i == q { &query_source } else { &source }, ms, Some(range)))
        .collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&crate::source::Source> = sources.iter().collect();
    // The facts' weights encode the question too unless a query checkpoint
    // or another model asks it.
    let encoded: Vec<_> = ts.iter().map(|t| tch::no_grad(|| t.model.encode(if t.query_model.is_some() || !own_askers { &refs[..q] } else { &refs }, t.device, false))).collect();
    let select = |t: &Trained, enc: &crate::model::Encoded, i: usize| enc.select(&tch::Tensor::from_slice(&[i as i64]).to(t.device));
    let mut beams = Vec::new();
    let facts = BeamConfig { part: Part::Facts, ..cfg.clone() };
    for (i, ms) in mentions[..q].iter().enumerate() {
        let own: Vec<_> = ts.iter().zip(&encoded).map(|(t, enc)| select(t, enc, i)).collect();
        let members: Vec<Member> = ts.iter().zip(&own).map(|(t, enc)| Member { model: &t.model, enc, vocab: &t.vocab }).collect();
        let (start, end) = parts[i].0;
        let sentence_names = facts.sentence_names && !crate::people::refers_back(&text[start..end]);
        beams.push(ensemble_search(&members, ms, BeamConfig { stated: stated_for(&facts, &source, ms), sentence_names, ..facts.clone() }));
    }
    let asked: Vec<_> = askers
        .iter()
        .enumerate()
        .map(|(i, t)| match (&t.query_model, own_askers) {
            (None, true) => select(t, &encoded[i], q),
            _ => tch::no_grad(|| t.model_for(Part::Query).encode(&refs[q..], t.device, false)),
        })
        .collect();
    let members: Vec<Member> = askers.iter().zip(&asked).map(|(t, enc)| Member { model: t.model_for(Part::Query), enc, vocab: &t.vocab }).collect();
    let query = ensemble_search(&members, &mentions[q], BeamConfig { part: Part::Query, ..cfg.clone() });
    Ok(combine(&beams, &query, &all, cfg))
}

/// The k best readings of a case, whatever unit the model was trained on.
pub fn decode_case(t: &Trained, text: &str, question: &str, cfg: &BeamConfig) -> Result<Vec<Beam>, ParserError> {
    decode_ensemble(&[t], text, question, cfg)
}

/// The k best readings of a case by an ensemble (the mean of its models'
/// probabilities at every step), all trained on the same unit.
pub fn decode_ensemble(ts: &[&Trained], text: &str, question: &str, cfg: &BeamConfig) -> Result<Vec<Beam>, ParserError> {
    decode_split(ts, ts, text, question, cfg)
}

/// As [`decode_ensemble`], the case's sentences read by `ts` and its
/// question asked by `askers` (by their query checkpoints, where they have
/// them): models of marked sentences, each with its own vocabulary.
pub fn decode_split(ts: &[&Trained], askers: &[&Trained], text: &str, question: &str, cfg: &BeamConfig) -> Result<Vec<Beam>, ParserError> {
    let (Some(lead), Some(asker)) = (ts.first(), askers.first()) else { return Err(ParserError::Config("an ensemble of no models, or no model to ask the question".into())) };
    let unit = lead.meta.train.unit;
    if ts.iter().chain(askers).any(|t| t.meta.train.unit != unit) {
        return Err(ParserError::Config("an ensemble's models must share their training unit (sentence or case)".into()));
    }
    if askers.iter().any(|t| t.meta.train.schema_hint != asker.meta.train.schema_hint) {
        return Err(ParserError::Config("an ensemble's models must all read the query schema (schema_hint) or none".into()));
    }
    let own_askers = same_models(ts, askers);
    match unit {
        Unit::MarkedSentence => decode_marked(ts, askers, own_askers, text, question, cfg),
        _ if !own_askers => Err(ParserError::Config("a question asked by other models than the sentences' needs models of marked sentences".into())),
        Unit::Sentence => decode_by_sentence(ts, text, question, cfg),
        Unit::Case => decode_source(ts, &source_text(text, question), cfg),
    }
}

/// Whether two lists hold the very same loaded models, in order.
fn same_models(a: &[&Trained], b: &[&Trained]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| std::ptr::eq(*x, *y))
}

/// The beams for one source text: its mentions, tokenized once (the
/// models share the MiniLM tokenizer), encoded by each model (by its query
/// checkpoint for the query), searched.
/// A sentence's facts (`Part::Facts`: the sentence in the question's
/// place) have its stated values to write ([`stated_values`]).
fn decode_source(ts: &[&Trained], source: &str, cfg: &BeamConfig) -> Result<Vec<Beam>, ParserError> {
    let mentions = extract(source);
    let stated = stated_for(cfg, source, &mentions);
    let Some(lead) = ts.first() else { return Ok(Vec::new()) };
    let src = lead.tokenizer.encode(source, &mentions, None)?;
    let models: Vec<&crate::model::Seq2Seq> = ts.iter().map(|t| t.model_for(cfg.part)).collect();
    let encoded: Vec<_> = ts.iter().zip(&models).map(|(t, m)| tch::no_grad(|| m.encode(&[&src], t.device, false))).collect();
    let members: Vec<Member> = ts.iter().zip(&models).zip(&encoded).map(|((t, m), enc)| Member { model: m, enc, vocab: &t.vocab }).collect();
    Ok(ensemble_search(&members, &mentions, BeamConfig { stated, ..cfg.clone() }))
}

/// The values a facts unit is penalised for leaving out: none unless the
/// penalty is on.
fn stated_for(cfg: &BeamConfig, source: &str, mentions: &[Mention]) -> Vec<lexlog_data::Value> {
    if cfg.part == Part::Facts && cfg.stated_penalty > 0.0 { stated_values(source, mentions) } else { Vec::new() }
}

/// A group's members as groups of their own, so that each aligns with the
/// sentence that states it: folding joins the facts of one range, though
/// two sentences give them ("From 2004 to 2019, Bob furnished the costs
/// ..." and "Charlie was a qualifying child of Bob under section 152(c)
/// from 2004 to 2019").
pub(crate) fn split_groups(ir: &CaseIr) -> CaseIr {
    let facts = ir
        .facts
        .iter()
        .flat_map(|f| match f {
            Fact::ForEach(g) if g.body.len() > 1 => {
                g.body.iter().map(|b| Fact::ForEach(ForEach { var: g.var.clone(), domain: g.domain.clone(), body: vec![b.clone()] })).collect()
            }
            f => vec![f.clone()],
        })
        .collect();
    CaseIr { facts, query: ir.query.clone() }
}

/// Adjacent groups of one variable and domain joined back into one.
fn merge_groups(facts: Vec<Fact>) -> Vec<Fact> {
    let mut out: Vec<Fact> = Vec::new();
    for f in facts {
        if let (Some(Fact::ForEach(last)), Fact::ForEach(g)) = (out.last_mut(), &f) {
            if last.var == g.var && last.domain == g.domain {
                last.body.extend(g.body.iter().cloned());
                continue;
            }
        }
        out.push(f);
    }
    out
}

/// The sentences of a text, as byte ranges: a sentence ends at `.`, `?` or
/// `!` followed by a space and a capital letter, or at the end.
pub fn split(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..bytes.len() {
        let ends = matches!(bytes[i], b'.' | b'?' | b'!')
            && bytes.get(i + 1) == Some(&b' ')
            && bytes.get(i + 2).is_some_and(|c| c.is_ascii_uppercase());
        if ends {
            out.push((start, i + 1));
            start = i + 2;
        }
    }
    if !text[start..].trim().is_empty() {
        out.push((start, text.trim_end().len()));
    }
    out
}

/// The values a fact names, apart from event ids (which the text never
/// spells): what ties it to a sentence.
fn values(f: &Fact, ids: &HashSet<String>, out: &mut Vec<Value>) {
    let term = |t: &Term, out: &mut Vec<Value>| match t {
        Term::Value(Value::Name(n)) if ids.contains(n) => {}
        Term::Value(Value::List(items)) => out.extend(items.iter().cloned()),
        Term::Value(v) => out.push(v.clone()),
        Term::Window { after, before } => out.extend([Value::Date(*after), Value::Date(*before)]),
        _ => {}
    };
    match f {
        Fact::Event(e) => e.roles.iter().for_each(|(_, t)| term(t, out)),
        Fact::Assert(a) => a.args.iter().for_each(|t| term(t, out)),
        Fact::ForEach(g) => {
            if let Domain::Range { from, to } = &g.domain {
                out.extend([Value::Int(*from), Value::Int(*to)]);
            }
            g.body.iter().for_each(|b| values(b, ids, out));
        }
    }
}

/// Word stems that cue an event kind beyond its own name's parts.
const CUES: &[(&str, &[&str])] = &[
    ("payment", &["pay", "paid", "wage", "salar", "contrib", "cost", "furnish", "spen", "maint"]),
    ("residence", &["live", "home", "house", "abode", "resid", "shar"]),
    ("income", &["earn", "income"]),
    ("service", &["work", "employ", "hire"]),
    ("birth", &["born"]),
    ("death", &["die", "dead"]),
    ("marriage", &["marri", "wed", "spouse"]),
    ("divorce", &["divorc"]),
    ("joint_return", &["joint"]),
    ("deduction", &["deduct"]),
];

/// Whether a sentence's words cue the fact: its event kind's name or cue
/// stems, or the words of its predicate.
fn cued(f: &Fact, words: &[String]) -> bool {
    let name = match f {
        Fact::Event(e) => e.kind.map(|k| k.as_str().to_string()),
        Fact::Assert(a) => Some(a.pred.as_str().to_string()),
        Fact::ForEach(g) => return g.body.iter().any(|b| cued(b, words)),
    };
    let Some(name) = name else { return false };
    let extra = CUES.iter().find(|(k, _)| *k == name).map_or(&[][..], |(_, c)| c);
    let stems: Vec<String> = name.split('_').filter(|p| p.len() >= 3).map(|p| p.chars().take(5).collect()).chain(extra.iter().map(|s| s.to_string())).collect();
    words.iter().any(|w| stems.iter().any(|s| w.starts_with(s.as_str())))
}

/// Whether a sentence cites the section a fact asserts, or one above or
/// below it ("under section 151(b)" for `s151_b_applies alice 2015`,
/// "section 151" for `s151 alice 2000 _ _ 2017`).
fn cites(f: &Fact, cited: &[SectionId]) -> bool {
    let a = match f {
        Fact::Assert(a) => a,
        Fact::ForEach(g) => return g.body.iter().any(|b| cites(b, cited)),
        Fact::Event(_) => return false,
    };
    let pred = a.pred.as_str();
    let Some(section) = SectionId::parse(pred.strip_suffix("_applies").unwrap_or(pred)) else { return false };
    cited.iter().any(|c| section.is_within(c) || c.is_within(&section))
}

/// Event ids a fact declares with a type, and ids it gives roles to
/// without one (`event e4 start=...`).
fn declared_and_extended(f: &Fact, declared: &mut Vec<String>, extended: &mut Vec<String>) {
    match f {
        Fact::Event(e) => {
            if let Some(id) = id_stem(&e.id) {
                if e.kind.is_some() { declared.push(id) } else { extended.push(id) }
            }
        }
        Fact::ForEach(g) => g.body.iter().for_each(|b| declared_and_extended(b, declared, extended)),
        Fact::Assert(_) => {}
    }
}

/// `e4` of `e4` and of `e4_{Y}`.
fn id_stem(t: &Term) -> Option<String> {
    match t {
        Term::Value(Value::Name(n)) => Some(n.clone()),
        Term::Concat(parts) => match parts.first() {
            Some(lexlog_data::Part::Lit(p)) => Some(p.trim_end_matches('_').to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// Which sentence of `text` each of `ir`'s facts comes from: the one that
/// mentions most of its values, a citation of an asserted section counting
/// as two, a cue word for its kind breaking ties (then the first); a fact
/// that only gives roles to events typed elsewhere goes with them, and one
/// that shares no value with any sentence goes with the fact before it.
pub fn align(text: &str, ir: &CaseIr) -> Vec<usize> {
    let spans = split(text);
    let found: Vec<Vec<Mention>> = spans.iter().map(|&(s, e)| extract(&text[s..e])).collect();
    let mentioned: Vec<Vec<Value>> = found.iter().map(|ms| ms.iter().map(|m| m.value.clone()).collect()).collect();
    let cited: Vec<Vec<SectionId>> = found.iter().map(|ms| ms.iter().filter_map(Mention::citation).filter_map(SectionId::parse).collect()).collect();
    // Each fact's event ids, typed there or extended (`event e4 ...`).
    let own: Vec<(Vec<String>, Vec<String>)> = ir
        .facts
        .iter()
        .map(|f| {
            let (mut d, mut x) = (Vec::new(), Vec::new());
            declared_and_extended(f, &mut d, &mut x);
            (d, x)
        })
        .collect();
    let ids: HashSet<String> = own.iter().flat_map(|(d, x)| d.iter().chain(x)).cloned().collect();
    let words: Vec<Vec<String>> = spans
        .iter()
        .map(|&(s, e)| text[s..e].split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect())
        .collect();
    let mut out: Vec<usize> = Vec::new();
    for f in &ir.facts {
        let mut vs = Vec::new();
        values(f, &ids, &mut vs);
        vs.sort();
        vs.dedup();
        let shared = |i: usize| vs.iter().filter(|v| mentioned[i].contains(v)).count() + 2 * usize::from(cites(f, &cited[i]));
        let score = |i: usize| 2 * shared(i) + usize::from(cued(f, &words[i]));
        let best = (0..spans.len()).max_by(|&a, &b| score(a).cmp(&score(b)).then(b.cmp(&a)));
        let pick = match best {
            Some(i) if score(i) > 1 => i,
            _ => out.last().copied().unwrap_or(0),
        };
        out.push(pick);
    }
    // Roles given to an event typed in another fact follow that fact.
    let mut home: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for ((d, _), &i) in own.iter().zip(&out) {
        for id in d {
            home.entry(id.clone()).or_insert(i);
        }
    }
    for ((d, x), slot) in own.iter().zip(out.iter_mut()) {
        if d.is_empty() {
            if let Some(&i) = x.first().and_then(|id| home.get(id)) {
                *slot = i;
            }
        }
    }
    // A fact naming an event of a later sentence goes with that event (ids
    // are local to a sentence); one of an earlier sentence names it
    // `prev_KIND`, if no later event of its kind comes between.
    let earlier = Earlier::new(ir, &out);
    for ((f, (d, _)), slot) in ir.facts.iter().zip(&own).zip(out.iter_mut()) {
        let mut named = Vec::new();
        referenced(f, &ids, &mut named);
        let elsewhere = named.iter().filter(|id| !d.contains(id)).filter(|id| earlier.reference(id, *slot).is_none());
        if let Some(&i) = elsewhere.filter_map(|id| home.get(id)).find(|&&i| i != *slot) {
            *slot = i;
        }
    }
    out
}

/// Event ids a fact's role values and arguments name.
fn referenced(f: &Fact, ids: &HashSet<String>, out: &mut Vec<String>) {
    let mut term = |t: &Term| {
        if let Term::Value(Value::Name(n)) = t {
            if ids.contains(n) {
                out.push(n.clone());
            }
        }
    };
    match f {
        Fact::Event(e) => e.roles.iter().for_each(|(_, t)| term(t)),
        Fact::Assert(a) => a.args.iter().for_each(term),
        Fact::ForEach(g) => g.body.iter().for_each(|b| referenced(b, ids, out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lexlog_data::linear::parse;

    #[test]
    fn units_split_a_case_and_combine_back() {
        let text = "Alice and Bob got married on Feb 3rd, 1992. Bob paid Alice $300 in 2017.";
        let ir = parse("marriage e1 agent=alice agent=bob start=1992-02-03\npayment e2 agent=bob patient=alice amount=300 start=2017-12-31 purpose=e1\nquery tax alice 2017\n").unwrap();
        let e = Example { id: "c".into(), source: source_text(text, "Q?"), mentions: Vec::new(), target: lex(&linear::print(&ir)), focus: None };
        let u = units(&[e]);
        assert_eq!(u.len(), 3);
        // The payment stays with its sentence, naming the marriage before.
        assert_eq!(render(&u[0].target).trim(), "marriage e1 agent = alice agent = bob start = 1992-02-03");
        assert!(render(&u[1].target).contains("payment e1 agent = bob") && render(&u[1].target).contains("purpose = prev_marriage"), "{}", render(&u[1].target));
        let joined = join(&[&render(&u[0].target), &render(&u[1].target)], &render(&u[2].target), None).unwrap();
        assert_eq!(linear::parse(&joined).unwrap(), ir);
        // No marriage before: the reference does not resolve.
        assert_eq!(join(&[&render(&u[1].target)], &render(&u[2].target), None), None);
        assert_eq!(render(&u[2].target).trim(), "query tax alice 2017");
        let beam = |t: &str, lp: f64| Beam { actions: Vec::new(), logprob: lp, text: t.into(), ir: parse(t).unwrap_or_default() };
        let one = vec![beam("marriage e1 agent=alice\n", -0.1), beam("death e1 agent=bob\n", -2.0)];
        let two = vec![beam("payment e1 agent=bob purpose=e1\n", -0.2), beam("", -0.5)];
        let q = vec![beam("query tax alice 2017\n", 0.0)];
        let c = combine(&[one.clone(), two.clone()], &q, &extract(text), &BeamConfig { k: 3, length_alpha: 0.6, ..Default::default() });
        assert_eq!(c.len(), 3);
        assert!(c[0].text.contains("marriage e1") && c[0].text.contains("payment e2 agent = bob purpose = e2"), "{}", c[0].text);
        assert!((c[1].logprob - -0.6).abs() < 1e-9 && (c[2].logprob - -2.2).abs() < 1e-9);
        assert!(c.windows(2).all(|w| w[0].logprob >= w[1].logprob));
        // More readings than k, where asked: every combination, best first.
        let all = combine(&[one.clone(), two], &q, &extract(text), &BeamConfig { k: 3, readings: Some(10), length_alpha: 0.6, ..Default::default() });
        assert_eq!(all.len(), 4, "two beams for each of two sentences");
        assert_eq!(all[..3].iter().map(|b| &b.text).collect::<Vec<_>>(), c.iter().map(|b| &b.text).collect::<Vec<_>>());
        // No query beam: the readings keep their facts and ask nothing.
        let facts_only = combine(std::slice::from_ref(&one), &[], &extract(text), &BeamConfig { k: 3, length_alpha: 0.6, ..Default::default() });
        assert_eq!(facts_only.iter().map(|b| &b.ir.facts).collect::<Vec<_>>(), one.iter().map(|b| &b.ir.facts).collect::<Vec<_>>());
        assert!(facts_only.iter().all(|b| b.ir.query.is_none()));
    }

    #[test]
    fn a_reading_that_states_an_event_twice_comes_last() {
        let beam = |t: &str, lp: f64| Beam { actions: Vec::new(), logprob: lp, text: t.into(), ir: parse(t).unwrap_or_default() };
        let one = vec![beam("residence e1 agent=bob patient=bob_s_house\n", -0.1)];
        let two = vec![beam("residence e1 patient=bob_s_house agent=bob\n", -0.1), beam("residence e1 agent=alice patient=bob_s_house\n", -0.5)];
        let q = vec![beam("query tax alice 2017\n", 0.0)];
        let cfg = |k| BeamConfig { k, length_alpha: 0.6, ..Default::default() };
        let alice = extract("Alice and Bob");
        let c = combine(&[one.clone(), two.clone()], &q, &alice, &cfg(2));
        assert_eq!(c.len(), 2);
        assert!(c[0].text.contains("agent = alice"), "Bob's residence is stated once first: {}", c[0].text);
        assert!(restates_an_event(&c[1].ir), "the better-scored reading that states it twice is kept after: {}", c[1].text);
        let only = combine(&[one.clone(), two[..1].to_vec()], &q, &alice, &cfg(2));
        assert_eq!(only.len(), 1, "where every reading states it twice, one is kept");
        assert!(!restates_an_event(&parse("plan e1\nplan e2\n").unwrap()), "events without roles are told apart by what names them");
        assert!(!restates_an_event(&parse("residence e1 agent=bob\nresidence e2 agent=alice\n").unwrap()));
        // So does one whose query names someone the case never mentions.
        let asked = vec![beam("query tax unnamed_husband 2017\n", 0.0), beam("query tax alice 2017\n", -1.0)];
        let c = combine(&[one], &asked, &alice, &cfg(2));
        assert!(c[0].text.contains("tax alice") && c[1].text.contains("unnamed_husband"), "{:?}", c.iter().map(|b| &b.text).collect::<Vec<_>>());
    }

    #[test]
    fn a_reading_the_suspect_test_flags_comes_after_the_others() {
        use crate::decode::Suspect;
        use std::sync::Arc;
        let beam = |t: &str, lp: f64| Beam { actions: Vec::new(), logprob: lp, text: t.into(), ir: parse(t).unwrap_or_default() };
        let one = vec![beam("marriage e1 agent=alice agent=bob start=2010-05-01\n", -0.1)];
        let two = vec![beam("marriage e1 agent=alice agent=bob start=2016-03-03\n", -0.1), beam("divorce e1 agent=alice agent=bob start=2016-03-03\n", -0.9)];
        let q = vec![beam("query tax alice 2017\n", 0.0)];
        let alice = extract("Alice and Bob");
        // (A stand-in for the solver's checks: two marriages of one couple.)
        let twice = Suspect(Arc::new(|ir: &CaseIr| ir.facts.iter().filter(|f| matches!(f, Fact::Event(e) if e.kind == Some(lexlog_data::EventKind::Marriage))).count() > 1));
        let cfg = |suspect| BeamConfig { k: 2, length_alpha: 0.6, suspect, ..Default::default() };
        let plain = combine(&[one.clone(), two.clone()], &q, &alice, &cfg(None));
        assert!(plain[0].text.contains("start = 2016-03-03") && plain[0].text.matches("marriage").count() == 2, "{}", plain[0].text);
        let c = combine(&[one, two], &q, &alice, &cfg(Some(twice)));
        assert_eq!(c.len(), 2);
        assert!(c[0].text.contains("divorce"), "the consistent reading first: {}", c[0].text);
        assert_eq!(c[1].text, plain[0].text, "the flagged one kept after it");
    }

    #[test]
    fn a_maintained_home_aligns_its_payments() {
        let text = "Alice and Bob got married on April 5th, 2012. Alice's son Bob was born on September 16th, 2017. \
                    Alice lives in a home maintained by Alice since September 16th, 2017.";
        let ir = parse(
            "marriage e1 agent=alice agent=bob start=2012-04-05\nson e2 agent=bob patient=alice start=2017-09-16\n\
             payment e3 agent=alice amount=1 purpose=alice_s_house start=2017-09-16 end=2017-12-31\n\
             for Y in 2018..2117 {\n payment e4_{Y} agent=alice amount=1 purpose=alice_s_house start=first_day(Y) end=last_day(Y)\n}\n",
        )
        .unwrap();
        // Names and dates tie the payments to every sentence: "maintained" cues them.
        assert_eq!(align(text, &ir), vec![0, 1, 2, 2]);
    }

    #[test]
    fn an_assertion_aligns_with_the_sentence_citing_its_section() {
        let text = "In 2017, Alice was paid $33200. She is allowed deductions under section 151 of $2000 for the year 2017. \
                    Alice is entitled to a deduction for Bob under section 151(b).";
        let ir = parse("payment e1 patient=alice start=2017-12-31 amount=33200\ns151 alice 2000 _ _ 2017\ns151_b_applies alice bob 2017\n").unwrap();
        // Alice and 2017 tie the first assertion to the first sentence too;
        // the citation decides, and "151(b)" takes the fact of 151(b).
        assert_eq!(align(text, &ir), vec![0, 1, 2]);
        // A citation outweighs a name the sentence only says as "she".
        let text = "In 2017, Alice was paid $33200. She takes no deduction under section 151 for 2017.";
        let ir = parse("payment e1 patient=alice start=2017-12-31 amount=33200\ns151 alice 0 _ _ 2017\n").unwrap();
        assert_eq!(align(text, &ir), vec![0, 1]);
    }

    #[test]
    fn sentences_end_at_a_stop_before_a_capital() {
        let text = "Alice paid $1,200 on Feb 3rd, 2015. Bob was born in 1950. He lives in the U.S.";
        let s: Vec<&str> = split(text).into_iter().map(|(a, b)| &text[a..b]).collect();
        assert_eq!(s, ["Alice paid $1,200 on Feb 3rd, 2015.", "Bob was born in 1950.", "He lives in the U.S."]);
    }

    #[test]
    fn facts_go_to_the_sentence_that_names_their_values() {
        let text = "Alice and Bob got married on Feb 3rd, 1992. Bob paid Alice $300 in 2017. Alice is blind.";
        let ir = parse(
            "payment e1 agent=bob patient=alice amount=300 start=2017-12-31\nmarriage e2 agent=alice agent=bob start=1992-02-03\n\
             blindness e3 agent=alice\nquery tax alice 2017\n",
        )
        .unwrap();
        // `blindness` names only alice, as all three do: "blind" cues it.
        assert_eq!(align(text, &ir), vec![1, 0, 2]);
    }
}

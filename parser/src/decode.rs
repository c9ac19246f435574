//! Batched beam search, apart from the model: k-best action sequences with
//! length normalisation, constrained by [`crate::grammar`] so that every
//! returned beam reads back as a well-formed IR.

use crate::model::{Encoded, Seq2Seq};
use crate::grammar::{expected_part, Part, SharedPlaces, Signatures};
use crate::target::{render, Token, Vocab, BOS, EOS, PAD, UNK};
use crate::mentions::{Mention, MentionKind};
use crate::query_events::EventSlots;
use crate::schema::PlaceNames;
use lexlog_data::{linear, CaseIr, Value};
use std::sync::Arc;
use tch::{Kind, Tensor};

/// Changes whenever decoding may give other beams (cached beams of an older
/// version are not reused).
pub const VERSION: u32 = 41;

/// The most actions a query search runs to. SARA's longest query is 17
/// actions; a search where fewer than k hypotheses end would otherwise
/// run on to `max_len`, a facts unit's bound, to end nothing or a query of
/// hundreds of actions (five dev queries of the main model took 12 of a
/// training epoch's 15 s of decoded dev queries so).
pub const QUERY_MAX_LEN: usize = 64;

/// One finished hypothesis.
#[derive(Debug, Clone)]
pub struct Beam {
    pub actions: Vec<i64>,
    /// Sum of the actions' log-probabilities.
    pub logprob: f64,
    /// The linear form it reads as, and the IR.
    pub text: String,
    pub ir: CaseIr,
}

#[derive(Debug, Clone)]
pub struct BeamConfig {
    pub k: usize,
    /// How many whole readings a model of sentence units keeps from the
    /// combinations of its units' k beams (`None`: k). More than k is a
    /// probe: whether the gold reading is among the combinations at all.
    pub readings: Option<usize>,
    pub max_len: usize,
    /// Scores are logprob / len^alpha.
    pub length_alpha: f64,
    /// Signatures of the predicates a query may ask (from the solver's
    /// rules): when given, a query goal names a known predicate with one of
    /// its arities, each argument of its type.
    pub signatures: Option<Arc<Signatures>>,
    /// What the output is: a whole case, one sentence's facts, the query.
    pub part: Part,
    /// A query's names are ones the question mentions
    /// ([`crate::grammar::Expected::names_from_question`]).
    pub query_names_from_question: bool,
    /// A sentence's facts name only people it mentions, unless it refers
    /// back ([`crate::grammar::Expected::sentence_names`],
    /// [`crate::people::refers_back`]); models of marked sentences only.
    pub sentence_names: bool,
    /// A query names only years the question mentions
    /// ([`crate::grammar::Expected::years_from_question`]).
    pub query_years_from_question: bool,
    /// The event kinds of the query predicates' places (from the solver's
    /// rules): when given, a joined case's query names events of those
    /// kinds where its facts declare one ([`crate::query_events`]).
    pub event_slots: Option<Arc<EventSlots>>,
    /// When given, a query goal names a person in one place only, but
    /// where a rule's head shares the places
    /// ([`crate::grammar::Expected::distinct_values`]).
    pub shared_places: Option<Arc<SharedPlaces>>,
    /// The dollar amounts and percentages the unit's sentence states
    /// ([`stated_values`]); set per unit by [`crate::sentences`].
    pub stated: Vec<Value>,
    /// What a finished beam loses, in length-normalised score, for each
    /// value of `stated` it does not write (0: nothing).
    pub stated_penalty: f64,
    /// Which beams lose it.
    pub stated_scope: StatedScope,
    /// A query goal with a year's place names a year the question
    /// mentions ([`crate::grammar::Expected::asked_year`]); where no beam
    /// can, the search runs again without it.
    pub asked_year: bool,
    /// A citing question's query ends only once a goal asks the nearest
    /// section at or above the cited one that the rules define
    /// ([`crate::grammar::Expected::nearest_section`]); where no beam can,
    /// the search runs again without it, then without `asked_year` too.
    pub nearest_section: bool,
    /// The places the rules document for each query predicate: a model
    /// trained with `schema_hint` reads them after the question
    /// ([`crate::schema`]).
    pub places: Option<Arc<PlaceNames>>,
    /// Whether a whole reading is one no case can be (the solver's
    /// consistency checks): such readings come after the others
    /// ([`crate::sentences`]).
    pub suspect: Option<Suspect>,
}

/// A test of a whole reading, given from outside the parser.
#[derive(Clone)]
pub struct Suspect(pub Arc<dyn Fn(&CaseIr) -> bool + Send + Sync>);

impl std::fmt::Debug for Suspect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Suspect(..)")
    }
}

/// Which finished beams lose [`BeamConfig::stated_penalty`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum StatedScope {
    /// Every beam that leaves a stated value unwritten.
    Always,
    /// Only a beam that also writes an amount its sentence does not state
    /// (`amount = 1` where the sentence says 40 %): one stated value put
    /// in another's place. A beam that writes no amount is left alone,
    /// as SARA leaves some stated deductions out.
    #[default]
    Replaced,
}

impl Default for BeamConfig {
    fn default() -> Self {
        BeamConfig { k: 8, readings: None, max_len: 512, length_alpha: 0.6, signatures: None, part: Part::Whole, query_names_from_question: false, sentence_names: false, query_years_from_question: false, event_slots: None, shared_places: None, stated: Vec::new(), stated_penalty: 0.0, stated_scope: StatedScope::default(), asked_year: true, nearest_section: true, places: None, suspect: None }
    }
}

/// The values that `mentions` (focused on a sentence: `in_question`)
/// give inside the sentence as dollar amounts or percentages, in
/// `source`. A sentence's facts nearly always write them: 299 of the 310
/// such values of the train split's gold sentence units.
pub fn stated_values(source: &str, mentions: &[Mention]) -> Vec<Value> {
    let percent = |m: &Mention| m.spans().any(|(s, e)| source.get(s..e).is_some_and(|w| w.contains('%')) || source.get(e..).is_some_and(|r| r.trim_start().starts_with("percent")));
    mentions
        .iter()
        .filter(|m| m.in_question && (m.kind == MentionKind::Amount || (m.kind == MentionKind::Number && percent(m))))
        .map(|m| m.value.clone())
        .collect()
}

/// How many of `stated` the tokens of a beam leave unwritten.
fn unwritten(stated: &[Value], tokens: &[Token]) -> usize {
    stated.iter().filter(|v| !tokens.iter().any(|t| matches!(t, Token::Value(x) if x == *v))).count()
}

/// Whether the tokens write an `amount` of a value not in `stated`.
fn writes_unstated_amount(stated: &[Value], tokens: &[Token]) -> bool {
    tokens.windows(3).any(|w| matches!(w, [Token::Sym(role), Token::Sym(eq), Token::Value(v)] if role == "amount" && eq == "=" && !stated.contains(v)))
}

/// How many stated values a finished beam is penalised for.
fn penalised(cfg: &BeamConfig, tokens: &[Token]) -> usize {
    match cfg.stated_scope {
        StatedScope::Replaced if !writes_unstated_amount(&cfg.stated, tokens) => 0,
        _ => unwritten(&cfg.stated, tokens),
    }
}

/// A hypothesis's score: its log-probability over its length^alpha.
pub fn normalized(logprob: f64, len: usize, alpha: f64) -> f64 {
    logprob / (len.max(1) as f64).powf(alpha)
}

fn tokens_of(actions: &[i64], vocab: &Vocab, mentions: &[Mention]) -> Option<Vec<Token>> {
    let v = vocab.len() as i64;
    let acts: Vec<crate::target::Action> = actions
        .iter()
        .map(|&a| if a < v { crate::target::Action::Vocab(a as u32) } else { crate::target::Action::Copy((a - v) as u32) })
        .collect();
    vocab.decode(&acts, mentions)
}

/// One model of an ensemble as the search sees it: the model, the case as
/// it encoded it, and its vocabulary.
#[derive(Clone, Copy)]
pub struct Member<'a> {
    pub model: &'a Seq2Seq,
    pub enc: &'a Encoded,
    pub vocab: &'a Vocab,
}

/// How the first member's actions read in another member's: the column
/// of each of them in the member's scores (its last column, set to -inf,
/// for a token it lacks), and the action fed back to it (UNK then).
struct ActionMap {
    columns: Tensor,
    fed: Vec<i64>,
    vocab: i64,
}

impl ActionMap {
    fn new(lead: &Vocab, member: &Vocab, n_mentions: i64, device: tch::Device) -> ActionMap {
        let (v, missing) = (member.len() as i64, member.len() as i64 + n_mentions);
        let ids: Vec<Option<i64>> = lead.tokens.iter().map(|t| member.id(t).map(i64::from)).collect();
        let columns: Vec<i64> = ids.iter().map(|id| id.unwrap_or(missing)).chain((0..n_mentions).map(|m| v + m)).collect();
        let fed = ids.iter().map(|id| id.unwrap_or(UNK as i64)).collect();
        ActionMap { columns: Tensor::from_slice(&columns).to(device), fed, vocab: v }
    }

    /// The member's scores in the first member's action order.
    fn scores(&self, logp: &Tensor) -> Tensor {
        let n = logp.size()[0];
        let pad = Tensor::full([n, 1], f64::NEG_INFINITY, (logp.kind(), logp.device()));
        Tensor::cat(&[logp, &pad], 1).index_select(1, &self.columns)
    }

    /// The member's own id for the first member's action `a`.
    fn feed(&self, a: i64) -> i64 {
        let lead = self.fed.len() as i64;
        if a < lead { self.fed[a as usize] } else { self.vocab + a - lead }
    }
}

/// The k best readable beams for one encoded case (`enc` of batch 1),
/// decoded incrementally (cached keys and values), beams in one batch.
pub fn beam_search(model: &Seq2Seq, enc: &Encoded, vocab: &Vocab, mentions: &[Mention], cfg: BeamConfig) -> Vec<Beam> {
    ensemble_search(&[Member { model, enc, vocab }], mentions, cfg)
}

/// [`beam_search`] over several models at once: each next action's
/// probability is the mean of the members' (the first member's vocabulary
/// names the actions; a token only another member knows is never chosen).
/// One member gives exactly [`beam_search`]'s beams. A query that no
/// beam can end under every rule is searched again without
/// [`BeamConfig::nearest_section`], then without
/// [`BeamConfig::asked_year`] too. A query search runs to
/// [`QUERY_MAX_LEN`] actions at most.
pub fn ensemble_search(members: &[Member], mentions: &[Mention], cfg: BeamConfig) -> Vec<Beam> {
    let cfg = if cfg.part == Part::Query { BeamConfig { max_len: cfg.max_len.min(QUERY_MAX_LEN), ..cfg } } else { cfg };
    let beams = search(members, mentions, &cfg);
    if !beams.is_empty() || cfg.part == Part::Facts {
        return beams;
    }
    let beams = if cfg.nearest_section { search(members, mentions, &BeamConfig { nearest_section: false, ..cfg.clone() }) } else { beams };
    if beams.is_empty() && cfg.asked_year {
        return search(members, mentions, &BeamConfig { asked_year: false, nearest_section: false, ..cfg });
    }
    beams
}

/// One constrained search, as [`ensemble_search`] describes it.
fn search(members: &[Member], mentions: &[Mention], cfg: &BeamConfig) -> Vec<Beam> {
    let Some(lead) = members.first() else { return Vec::new() };
    let (model, enc, vocab) = (lead.model, lead.enc, lead.vocab);
    let device = enc.states.device();
    let n_mentions = mentions.len() as i64;
    let v = vocab.len() as i64;
    let maps: Vec<ActionMap> = members[1..].iter().map(|m| ActionMap::new(vocab, m.vocab, n_mentions, device)).collect();
    let score = |lp: f64, len: usize| normalized(lp, len, cfg.length_alpha);
    // Live hypotheses: actions (after BOS), tokens, log-probability.
    let mut live: Vec<(Vec<i64>, Vec<Token>, f64)> = vec![(vec![], vec![], 0.0)];
    let mut state = model.start(enc, 1);
    let mut others: Vec<_> = members[1..].iter().map(|m| m.model.start(m.enc, 1)).collect();
    let mut last: Vec<i64> = vec![BOS as i64];
    let mut done: Vec<Beam> = Vec::new();
    tch::no_grad(|| {
        for _ in 0..cfg.max_len {
            if live.is_empty() {
                break;
            }
            let mut logp = model.step(&mut state, &Tensor::from_slice(&last).to(device));
            if !maps.is_empty() {
                let mut all = vec![logp];
                for ((m, map), st) in members[1..].iter().zip(&maps).zip(&mut others) {
                    let fed: Vec<i64> = last.iter().map(|&a| map.feed(a)).collect();
                    all.push(map.scores(&m.model.step(st, &Tensor::from_slice(&fed).to(device))));
                }
                logp = Tensor::stack(&all, 0).logsumexp([0], false) - (all.len() as f64).ln();
            }
            let width = logp.size()[1] as usize;
            let logp: Vec<f64> = Vec::<f64>::try_from(logp.to_kind(Kind::Double).flatten(0, -1)).unwrap_or_default();
            let mut cands: Vec<(f64, usize, i64, Token)> = Vec::new();
            for (b, (actions, prefix, lp)) in live.iter().enumerate() {
                let row = &logp[b * width..(b + 1) * width];
                let grammar = expected_part(prefix, cfg.signatures.as_deref(), cfg.part).names_from_question(cfg.query_names_from_question).sentence_names(cfg.sentence_names).years_from_question(cfg.query_years_from_question).distinct_values(cfg.shared_places.as_deref()).asked_year(cfg.asked_year).nearest_section(cfg.nearest_section);
                let mut order: Vec<usize> = (0..width).collect();
                order.sort_by(|&x, &y| row[y].total_cmp(&row[x]));
                let mut taken = 0;
                for a in order.into_iter().map(|a| a as i64) {
                    if taken >= cfg.k {
                        break;
                    }
                    if (a < v && matches!(a as u32, PAD | BOS | UNK)) || a >= v + n_mentions {
                        continue;
                    }
                    let total = lp + row[a as usize];
                    if a == EOS as i64 {
                        if !grammar.allows_end() {
                            continue;
                        }
                        // The penalty, scaled so that it comes off the
                        // normalised score whole (the beam's log-probability
                        // then includes it).
                        let missed = if cfg.stated.is_empty() { 0.0 } else { penalised(cfg, prefix) as f64 };
                        let total = total - cfg.stated_penalty * missed * ((actions.len() + 1) as f64).powf(cfg.length_alpha);
                        let text = render(prefix);
                        // The grammar lets only readable outputs end; the
                        // reader has the last word all the same.
                        if let Ok(ir) = linear::parse(&text) {
                            let mut acts = actions.clone();
                            acts.push(a);
                            done.push(Beam { actions: acts, logprob: total, text, ir });
                        }
                        continue;
                    }
                    let Some(next) = tokens_of(&[a], vocab, mentions).and_then(|t| t.into_iter().next()) else { continue };
                    let copy = (a >= v).then(|| (a - v) as usize);
                    if !grammar.allows_from(&next, mentions, copy) {
                        continue;
                    }
                    cands.push((total, b, a, next));
                    taken += 1;
                }
            }
            cands.sort_by(|x, y| score(y.0, live[y.1].0.len() + 1).total_cmp(&score(x.0, live[x.1].0.len() + 1)));
            cands.truncate(cfg.k);
            if cands.is_empty() {
                break;
            }
            let parents: Vec<i64> = cands.iter().map(|c| c.1 as i64).collect();
            let parents = Tensor::from_slice(&parents).to(device);
            state.reorder(&parents);
            for st in &mut others {
                st.reorder(&parents);
            }
            last = cands.iter().map(|c| c.2).collect();
            live = cands
                .into_iter()
                .map(|(lp, b, a, tok)| {
                    let (mut acts, mut toks) = (live[b].0.clone(), live[b].1.clone());
                    acts.push(a);
                    toks.push(tok);
                    (acts, toks, lp)
                })
                .collect();
            // Stop once k beams are done and no live beam can beat the worst.
            if done.len() >= cfg.k {
                done.sort_by(|x, y| score(y.logprob, y.actions.len()).total_cmp(&score(x.logprob, x.actions.len())));
                done.truncate(cfg.k);
                let worst = score(done[cfg.k - 1].logprob, done[cfg.k - 1].actions.len());
                if live.iter().all(|(a, _, lp)| score(*lp, a.len() + 1) < worst) {
                    break;
                }
            }
        }
    });
    done.sort_by(|x, y| score(y.logprob, y.actions.len()).total_cmp(&score(x.logprob, x.actions.len())));
    let mut seen = std::collections::HashSet::new();
    done.retain(|b| seen.insert(b.text.clone()));
    done.truncate(cfg.k);
    done
}


#[cfg(test)]
mod tests {
    use super::*;
    use crate::mentions::{extract, focused};

    #[test]
    fn a_sentence_states_its_amounts_and_percentages_not_its_years_or_counts() {
        let text = "Alice has 2 children. Alice furnished 40% of the costs, and Bob the remaining 60 percent, since 2017. Bob was paid $1,200.";
        let second = (22, text.find(" Bob was").unwrap());
        let stated = stated_values(text, &focused(extract(text), second));
        assert_eq!(stated, vec![Value::Int(40), Value::Int(60)]);
        let third = (second.1 + 1, text.len());
        assert_eq!(stated_values(text, &focused(extract(text), third)), vec![Value::Int(1200)]);
        assert!(stated_values(text, &focused(extract(text), (0, 21))).is_empty());
    }

    #[test]
    fn a_value_counts_as_written_wherever_the_beam_writes_it() {
        let stated = [Value::Int(40), Value::Int(60)];
        let tokens = crate::target::lex("payment e1 agent = alice amount = 40");
        assert_eq!(unwritten(&stated, &tokens), 1);
        assert_eq!(unwritten(&stated, &crate::target::lex("payment e1 amount = 60 payment e2 amount = 40")), 0);
    }

    #[test]
    fn only_a_beam_that_writes_another_amount_replaced_a_stated_one() {
        let stated = vec![Value::Int(40), Value::Int(60)];
        let cfg = |scope| BeamConfig { stated: stated.clone(), stated_scope: scope, ..Default::default() };
        let one = crate::target::lex("payment e1 agent = alice amount = 1");
        let none = crate::target::lex("payment e1 agent = alice");
        assert_eq!(penalised(&cfg(StatedScope::Replaced), &one), 2);
        assert_eq!(penalised(&cfg(StatedScope::Replaced), &none), 0);
        assert_eq!(penalised(&cfg(StatedScope::Always), &none), 2);
    }
}

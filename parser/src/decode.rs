//! Batched beam search, apart from the model: k-best action sequences with
//! length normalisation, constrained by [`crate::grammar`] so that every
//! returned beam reads back as a well-formed IR.

use crate::model::{Encoded, Seq2Seq};
use crate::grammar::{expected_part, Part, Signatures};
use crate::target::{render, Token, Vocab, BOS, EOS, PAD, UNK};
use crate::mentions::Mention;
use lexlog_data::{linear, CaseIr};
use std::sync::Arc;
use tch::{Kind, Tensor};

/// Changes whenever decoding may give other beams (cached beams of an older
/// version are not reused).
pub const VERSION: u32 = 11;

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
    pub max_len: usize,
    /// Scores are logprob / len^alpha.
    pub length_alpha: f64,
    /// Signatures of the predicates a query may ask (from the solver's
    /// rules): when given, a query goal names a known predicate with one of
    /// its arities, each argument of its type.
    pub signatures: Option<Arc<Signatures>>,
    /// What the output is: a whole case, one sentence's facts, the query.
    pub part: Part,
}

impl Default for BeamConfig {
    fn default() -> Self {
        BeamConfig { k: 8, max_len: 512, length_alpha: 0.6, signatures: None, part: Part::Whole }
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

/// The k best readable beams for one encoded case (`enc` of batch 1),
/// decoded incrementally (cached keys and values), beams in one batch.
pub fn beam_search(model: &Seq2Seq, enc: &Encoded, vocab: &Vocab, mentions: &[Mention], cfg: BeamConfig) -> Vec<Beam> {
    let device = enc.states.device();
    let n_mentions = mentions.len() as i64;
    let v = vocab.len() as i64;
    let score = |lp: f64, len: usize| normalized(lp, len, cfg.length_alpha);
    // Live hypotheses: actions (after BOS), tokens, log-probability.
    let mut live: Vec<(Vec<i64>, Vec<Token>, f64)> = vec![(vec![], vec![], 0.0)];
    let mut state = model.start(enc, 1);
    let mut last: Vec<i64> = vec![BOS as i64];
    let mut done: Vec<Beam> = Vec::new();
    tch::no_grad(|| {
        for _ in 0..cfg.max_len {
            if live.is_empty() {
                break;
            }
            let logp = model.step(&mut state, &Tensor::from_slice(&last).to(device));
            let width = logp.size()[1] as usize;
            let logp: Vec<f64> = Vec::<f64>::try_from(logp.to_kind(Kind::Double).flatten(0, -1)).unwrap_or_default();
            let mut cands: Vec<(f64, usize, i64, Token)> = Vec::new();
            for (b, (actions, prefix, lp)) in live.iter().enumerate() {
                let row = &logp[b * width..(b + 1) * width];
                let grammar = expected_part(prefix, cfg.signatures.as_deref(), cfg.part);
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
            state.reorder(&Tensor::from_slice(&parents).to(device));
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


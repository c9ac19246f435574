//! Sentence by sentence: a case's text split into sentences, and each gold
//! fact aligned to the sentence that states it, by the values (names,
//! amounts, dates, years) they share. SARA's tax cases were written by
//! joining entailment cases, so a model that parses one sentence at a time,
//! reading the whole text for context, sees shorter, more regular targets.

use crate::decode::{ensemble_search, normalized, Beam, BeamConfig, Member};
use crate::example::{source_text, Example};
use crate::grammar::Part;
use crate::mentions::{extract, Mention, QUESTION_MARKER};
use crate::target::{lex, max_event, render, shift_events};
use crate::train::Trained;
use crate::ParserError;
use lexlog_data::{linear, CaseIr, Domain, Fact, SectionId, Term, Value};
use std::collections::HashSet;

/// What the model reads for one sentence: the whole text, then the
/// sentence in the question's place (its mentions are flagged as focus).
pub fn sentence_source(text: &str, sentence: &str) -> String {
    source_text(text, &format!("Which facts does this sentence state? {sentence}"))
}

/// A case's examples one unit at a time: each sentence with its aligned
/// facts (ids numbered within the sentence), and the question with the
/// query alone (ids as in the whole case).
pub fn units(cases: &[Example]) -> Vec<Example> {
    let mut out = Vec::new();
    for e in cases {
        let Some((text, question)) = e.source.split_once(QUESTION_MARKER) else { continue };
        let Ok(ir) = linear::parse(&render(&e.target)) else { continue };
        let home = align(text, &ir);
        for (i, &(s, t)) in split(text).iter().enumerate() {
            let facts: Vec<Fact> = ir.facts.iter().zip(&home).filter(|(_, &h)| h == i).map(|(f, _)| f.clone()).collect();
            let part = linear::canonical_ids(&CaseIr { facts, query: None });
            let source = sentence_source(text, &text[s..t]);
            out.push(Example { id: format!("{}#{i}", e.id), mentions: extract(&source), source, target: lex(&linear::print(&part)) });
        }
        let query = CaseIr { facts: Vec::new(), query: ir.query.clone() };
        let source = source_text(text, question);
        out.push(Example { id: format!("{}#query", e.id), mentions: extract(&source), source, target: lex(&linear::print(&query)) });
    }
    out
}

/// One case's linear form from its sentences' facts (ids numbered within
/// each) and its query: ids shifted past the sentences before.
pub fn join(facts: &[&str], query: &str) -> String {
    let mut tokens = Vec::new();
    let mut offset = 0;
    for text in facts {
        let own = lex(text);
        tokens.extend(shift_events(&own, offset));
        offset += max_event(&own);
    }
    tokens.extend(lex(query));
    render(&tokens)
}

/// The k best whole-case readings from each unit's beams, best first by
/// the sum of the units' length-normalised scores (each unit's beams come
/// in that order): every unit's best beam, then the combinations that give
/// up least. A reading's log-probability is the sum of its units'.
fn combine(units: &[Vec<Beam>], query: &[Beam], k: usize, length_alpha: f64) -> Vec<Beam> {
    let mut parts: Vec<&[Beam]> = units.iter().map(Vec::as_slice).collect();
    parts.push(query);
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
    let mut texts = HashSet::new();
    while out.len() < k && !frontier.is_empty() {
        let best = (0..frontier.len()).max_by(|&a, &b| frontier[a].0.total_cmp(&frontier[b].0)).unwrap_or(0);
        let (_, choice) = frontier.swap_remove(best);
        let texts_chosen: Vec<&str> = choice.iter().zip(&parts).map(|(&i, p)| p[i].text.as_str()).collect();
        let (facts, query) = texts_chosen.split_at(units.len());
        let text = join(facts, query[0]);
        if let Ok(ir) = linear::parse(&text) {
            if texts.insert(text.clone()) {
                out.push(Beam { actions: Vec::new(), logprob: logprob(&choice), text, ir });
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
    out
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
    let query = decode(source_text(text, question), Part::Query)?;
    Ok(combine(&units, &query, cfg.k, cfg.length_alpha))
}

/// The k best readings of a case, whatever unit the model was trained on.
pub fn decode_case(t: &Trained, text: &str, question: &str, cfg: &BeamConfig) -> Result<Vec<Beam>, ParserError> {
    decode_ensemble(&[t], text, question, cfg)
}

/// The k best readings of a case by an ensemble (the mean of its models'
/// probabilities at every step), all trained on the same unit.
pub fn decode_ensemble(ts: &[&Trained], text: &str, question: &str, cfg: &BeamConfig) -> Result<Vec<Beam>, ParserError> {
    let Some(lead) = ts.first() else { return Err(ParserError::Config("an ensemble of no models".into())) };
    let unit = lead.meta.train.unit;
    if ts.iter().any(|t| t.meta.train.unit != unit) {
        return Err(ParserError::Config("an ensemble's models must share their training unit (sentence or case)".into()));
    }
    match unit {
        crate::config::Unit::Sentence => decode_by_sentence(ts, text, question, cfg),
        crate::config::Unit::Case => decode_source(ts, &source_text(text, question), cfg),
    }
}

/// The beams for one source text: its mentions, tokenized once (the
/// models share the MiniLM tokenizer), encoded by each model, searched.
fn decode_source(ts: &[&Trained], source: &str, cfg: &BeamConfig) -> Result<Vec<Beam>, ParserError> {
    let mentions = extract(source);
    let Some(lead) = ts.first() else { return Ok(Vec::new()) };
    let src = lead.tokenizer.encode(source, &mentions)?;
    let encoded: Vec<_> = ts.iter().map(|t| tch::no_grad(|| t.model.encode(&[&src], t.device, false))).collect();
    let members: Vec<Member> = ts.iter().zip(&encoded).map(|(t, enc)| Member { model: &t.model, enc, vocab: &t.vocab }).collect();
    Ok(ensemble_search(&members, &mentions, cfg.clone()))
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
    if text[start..].trim().len() > 0 {
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
    let Fact::Assert(a) = f else { return false };
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
    for ((f, (d, x)), slot) in ir.facts.iter().zip(&own).zip(out.iter_mut()) {
        if d.is_empty() {
            if let Some(&i) = x.first().and_then(|id| home.get(id)) {
                *slot = i;
            }
        }
        // A fact naming an event of another sentence (a payment for an
        // employment) goes with that event: ids are local to a sentence.
        let mut named = Vec::new();
        referenced(f, &ids, &mut named);
        if let Some(&i) = named.iter().filter(|id| !d.contains(id)).find_map(|id| home.get(id)) {
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
        let e = Example { id: "c".into(), source: source_text(text, "Q?"), mentions: Vec::new(), target: lex(&linear::print(&ir)) };
        let u = units(&[e]);
        assert_eq!(u.len(), 3);
        // The payment refers to the marriage: it goes with it.
        assert!(render(&u[0].target).contains("payment e2"), "{}", render(&u[0].target));
        assert!(u[1].target.is_empty(), "{:?}", u[1].target);
        assert_eq!(render(&u[2].target).trim(), "query tax alice 2017");
        let beam = |t: &str, lp: f64| Beam { actions: Vec::new(), logprob: lp, text: t.into(), ir: parse(t).unwrap_or_default() };
        let one = vec![beam("marriage e1 agent=alice\n", -0.1), beam("death e1 agent=bob\n", -2.0)];
        let two = vec![beam("payment e1 agent=bob purpose=e1\n", -0.2), beam("", -0.5)];
        let q = vec![beam("query tax alice 2017\n", 0.0)];
        let c = combine(&[one, two], &q, 3, 0.6);
        assert_eq!(c.len(), 3);
        assert!(c[0].text.contains("marriage e1") && c[0].text.contains("payment e2 agent = bob purpose = e2"), "{}", c[0].text);
        assert!((c[1].logprob - -0.6).abs() < 1e-9 && (c[2].logprob - -2.2).abs() < 1e-9);
        assert!(c.windows(2).all(|w| w[0].logprob >= w[1].logprob));
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

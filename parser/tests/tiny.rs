//! The parser on CPU with the `tiny` configuration (random encoder): it
//! overfits 8 cases to exact match, its beams are distinct, sorted and
//! readable, and saving then loading reproduces its outputs exactly.

use lexlog_data::{linear, Dataset, Split};
use lexlog_parser::config::{ModelConfig, TrainConfig};
use lexlog_parser::decode::{beam_search, ensemble_search, BeamConfig, Member};
use lexlog_parser::example::Example;
use lexlog_parser::model::Seq2Seq;
use lexlog_parser::source::{minilm_dir, SourceTokenizer};
use lexlog_parser::train::{prepare, train, Trained};
use lexlog_parser::target::Vocab;
use tch::{nn, Device, Kind, Tensor};

mod common;
use common::{eight_short_cases, tiny_config};

#[test]
fn schema_hint_reads_the_cited_sections_places_after_each_question_only() {
    use lexlog_data::{ArgType, Goal, Query};
    use lexlog_parser::schema::QuerySchema;
    let examples = eight_short_cases();
    // A schema of the eight cases' own query predicates.
    let (mut signatures, mut places) = (lexlog_parser::grammar::Signatures::new(), lexlog_parser::schema::PlaceNames::new());
    for e in &examples {
        let Some(Query::Holds { goals }) = e.ir().and_then(|ir| ir.query) else { continue };
        for g in goals {
            let Goal::Holds(a) = g else { continue };
            let name = a.pred.as_str().to_string();
            signatures.insert(name.clone(), vec![vec![ArgType::ANY; a.args.len()]]);
            places.insert(name, (0..a.args.len()).map(|i| format!("place{i}")).collect());
        }
    }
    let schema = QuerySchema { signatures: signatures.into(), places: places.into() };
    let cfg = TrainConfig { unit: lexlog_parser::config::Unit::MarkedSentence, schema_hint: true, ..tiny_config() };
    let minilm = minilm_dir().unwrap();
    assert!(lexlog_parser::train::run_data(&cfg, examples.clone(), &[], &minilm, None).is_err(), "a hint needs the schema");
    let data = lexlog_parser::train::run_data(&cfg, examples.clone(), &[], &minilm, Some(&schema)).unwrap();
    let mut hinted = 0;
    for p in &data.train {
        let case = examples.iter().find(|e| p.example.id.starts_with(&format!("{}#", e.id))).unwrap();
        if p.example.id.ends_with(lexlog_parser::sentences::QUERY_UNIT) {
            let hint = p.example.source.strip_prefix(&case.source).unwrap();
            assert_eq!(hint.is_empty(), !case.source.contains("ection "), "{}: {hint}", p.example.id);
            hinted += usize::from(hint.starts_with(" Places: s"));
        } else {
            assert_eq!(p.example.source, case.source, "a sentence unit reads no hint");
        }
    }
    assert!(hinted > 0, "no question cites a section");
}

#[test]
fn fresh_copies_rename_anew_each_epoch_and_the_vocabulary_covers_them() {
    let examples = eight_short_cases();
    let minilm = minilm_dir().unwrap();
    let units = |p: &[lexlog_parser::train::Prepared]| p.iter().map(|p| (p.example.id.clone(), p.example.source.clone())).collect::<Vec<_>>();
    let cfg = TrainConfig { augment: true, epochs: 3, ..tiny_config() };
    let kept = lexlog_parser::train::run_data(&cfg, examples.clone(), &[], &minilm, None).unwrap();
    assert!(kept.later.is_empty());
    let fresh = lexlog_parser::train::run_data(&TrainConfig { augment_fresh: true, ..cfg.clone() }, examples.clone(), &[], &minilm, None).unwrap();
    assert_eq!(fresh.later.len(), 2);
    // The first epoch is the copies' usual draw; each later one, as many units, renamed otherwise.
    assert_eq!(units(&fresh.train), units(&kept.train));
    for later in &fresh.later {
        assert_eq!(later.len(), fresh.train.len());
        let (a, b) = (units(later), units(&fresh.train));
        let originals = a.iter().filter(|u| b.contains(u)).count();
        assert_eq!(originals, examples.len(), "only the originals recur");
    }
    assert_ne!(units(&fresh.later[0]), units(&fresh.later[1]));
    assert!(fresh.vocab.len() >= kept.vocab.len());
    let recombining = TrainConfig { augment_fresh: true, recombine: 1, ..cfg };
    assert!(lexlog_parser::train::run_data(&recombining, examples, &[], &minilm, None).is_err());
}

#[test]
fn tiny_model_overfits_eight_cases_with_readable_sorted_beams() {
    let dir = std::env::temp_dir().join(format!("lexlog-tiny-{}", std::process::id()));
    let examples = eight_short_cases();
    let mut ignore = |_: &lexlog_parser::train::Progress| {};
    train(&tiny_config(), examples.clone(), &[], None, &minilm_dir().unwrap(), &dir, false, Device::Cpu, &mut ignore).unwrap();
    let t = Trained::load(&dir, &minilm_dir().unwrap(), Device::Cpu).unwrap();
    let mut exact = 0;
    for e in &examples {
        let source = t.tokenizer.encode(&e.source, &e.mentions, e.focus).unwrap();
        let enc = tch::no_grad(|| t.model.encode(&[&source], Device::Cpu, false));
        let beams = beam_search(&t.model, &enc, &t.vocab, &e.mentions, BeamConfig { k: 4, max_len: 200, ..Default::default() });
        assert!(!beams.is_empty(), "{}: no readable beam", e.id);
        let texts: Vec<&String> = beams.iter().map(|b| &b.text).collect();
        let mut distinct = texts.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), texts.len(), "beams repeat");
        for b in &beams {
            assert!(linear::parse(&b.text).is_ok(), "unreadable beam {}", b.text);
        }
        let scores: Vec<f64> = beams.iter().map(|b| b.logprob / (b.actions.len() as f64).powf(0.6)).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "beams not sorted: {scores:?}");
        let gold = linear::parse(&lexlog_parser::target::render(&e.target)).unwrap();
        exact += (beams[0].ir == gold) as usize;
        ensembles_agree_with_their_members(&t, &dir, &enc, e, &beams);
    }
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(exact, 8, "only {exact} of 8 cases reproduced");
}

/// The trained model twice over decodes as the model alone, and so does
/// it with a copy of itself whose vocabulary is in another order (its
/// embedding and output rows moved to match): actions map by name.
fn ensembles_agree_with_their_members(t: &Trained, dir: &std::path::Path, enc: &lexlog_parser::model::Encoded, e: &Example, alone: &[lexlog_parser::decode::Beam]) {
    let cfg = BeamConfig { k: 4, max_len: 200, ..Default::default() };
    let texts = |beams: &[lexlog_parser::decode::Beam]| beams.iter().map(|b| b.text.clone()).collect::<Vec<_>>();
    let close = |x: &[lexlog_parser::decode::Beam]| x.len() == alone.len() && x.iter().zip(alone).all(|(x, y)| (x.logprob - y.logprob).abs() < 1e-3);
    let me = Member { model: &t.model, enc, vocab: &t.vocab };
    let twice = ensemble_search(&[me, me], &e.mentions, cfg.clone());
    assert!(texts(&twice) == texts(alone) && close(&twice), "{}", e.id);

    // Specials stay first; the rest in reverse.
    let n = t.vocab.len() as i64;
    let order: Vec<i64> = (0..4).chain((4..n).rev()).collect();
    let reordered = Vocab::from_tokens(order.iter().map(|&i| t.vocab.tokens[i as usize].clone()).collect());
    let mut vs = nn::VarStore::new(Device::Cpu);
    let copy = Seq2Seq::new(&t.model.cfg, n, t.tokenizer.cls(), t.tokenizer.sep(), &vs.root());
    lexlog_parser::train::load_weights(&mut vs, &dir.join("model.safetensors")).unwrap();
    let index = Tensor::from_slice(&order);
    let mut moved = 0;
    for (name, mut var) in vs.variables() {
        if name.ends_with("action_embedding.weight") || name.ends_with("out_vocab.weight") || name.ends_with("out_vocab.bias") {
            tch::no_grad(|| var.copy_(&var.index_select(0, &index)));
            moved += 1;
        }
    }
    assert_eq!(moved, 3, "the vocabulary's rows are in other variables now");
    let copy_enc = tch::no_grad(|| copy.encode(&[&t.tokenizer.encode(&e.source, &e.mentions, e.focus).unwrap()], Device::Cpu, false));
    let both = ensemble_search(&[me, Member { model: &copy, enc: &copy_enc, vocab: &reordered }], &e.mentions, cfg);
    assert!(texts(&both) == texts(alone) && close(&both), "{}: {:?}", e.id, texts(&both));
}

#[test]
fn save_then_load_reproduces_outputs_exactly() {
    tch::manual_seed(3);
    let tok = SourceTokenizer::from_dir(&minilm_dir().unwrap()).unwrap();
    let examples = eight_short_cases();
    let vocab = Vocab::build(examples.iter().map(|e| (e.target.as_slice(), e.mentions.as_slice())), &[]);
    let data = prepare(examples, &tok, &vocab).unwrap();
    let cfg = ModelConfig::tiny();
    let run = |model: &Seq2Seq| -> Tensor {
        let enc = model.encode(&[&data[0].source], Device::Cpu, false);
        let prev = Tensor::from_slice(&data[0].actions[..5]).view([1, 5]);
        model.decode(&enc, &prev, false)
    };
    let vs = nn::VarStore::new(Device::Cpu);
    let a = Seq2Seq::new(&cfg, vocab.len() as i64, tok.cls(), tok.sep(), &vs.root());
    let path = std::env::temp_dir().join(format!("lexlog-saveload-{}.safetensors", std::process::id()));
    vs.save(&path).unwrap();
    let mut vs2 = nn::VarStore::new(Device::Cpu);
    let b = Seq2Seq::new(&cfg, vocab.len() as i64, tok.cls(), tok.sep(), &vs2.root());
    assert!(run(&a).ne_tensor(&run(&b)).any().int64_value(&[]) == 1, "fresh models should differ");
    vs2.load(&path).unwrap();
    std::fs::remove_file(&path).ok();
    let (x, y) = (run(&a), run(&b));
    assert_eq!(x.ne_tensor(&y).sum(Kind::Int64).int64_value(&[]), 0);
    // Weights stored in half precision load and run in float32.
    let mut half = vs2;
    half.half();
    half.save(&path).unwrap();
    let mut vs3 = nn::VarStore::new(Device::Cpu);
    let c = Seq2Seq::new(&cfg, vocab.len() as i64, tok.cls(), tok.sep(), &vs3.root());
    lexlog_parser::train::load_weights(&mut vs3, &path).unwrap();
    std::fs::remove_file(&path).ok();
    let z = run(&c);
    assert!((&x - &z).abs().max().double_value(&[]) < 0.05, "half-precision weights drift too far");
}

/// An untrained tiny model (seeded), the eight short cases prepared for
/// it, and its vocabulary's size.
fn untrained_tiny(seed: i64) -> (Seq2Seq, nn::VarStore, Vec<lexlog_parser::train::Prepared>, i64) {
    tch::manual_seed(seed);
    let tok = SourceTokenizer::from_dir(&minilm_dir().unwrap()).unwrap();
    let examples = eight_short_cases();
    let vocab = Vocab::build(examples.iter().map(|e| (e.target.as_slice(), e.mentions.as_slice())), &[]);
    let data = prepare(examples, &tok, &vocab).unwrap();
    let vs = nn::VarStore::new(Device::Cpu);
    let model = Seq2Seq::new(&ModelConfig::tiny(), vocab.len() as i64, tok.cls(), tok.sep(), &vs.root());
    (model, vs, data, vocab.len() as i64)
}

#[test]
fn incremental_decoding_matches_the_full_decoder() {
    let (model, _vs, data, _) = untrained_tiny(5);
    let enc = model.encode(&[&data[1].source], Device::Cpu, false);
    let mut prefix = vec![lexlog_parser::target::BOS as i64];
    prefix.extend_from_slice(&data[1].actions[..6]);
    let t = prefix.len() as i64;
    let full = model.decode(&enc, &Tensor::from_slice(&prefix).view([1, t]), false);
    let mut state = model.start(&enc, 1);
    for (i, &a) in prefix.iter().enumerate() {
        let step = model.step(&mut state, &Tensor::from_slice(&[a]));
        let diff = (step - full.select(1, i as i64)).abs().max().double_value(&[]);
        assert!(diff < 1e-4, "step {i}: {diff}");
    }
}

/// Several hypotheses share the case's memory and mentions; reordering
/// them (as the beam search does) keeps each one's own prefix.
#[test]
fn hypotheses_decoded_together_and_reordered_match_the_full_decoder() {
    let (model, _vs, data, v) = untrained_tiny(6);
    let p = data.iter().find(|p| p.source.mention_spans.len() >= 2).expect("a case with two mentions");
    let enc = model.encode(&[&p.source], Device::Cpu, false);
    let bos = lexlog_parser::target::BOS as i64;
    let (a, b) = (p.actions[0], p.actions[1]);
    // BOS for one hypothesis, which becomes three (two copying mentions),
    // then the third is dropped and the first doubled.
    let three = [[bos, a, v], [bos, v + 1, b], [bos, b, v + 1]];
    let mut state = model.start(&enc, 1);
    let _after_bos = model.step(&mut state, &Tensor::from_slice(&[bos]));
    state.reorder(&Tensor::from_slice(&[0i64, 0, 0]));
    let mut outputs = Vec::new();
    for t in 1..3 {
        let fed: Vec<i64> = three.iter().map(|p| p[t]).collect();
        outputs.push((t, model.step(&mut state, &Tensor::from_slice(&fed))));
    }
    state.reorder(&Tensor::from_slice(&[0i64, 1, 0]));
    let four = [[bos, a, v, a], [bos, v + 1, b, v], [bos, a, v, b]];
    outputs.push((3, model.step(&mut state, &Tensor::from_slice(&four.map(|p| p[3])))));
    // Then two of them, in another order: the case's rows are kept by count.
    state.reorder(&Tensor::from_slice(&[2i64, 1]));
    let five = [[bos, a, v, b, a], [bos, v + 1, b, v, v + 1]];
    outputs.push((4, model.step(&mut state, &Tensor::from_slice(&five.map(|p| p[4])))));
    let rows = |t: usize| -> Vec<Vec<i64>> {
        match t {
            4 => five.iter().map(|p| p.to_vec()).collect(),
            3 => four.iter().map(|p| p.to_vec()).collect(),
            _ => three.iter().map(|p| p[..=t].to_vec()).collect(),
        }
    };
    for (t, out) in &outputs {
        for (row, prefix) in rows(*t).iter().enumerate() {
            let full = model.decode(&enc, &Tensor::from_slice(prefix).view([1, prefix.len() as i64]), false);
            let diff = (out.get(row as i64) - full.get(0).get(*t as i64)).abs().max().double_value(&[]);
            assert!(diff < 1e-4, "hypothesis {row}, step {t}: {diff}");
        }
    }
}

#[test]
fn tiny_sentence_model_reads_cases_back_sentence_by_sentence() {
    reads_cases_back_by(lexlog_parser::config::Unit::Sentence);
}

#[test]
fn tiny_marked_sentence_model_reads_cases_back_sentence_by_sentence() {
    reads_cases_back_by(lexlog_parser::config::Unit::MarkedSentence);
}

fn reads_cases_back_by(unit: lexlog_parser::config::Unit) {
    let dir = std::env::temp_dir().join(format!("lexlog-tiny-{unit:?}-{}", std::process::id()));
    let data = Dataset::load_default().unwrap();
    // Short cases of two or more sentences.
    let mut cases: Vec<&lexlog_data::Case> =
        data.cases_in(Some(Split::Train)).filter(|c| lexlog_parser::sentences::split(&c.text).len() >= 2).collect();
    cases.sort_by_key(|c| (c.text.len(), c.id.clone()));
    cases.truncate(4);
    let examples: Vec<Example> = cases.iter().map(|c| Example::from_case(c)).collect();
    let cfg = TrainConfig { unit, epochs: 300, ..tiny_config() };
    let mut ignore = |_: &lexlog_parser::train::Progress| {};
    train(&cfg, examples, &[], None, &minilm_dir().unwrap(), &dir, false, Device::Cpu, &mut ignore).unwrap();
    let t = Trained::load(&dir, &minilm_dir().unwrap(), Device::Cpu).unwrap();
    let mut exact = 0;
    for case in &cases {
        let beams = lexlog_parser::sentences::decode_case(&t, &case.text, &case.question, &BeamConfig { k: 4, max_len: 200, ..Default::default() }).unwrap();
        assert!(!beams.is_empty(), "{}: no reading", case.id);
        let mut texts: Vec<&String> = beams.iter().map(|b| &b.text).collect();
        texts.sort();
        texts.dedup();
        assert_eq!(texts.len(), beams.len(), "{}: readings repeat", case.id);
        exact += lexlog_parser::eval::compare(&beams[0].ir, &linear::canonical_ids(&case.ir)).exact as usize;
    }
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(exact, 4, "only {exact} of 4 cases read back");
}

#[test]
fn a_case_encoded_once_for_its_marked_sentences_matches_each_encoded_alone() {
    let data = Dataset::load_default().unwrap();
    let case = data.case("tax_case_9").unwrap();
    let units = lexlog_parser::sentences::marked_units(&[Example::from_case(case)]);
    assert!(units.len() >= 3 && units.iter().all(|u| u.source == units[0].source && u.focus.is_some()));
    // The query unit flags what the question names; a sentence unit, its own.
    let flagged = |u: &Example| u.mentions.iter().filter(|m| m.in_question).map(|m| linear::value_text(&m.value)).collect::<Vec<_>>();
    assert!(flagged(units.last().unwrap()).contains(&"2018".to_string()), "{:?}", flagged(units.last().unwrap()));
    assert!(flagged(&units[0]).contains(&"2012-04-05".to_string()) && !flagged(&units[0]).contains(&"36991".to_string()));
    let tok = SourceTokenizer::from_dir(&minilm_dir().unwrap()).unwrap();
    let vs = nn::VarStore::new(Device::Cpu);
    let cfg = ModelConfig { focus: true, ..ModelConfig::tiny() };
    let model = Seq2Seq::new(&cfg, 40, tok.cls(), tok.sep(), &vs.root());
    let sources: Vec<_> = units.iter().map(|u| tok.encode(&u.source, &u.mentions, u.focus).unwrap()).collect();
    let refs: Vec<_> = sources.iter().collect();
    let together = tch::no_grad(|| model.encode(&refs, Device::Cpu, false));
    for (i, s) in sources.iter().enumerate() {
        let alone = tch::no_grad(|| model.encode(&[s], Device::Cpu, false));
        let row = |t: &Tensor| t.get(0).narrow(0, 0, alone.states.size()[1]);
        let diff = (row(&together.states.narrow(0, i as i64, 1)) - row(&alone.states)).abs().max().double_value(&[]);
        assert!(diff < 1e-5, "unit {i}: states differ by {diff}");
        let m = alone.mentions.size()[1];
        let diff = (together.mentions.get(i as i64).narrow(0, 0, m) - alone.mentions.get(0)).abs().max().double_value(&[]);
        assert!(diff < 1e-5, "unit {i}: mentions differ by {diff}");
    }
    // Units differ by their mark: the first sentence's states are not the query's.
    let first = together.states.get(0);
    let last = together.states.get(units.len() as i64 - 1);
    assert!((first - last).abs().max().double_value(&[]) > 1e-3);
}

#[test]
fn resuming_with_another_config_is_refused() {
    let dir = std::env::temp_dir().join(format!("lexlog-resume-{}", std::process::id()));
    let examples = eight_short_cases();
    let mut ignore = |_: &lexlog_parser::train::Progress| {};
    let cfg = TrainConfig { epochs: 1, ..tiny_config() };
    train(&cfg, examples.clone(), &[], None, &minilm_dir().unwrap(), &dir, false, Device::Cpu, &mut ignore).unwrap();
    let other = TrainConfig { seed: 8, epochs: 2, ..tiny_config() };
    let err = train(&other, examples.clone(), &[], None, &minilm_dir().unwrap(), &dir, true, Device::Cpu, &mut ignore).unwrap_err();
    assert!(err.to_string().contains("another training config"), "{err}");
    let more = TrainConfig { epochs: 1, ..tiny_config() };
    assert!(train(&more, examples, &[], None, &minilm_dir().unwrap(), &dir, true, Device::Cpu, &mut ignore).is_ok(), "the same config resumes");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_run_keeps_the_checkpoint_of_its_best_dev_queries_and_decodes_queries_with_it() {
    let dir = std::env::temp_dir().join(format!("lexlog-query-{}", std::process::id()));
    let examples = eight_short_cases();
    let cfg = TrainConfig { unit: lexlog_parser::config::Unit::MarkedSentence, dev_fraction: 0.25, epochs: 60, eval_every: 10, ..tiny_config() };
    let mut ignore = |_: &lexlog_parser::train::Progress| {};
    let m = train(&cfg, examples.clone(), &[], None, &minilm_dir().unwrap(), &dir, false, Device::Cpu, &mut ignore).unwrap();
    assert_eq!(m.history.iter().map(|h| h.epoch).collect::<Vec<_>>(), (1..=6).map(|e| 10 * e).collect::<Vec<_>>());
    assert!(m.history.iter().all(|h| h.dev.query_units == 2), "two dev cases, a query each: {:?}", m.history);
    let score = |h: &lexlog_parser::train::EpochScores| (h.dev.query_decoded, h.dev.query_exact, h.dev.query_accuracy);
    let best = m.history.iter().map(score).fold((0, 0, f64::NEG_INFINITY), |a, b| if b > a { b } else { a });
    let first_best = m.history.iter().find(|h| score(h) == best).unwrap().epoch;
    assert_eq!(m.best_query_epoch, first_best);
    let minilm = minilm_dir().unwrap();
    assert!(Trained::load(&dir, &minilm, Device::Cpu).unwrap().query_model.is_some(), "{} kept no query checkpoint", dir.display());
    // The query asked by a checkpoint of its own (here the facts' weights
    // again, encoded apart) reads as the query asked by the facts' model.
    let weights = lexlog_parser::train::QUERY_WEIGHTS;
    std::fs::copy(dir.join("model.safetensors"), dir.join(weights)).unwrap();
    let apart = Trained::load(&dir, &minilm, Device::Cpu).unwrap();
    std::fs::remove_file(dir.join(weights)).unwrap();
    let shared = Trained::load(&dir, &minilm, Device::Cpu).unwrap();
    let twin = Trained::load(&dir, &minilm, Device::Cpu).unwrap();
    assert!(shared.query_model.is_none());
    let data = Dataset::load_default().unwrap();
    let mut read_some = 0;
    let beam_cfg = BeamConfig { k: 2, max_len: 200, ..Default::default() };
    let texts = |beams: Vec<lexlog_parser::decode::Beam>| beams.into_iter().map(|b| (b.text, (b.logprob * 1e4).round())).collect::<Vec<_>>();
    for e in &examples[..3] {
        let case = data.case(&e.id).unwrap();
        let read = |t: &Trained| texts(lexlog_parser::sentences::decode_case(t, &case.text, &case.question, &beam_cfg).unwrap());
        let beams = read(&shared);
        read_some += usize::from(!beams.is_empty());
        assert_eq!(read(&apart), beams, "{}", e.id);
        // The question asked by another loaded model (`--query-model`):
        // the same weights, with a query checkpoint and without.
        let split = |asker: &Trained| texts(lexlog_parser::sentences::decode_split(&[&shared], &[asker], &case.text, &case.question, &beam_cfg).unwrap());
        assert_eq!(split(&apart), beams, "{}", e.id);
        assert_eq!(split(&twin), beams, "{}", e.id);
    }
    assert!(read_some > 0, "no case read at all");
    // Without dev cases no query checkpoint is kept.
    std::fs::remove_dir_all(&dir).ok();
    train(&TrainConfig { dev_fraction: 0.0, epochs: 1, ..cfg }, examples, &[], None, &minilm, &dir, false, Device::Cpu, &mut ignore).unwrap();
    assert!(!dir.join(weights).exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn without_dev_cases_the_train_loss_selects_whatever_the_config_says() {
    let dir = std::env::temp_dir().join(format!("lexlog-refit-{}", std::process::id()));
    let select = lexlog_parser::config::Select::DevAccuracy;
    let cfg = TrainConfig { unit: lexlog_parser::config::Unit::MarkedSentence, select, epochs: 30, eval_every: 10, ..tiny_config() };
    let mut ignore = |_: &lexlog_parser::train::Progress| {};
    let m = train(&cfg, eight_short_cases(), &[], None, &minilm_dir().unwrap(), &dir, false, Device::Cpu, &mut ignore).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(m.history.len(), 3);
    let lowest = m.history.iter().min_by(|a, b| a.train_loss.total_cmp(&b.train_loss)).unwrap();
    assert_eq!(m.best_epoch, lowest.epoch, "{:?}", m.history.iter().map(|h| (h.epoch, h.train_loss)).collect::<Vec<_>>());
}

#[test]
fn frozen_embeddings_and_layers_keep_their_weights_and_the_rest_learns() {
    let dir = std::env::temp_dir().join(format!("lexlog-frozen-{}", std::process::id()));
    // The tiny model with a second encoder layer, the one left to learn.
    let mut model = tiny_config().model_config().unwrap();
    model.encoder.layers = 2;
    let cfg = TrainConfig { preset: None, model: Some(model), freeze_embeddings: true, frozen_layers: 1, epochs: 3, eval_every: 3, ..tiny_config() };
    let mut ignore = |_: &lexlog_parser::train::Progress| {};
    let minilm = minilm_dir().unwrap();
    train(&cfg, eight_short_cases(), &[], None, &minilm, &dir, false, Device::Cpu, &mut ignore).unwrap();
    let t = Trained::load(&dir, &minilm, Device::Cpu).unwrap();
    let tok = SourceTokenizer::from_dir(&minilm).unwrap();
    // The tiny encoder is random: training drew its first weights from the
    // seed, as a model built here after the same seeding does.
    let store = |seed: Option<u64>| {
        if let Some(s) = seed {
            tch::manual_seed(s as i64);
        }
        let vs = nn::VarStore::new(Device::Cpu);
        let _model = Seq2Seq::new(&t.meta.model, t.vocab.len() as i64, tok.cls(), tok.sep(), &vs.root());
        vs
    };
    let first = store(Some(cfg.seed)).variables();
    let mut trained = store(None);
    trained.load(dir.join("model.safetensors")).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let (mut kept, mut moved) = (Vec::new(), Vec::new());
    for (name, w) in trained.variables() {
        let same = w.equal(&first[&name]);
        let frozen = name.starts_with("embeddings.") || name.starts_with("encoder.layer.0.");
        assert_eq!(same, frozen, "{name}: frozen {frozen}, unchanged {same}");
        if same { kept.push(name) } else { moved.push(name) }
    }
    assert!(kept.iter().any(|n| n.starts_with("embeddings.word")) && kept.iter().any(|n| n.starts_with("encoder.layer.0.")), "{kept:?}");
    assert!(moved.iter().any(|n| n.starts_with("encoder.layer.1.")) && moved.iter().any(|n| n.starts_with("decoder.")), "{moved:?}");
}

#[test]
fn label_smoothing_still_overfits_eight_cases() {
    let dir = std::env::temp_dir().join(format!("lexlog-smooth-{}", std::process::id()));
    let examples = eight_short_cases();
    let mut ignore = |_: &lexlog_parser::train::Progress| {};
    let minilm = minilm_dir().unwrap();
    let metrics = train(&TrainConfig { label_smoothing: 0.1, ..tiny_config() }, examples.clone(), &[], None, &minilm, &dir, false, Device::Cpu, &mut ignore).unwrap();
    let t = Trained::load(&dir, &minilm, Device::Cpu).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    // The smoothed mass keeps the training loss above the bare one's floor.
    assert!(metrics.train_loss > 0.05, "train loss {}", metrics.train_loss);
    let exact = examples
        .iter()
        .filter(|e| {
            let source = t.tokenizer.encode(&e.source, &e.mentions, e.focus).unwrap();
            let enc = tch::no_grad(|| t.model.encode(&[&source], Device::Cpu, false));
            let beams = beam_search(&t.model, &enc, &t.vocab, &e.mentions, BeamConfig { k: 2, max_len: 200, ..Default::default() });
            beams.first().is_some_and(|b| b.ir == linear::parse(&lexlog_parser::target::render(&e.target)).unwrap())
        })
        .count();
    assert_eq!(exact, 8, "only {exact} of 8 cases reproduced");
}

#[test]
fn step_timing_times_the_steps_it_is_asked_and_no_more_than_an_epoch() {
    let minilm = minilm_dir().unwrap();
    // Eight cases in batches of two: an epoch of four steps.
    let cfg = TrainConfig { batch_size: 2, ..tiny_config() };
    let timing = lexlog_parser::step_timing::time_steps(&cfg, eight_short_cases(), &[], &minilm, 1, 3, Device::Cpu).unwrap();
    assert_eq!((timing.warmup_steps, timing.steps, timing.units), (1, 3, 6), "{timing:?}");
    assert!(timing.seconds > 0.0 && timing.units_per_second > 0.0, "{timing:?}");
    let err = lexlog_parser::step_timing::time_steps(&cfg, eight_short_cases(), &[], &minilm, 2, 3, Device::Cpu).unwrap_err();
    assert!(err.to_string().contains("5 steps asked of an epoch of 4"), "{err}");
}

//! The seq2seq model: a BERT encoder (MiniLM or random) and a transformer
//! decoder whose every step scores the closed vocabulary and, by a pointer,
//! the case's mentions. A mention is represented by the mean of the
//! word-piece states of all its occurrences plus an embedding of its kind
//! (how the text gives it, and whether the question does); copying it
//! feeds that representation back in.

use crate::bert::BertEncoder;
use crate::config::ModelConfig;
use crate::mentions::Mention;
use crate::source::{Source, WINDOW};
use tch::nn::{self, Module};
use tch::{Device, Kind, Tensor};

#[derive(Debug)]
struct Attention {
    q: nn::Linear,
    k: nn::Linear,
    v: nn::Linear,
    o: nn::Linear,
    heads: i64,
}

impl Attention {
    fn new(h: i64, heads: i64, vs: nn::Path) -> Self {
        let lin = |n: &str| nn::linear(&vs / n, h, h, Default::default());
        Attention { q: lin("q"), k: lin("k"), v: lin("v"), o: lin("o"), heads }
    }

    /// Keys and values of `mem`: [batch, heads, s, d] each.
    fn kv(&self, mem: &Tensor) -> (Tensor, Tensor) {
        let (b, s, h) = mem.size3().expect("[batch, time, hidden]");
        let d = h / self.heads;
        let k = self.k.forward(mem).view([b, s, self.heads, d]).transpose(1, 2);
        let v = self.v.forward(mem).view([b, s, self.heads, d]).transpose(1, 2);
        (k, v)
    }

    /// `bias`: additive, broadcastable to [batch, heads, t, s].
    fn attend(&self, x: &Tensor, k: &Tensor, v: &Tensor, bias: &Tensor) -> Tensor {
        let (b, t, h) = x.size3().expect("[batch, time, hidden]");
        let d = h / self.heads;
        let q = self.q.forward(x).view([b, t, self.heads, d]).transpose(1, 2);
        let scores = q.matmul(&k.transpose(-2, -1)) / (d as f64).sqrt() + bias;
        let y = scores.softmax(-1, Kind::Float).matmul(v).transpose(1, 2).contiguous().view([b, t, h]);
        self.o.forward(&y)
    }

    fn forward(&self, x: &Tensor, mem: &Tensor, bias: &Tensor) -> Tensor {
        let (k, v) = self.kv(mem);
        self.attend(x, &k, &v, bias)
    }
}

#[derive(Debug)]
struct DecoderLayer {
    self_attn: Attention,
    self_norm: nn::LayerNorm,
    cross_attn: Attention,
    cross_norm: nn::LayerNorm,
    ff_in: nn::Linear,
    ff_out: nn::Linear,
    ff_norm: nn::LayerNorm,
}

impl DecoderLayer {
    fn new(cfg: &ModelConfig, vs: nn::Path) -> Self {
        let h = cfg.encoder.hidden;
        DecoderLayer {
            self_attn: Attention::new(h, cfg.decoder_heads, &vs / "self_attn"),
            self_norm: nn::layer_norm(&vs / "self_norm", vec![h], Default::default()),
            cross_attn: Attention::new(h, cfg.decoder_heads, &vs / "cross_attn"),
            cross_norm: nn::layer_norm(&vs / "cross_norm", vec![h], Default::default()),
            ff_in: nn::linear(&vs / "ff_in", h, cfg.decoder_ff, Default::default()),
            ff_out: nn::linear(&vs / "ff_out", cfg.decoder_ff, h, Default::default()),
            ff_norm: nn::layer_norm(&vs / "ff_norm", vec![h], Default::default()),
        }
    }

    fn forward(&self, x: &Tensor, mem: &Tensor, causal: &Tensor, mem_bias: &Tensor, train: bool, p: f64) -> Tensor {
        let x = self.self_norm.forward(&(x + self.self_attn.forward(x, x, causal).dropout(p, train)));
        let x = self.cross_norm.forward(&(&x + self.cross_attn.forward(&x, mem, mem_bias).dropout(p, train)));
        let f = self.ff_out.forward(&self.ff_in.forward(&x).gelu("none")).dropout(p, train);
        self.ff_norm.forward(&(x + f))
    }

    /// One position `x` [n, 1, H], with this layer's caches.
    fn step(&self, x: &Tensor, cache: &mut LayerCache, mem_bias: &Tensor) -> Tensor {
        let (k, v) = self.self_attn.kv(x);
        cache.self_k = Tensor::cat(&[&cache.self_k, &k], 2);
        cache.self_v = Tensor::cat(&[&cache.self_v, &v], 2);
        let none = Tensor::zeros([1], (Kind::Float, x.device()));
        let x = self.self_norm.forward(&(x + self.self_attn.attend(x, &cache.self_k, &cache.self_v, &none)));
        let x = self.cross_norm.forward(&(&x + self.cross_attn.attend(&x, &cache.cross_k, &cache.cross_v, mem_bias)));
        let f = self.ff_out.forward(&self.ff_in.forward(&x).gelu("none"));
        self.ff_norm.forward(&(x + f))
    }
}

/// One decoder layer's caches during incremental decoding.
pub struct LayerCache {
    self_k: Tensor,
    self_v: Tensor,
    cross_k: Tensor,
    cross_v: Tensor,
}

/// The state of incremental decoding for `n` hypotheses of one case.
pub struct DecoderState {
    layers: Vec<LayerCache>,
    mem_bias: Tensor,
    mentions: Tensor,
    mention_mask: Tensor,
    position: i64,
}

impl DecoderState {
    /// Keeps the hypotheses `index` ([m]) in that order.
    pub fn reorder(&mut self, index: &Tensor) {
        let m = index.size()[0];
        for l in &mut self.layers {
            l.self_k = l.self_k.index_select(0, index);
            l.self_v = l.self_v.index_select(0, index);
            l.cross_k = alike_rows(&l.cross_k, m, index);
            l.cross_v = alike_rows(&l.cross_v, m, index);
        }
        self.mem_bias = alike_rows(&self.mem_bias, m, index);
        self.mentions = alike_rows(&self.mentions, m, index);
        self.mention_mask = alike_rows(&self.mention_mask, m, index);
    }
}

/// `m` rows of `x`, whose rows are alike (every hypothesis reads the one
/// case [`Seq2Seq::start`] was given): its first `m` without a copy where
/// it has that many, else the rows `index` picks.
fn alike_rows(x: &Tensor, m: i64, index: &Tensor) -> Tensor {
    if m <= x.size()[0] {
        x.narrow(0, 0, m)
    } else {
        x.index_select(0, index)
    }
}

/// Encoder output for a batch of cases.
pub struct Encoded {
    /// [batch, source, hidden]
    pub states: Tensor,
    /// [batch, source]: 1 for tokens.
    pub mask: Tensor,
    /// [batch, mentions, hidden]
    pub mentions: Tensor,
    /// [batch, mentions]: 1 for mentions.
    pub mention_mask: Tensor,
}

impl Encoded {
    /// The rows of `index` ([n] of batch positions), e.g. to expand beams.
    pub fn select(&self, index: &Tensor) -> Encoded {
        Encoded {
            states: self.states.index_select(0, index),
            mask: self.mask.index_select(0, index),
            mentions: self.mentions.index_select(0, index),
            mention_mask: self.mention_mask.index_select(0, index),
        }
    }
}

/// The parser model.
#[derive(Debug)]
pub struct Seq2Seq {
    pub cfg: ModelConfig,
    pub vocab_size: i64,
    encoder: BertEncoder,
    action_embedding: nn::Embedding,
    copy_embedding: nn::Linear,
    mention_kind: nn::Embedding,
    position: nn::Embedding,
    layers: Vec<DecoderLayer>,
    out_vocab: nn::Linear,
    out_copy: nn::Linear,
    /// Added to the encoder states of the unit's own sentence, where the
    /// config marks it ([`ModelConfig::focus`]).
    focus: Option<Tensor>,
    cls: i64,
    sep: i64,
}

impl Seq2Seq {
    /// The encoder lives at the root of `vs` (checkpoint names; optimizer
    /// group 0), the decoder under `decoder.` (group 1), so they can learn
    /// at different rates.
    pub fn new(cfg: &ModelConfig, vocab_size: i64, cls: u32, sep: u32, vs: &nn::Path) -> Self {
        let h = cfg.encoder.hidden;
        let d = vs.set_group(1) / "decoder";
        Seq2Seq {
            cfg: cfg.clone(),
            vocab_size,
            encoder: BertEncoder::new(&cfg.encoder, vs.clone()),
            action_embedding: nn::embedding(&d / "action_embedding", vocab_size, h, Default::default()),
            copy_embedding: nn::linear(&d / "copy_embedding", h, h, Default::default()),
            mention_kind: nn::embedding(&d / "mention_kind", Mention::FEATURES, h, Default::default()),
            position: nn::embedding(&d / "position", cfg.max_target, h, Default::default()),
            layers: (0..cfg.decoder_layers).map(|i| DecoderLayer::new(cfg, &d / "layer" / i)).collect(),
            out_vocab: nn::linear(&d / "out_vocab", h, vocab_size, Default::default()),
            out_copy: nn::linear(&d / "out_copy", h, h, Default::default()),
            focus: cfg.focus.then(|| d.var("focus", &[h], nn::Init::Randn { mean: 0.0, stdev: 0.02 })),
            cls: cls as i64,
            sep: sep as i64,
        }
    }

    /// Encodes each source in windows of at most 512 positions and pools
    /// its mentions. Sources of the same word pieces (a case's marked
    /// sentences) are encoded once.
    pub fn encode(&self, sources: &[&Source], device: Device, train: bool) -> Encoded {
        let h = self.cfg.encoder.hidden;
        let mut per_case = Vec::new();
        let mut per_mentions = Vec::new();
        let mut encoded: std::collections::HashMap<&[u32], Tensor> = std::collections::HashMap::new();
        for src in sources {
            let states = match encoded.get(src.ids.as_slice()) {
                Some(states) => states.shallow_clone(),
                None => {
                    let states = self.encode_ids(&src.ids, device, train);
                    encoded.insert(&src.ids, states.shallow_clone());
                    states
                }
            };
            let len = states.size()[0];
            let mentions: Vec<Tensor> = src
                .mention_spans
                .iter()
                .map(|spans| {
                    let parts: Vec<Tensor> = spans
                        .iter()
                        .map(|&(a, b)| {
                            let a = (a as i64).min(len - 1);
                            let b = (b as i64).clamp(a + 1, len);
                            states.narrow(0, a, b - a)
                        })
                        .collect();
                    Tensor::cat(&parts, 0).mean_dim(0, false, Kind::Float)
                })
                .collect();
            let mentions = if mentions.is_empty() {
                Tensor::zeros([1, h], (Kind::Float, device))
            } else {
                // Renderings of one span (2017, 2017-01-01, 2017-12-31) differ
                // by kind; what the question names is marked.
                let features = Tensor::from_slice(&src.mention_features).to(device);
                Tensor::stack(&mentions, 0) + self.mention_kind.forward(&features)
            };
            per_mentions.push((mentions, src.mention_spans.len()));
            let states = match (&self.focus, src.focus) {
                (Some(mark), Some((a, b))) => {
                    let marked: Vec<f32> = (0..len).map(|i| ((a as i64) <= i && i < b as i64) as u8 as f32).collect();
                    states + Tensor::from_slice(&marked).to(device).unsqueeze(1) * mark.unsqueeze(0)
                }
                _ => states,
            };
            per_case.push(states);
        }
        let (states, mask) = pad(&per_case, device);
        let mention_list: Vec<Tensor> = per_mentions.iter().map(|(m, _)| m.shallow_clone()).collect();
        let (mentions, _) = pad(&mention_list, device);
        let max_m = mentions.size()[1];
        let mm: Vec<i64> = per_mentions.iter().flat_map(|(_, n)| (0..max_m).map(move |i| (i < *n as i64) as i64)).collect();
        let mention_mask = Tensor::from_slice(&mm).view([sources.len() as i64, max_m]).to(device);
        Encoded { states, mask, mentions, mention_mask }
    }

    /// The encoder's states [len, hidden] for word pieces `ids`, read in
    /// windows of at most 512 positions.
    fn encode_ids(&self, ids: &[u32], device: Device, train: bool) -> Tensor {
        let ids: Vec<i64> = ids.iter().map(|&i| i as i64).collect();
        let windows: Vec<&[i64]> = if ids.is_empty() { vec![&[]] } else { ids.chunks(WINDOW).collect() };
        let longest = windows.iter().map(|w| w.len()).max().unwrap_or(0) + 2;
        let mut batch = Vec::new();
        let mut mask = Vec::new();
        for w in &windows {
            let mut row = vec![self.cls];
            row.extend_from_slice(w);
            row.push(self.sep);
            let n = row.len();
            row.resize(longest, 0);
            batch.extend(row);
            mask.extend((0..longest).map(|i| (i < n) as i64));
        }
        let nw = windows.len() as i64;
        let ids_t = Tensor::from_slice(&batch).view([nw, longest as i64]).to(device);
        let mask_t = Tensor::from_slice(&mask).view([nw, longest as i64]).to(device);
        let out = self.encoder.forward(&ids_t, &mask_t, train, self.cfg.dropout);
        // Token states without [CLS]/[SEP], windows concatenated.
        let parts: Vec<Tensor> = windows.iter().enumerate().map(|(i, w)| out.get(i as i64).narrow(0, 1, w.len().max(1) as i64)).collect();
        Tensor::cat(&parts, 0)
    }

    /// Starts incremental decoding of one encoded case (batch 1) for `n`
    /// hypotheses; feed BOS first.
    pub fn start(&self, enc: &Encoded, n: i64) -> DecoderState {
        let index = Tensor::zeros([n], (Kind::Int64, enc.states.device()));
        let enc = enc.select(&index);
        let h = self.cfg.encoder.hidden;
        let d = h / self.cfg.decoder_heads;
        let layers = self
            .layers
            .iter()
            .map(|l| {
                let (cross_k, cross_v) = l.cross_attn.kv(&enc.states);
                let empty = Tensor::zeros([n, self.cfg.decoder_heads, 0, d], (Kind::Float, enc.states.device()));
                LayerCache { self_k: empty.shallow_clone(), self_v: empty, cross_k, cross_v }
            })
            .collect();
        let mem_bias: Tensor = ((enc.mask.to_kind(Kind::Float) - 1.0) * 1e9).view([n, 1, 1, -1]);
        DecoderState { layers, mem_bias, mentions: enc.mentions, mention_mask: enc.mention_mask, position: 0 }
    }

    /// Log-probabilities [n, vocab + mentions] of the next action after
    /// feeding `actions` [n] (one per hypothesis).
    pub fn step(&self, state: &mut DecoderState, actions: &Tensor) -> Tensor {
        let n = actions.size()[0];
        let v = self.vocab_size;
        let m = state.mentions.size()[1];
        let is_copy = actions.ge(v).view([n, 1, 1]);
        let vocab_ids = actions.clamp_max(v - 1).view([n, 1]);
        let copy_ids = (actions - v).clamp(0, m - 1).view([n, 1, 1]).expand([n, 1, state.mentions.size()[2]], false);
        let copied = state.mentions.gather(1, &copy_ids, false);
        let emb = self.action_embedding.forward(&vocab_ids).where_self(&is_copy.logical_not(), &self.copy_embedding.forward(&copied));
        let pos = Tensor::from_slice(&[state.position.min(self.cfg.max_target - 1)]).to(actions.device()).view([1, 1]);
        let mut x = emb + self.position.forward(&pos);
        for (layer, cache) in self.layers.iter().zip(state.layers.iter_mut()) {
            x = layer.step(&x, cache, &state.mem_bias);
        }
        state.position += 1;
        let vocab_logits = self.out_vocab.forward(&x);
        let h = self.cfg.encoder.hidden as f64;
        let copy_logits = self.out_copy.forward(&x).matmul(&state.mentions.transpose(1, 2)) / h.sqrt();
        let copy_logits = copy_logits + ((state.mention_mask.to_kind(Kind::Float) - 1.0) * 1e9).unsqueeze(1);
        Tensor::cat(&[vocab_logits, copy_logits], -1).log_softmax(-1, Kind::Float).squeeze_dim(1)
    }

    /// Scores of every next action after each prefix: `prev` [batch, time]
    /// holds action indices (vocabulary ids, then `vocab_size + mention`),
    /// starting with BOS. Returns log-probabilities [batch, time, vocab +
    /// mentions].
    pub fn decode(&self, enc: &Encoded, prev: &Tensor, train: bool) -> Tensor {
        let (b, t) = prev.size2().expect("[batch, time]");
        let device = prev.device();
        let v = self.vocab_size;
        let is_copy = prev.ge(v);
        let vocab_ids = prev.clamp_max(v - 1);
        let copy_ids = (prev - v).clamp_min(0);
        let m = enc.mentions.size()[1];
        let copy_ids = copy_ids.clamp_max(m - 1);
        let copied = enc.mentions.gather(1, &copy_ids.unsqueeze(-1).expand([b, t, enc.mentions.size()[2]], false), false);
        let emb = self.action_embedding.forward(&vocab_ids).where_self(&is_copy.logical_not().unsqueeze(-1), &self.copy_embedding.forward(&copied));
        let positions = Tensor::arange(t, (Kind::Int64, device)).clamp_max(self.cfg.max_target - 1).unsqueeze(0);
        let mut x = (emb + self.position.forward(&positions)).dropout(self.cfg.dropout, train);
        let causal = Tensor::ones([t, t], (Kind::Float, device)).triu(1) * -1e9;
        let mem_bias: Tensor = ((enc.mask.to_kind(Kind::Float) - 1.0) * 1e9).view([b, 1, 1, -1]);
        for layer in &self.layers {
            x = layer.forward(&x, &enc.states, &causal, &mem_bias, train, self.cfg.dropout);
        }
        let vocab_logits = self.out_vocab.forward(&x);
        let h = self.cfg.encoder.hidden as f64;
        let copy_logits = self.out_copy.forward(&x).matmul(&enc.mentions.transpose(1, 2)) / h.sqrt();
        let copy_logits = copy_logits + ((enc.mention_mask.to_kind(Kind::Float) - 1.0) * 1e9).unsqueeze(1);
        Tensor::cat(&[vocab_logits, copy_logits], -1).log_softmax(-1, Kind::Float)
    }
}

/// Pads [len_i, hidden] tensors to [batch, max_len, hidden], with a mask.
fn pad(xs: &[Tensor], device: Device) -> (Tensor, Tensor) {
    let max = xs.iter().map(|x| x.size()[0]).max().unwrap_or(1).max(1);
    let h = xs.first().map_or(1, |x| x.size()[1]);
    let mut rows = Vec::new();
    let mut mask = Vec::new();
    for x in xs {
        let n = x.size()[0];
        rows.push(if n < max { Tensor::cat(&[x.shallow_clone(), Tensor::zeros([max - n, h], (Kind::Float, device))], 0) } else { x.shallow_clone() });
        mask.extend((0..max).map(|i| (i < n) as i64));
    }
    (Tensor::stack(&rows, 0), Tensor::from_slice(&mask).view([xs.len() as i64, max]).to(device))
}

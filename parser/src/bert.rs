//! A BERT encoder laid out like candle's `bert.rs`, with the parameter
//! names of Hugging Face checkpoints, so all-MiniLM-L6-v2's
//! `model.safetensors` loads into it.

use crate::config::EncoderConfig;
use tch::nn::{self, Module};
use tch::{Kind, Tensor};

#[derive(Debug)]
struct Embeddings {
    word: nn::Embedding,
    position: nn::Embedding,
    token_type: nn::Embedding,
    norm: nn::LayerNorm,
}

impl Embeddings {
    fn new(cfg: &EncoderConfig, vs: nn::Path) -> Self {
        let ln = nn::LayerNormConfig { eps: cfg.layer_norm_eps, ..Default::default() };
        Embeddings {
            word: nn::embedding(&vs / "word_embeddings", cfg.vocab_size, cfg.hidden, Default::default()),
            position: nn::embedding(&vs / "position_embeddings", cfg.max_positions, cfg.hidden, Default::default()),
            token_type: nn::embedding(&vs / "token_type_embeddings", cfg.type_vocab, cfg.hidden, Default::default()),
            norm: nn::layer_norm(&vs / "LayerNorm", vec![cfg.hidden], ln),
        }
    }

    fn forward(&self, ids: &Tensor) -> Tensor {
        let (_, t) = ids.size2().expect("ids are [batch, time]");
        let positions = Tensor::arange(t, (Kind::Int64, ids.device())).unsqueeze(0);
        let types = ids.zeros_like();
        let x = self.word.forward(ids) + self.position.forward(&positions) + self.token_type.forward(&types);
        self.norm.forward(&x)
    }
}

#[derive(Debug)]
struct SelfAttention {
    query: nn::Linear,
    key: nn::Linear,
    value: nn::Linear,
    heads: i64,
}

impl SelfAttention {
    fn new(cfg: &EncoderConfig, vs: nn::Path) -> Self {
        let lin = |n: &str| nn::linear(&vs / n, cfg.hidden, cfg.hidden, Default::default());
        SelfAttention { query: lin("query"), key: lin("key"), value: lin("value"), heads: cfg.heads }
    }

    /// `mask`: [batch, time], 1 for tokens, 0 for padding.
    fn forward(&self, x: &Tensor, mask: &Tensor) -> Tensor {
        let (b, t, h) = x.size3().expect("[batch, time, hidden]");
        let d = h / self.heads;
        let split = |y: Tensor| y.view([b, t, self.heads, d]).transpose(1, 2);
        let (q, k, v) = (split(self.query.forward(x)), split(self.key.forward(x)), split(self.value.forward(x)));
        let scores = q.matmul(&k.transpose(-2, -1)) / (d as f64).sqrt();
        let bias: Tensor = (mask.to_kind(Kind::Float) - 1.0).view([b, 1, 1, t]) * 1e4;
        let attn = (scores + bias).softmax(-1, Kind::Float);
        attn.matmul(&v).transpose(1, 2).contiguous().view([b, t, h])
    }
}

#[derive(Debug)]
struct Layer {
    attention: SelfAttention,
    attention_out: nn::Linear,
    attention_norm: nn::LayerNorm,
    intermediate: nn::Linear,
    output: nn::Linear,
    output_norm: nn::LayerNorm,
}

impl Layer {
    fn new(cfg: &EncoderConfig, vs: nn::Path) -> Self {
        let ln = nn::LayerNormConfig { eps: cfg.layer_norm_eps, ..Default::default() };
        let attn = &vs / "attention";
        Layer {
            attention: SelfAttention::new(cfg, &attn / "self"),
            attention_out: nn::linear(&attn / "output" / "dense", cfg.hidden, cfg.hidden, Default::default()),
            attention_norm: nn::layer_norm(&attn / "output" / "LayerNorm", vec![cfg.hidden], ln),
            intermediate: nn::linear(&vs / "intermediate" / "dense", cfg.hidden, cfg.intermediate, Default::default()),
            output: nn::linear(&vs / "output" / "dense", cfg.intermediate, cfg.hidden, Default::default()),
            output_norm: nn::layer_norm(&vs / "output" / "LayerNorm", vec![cfg.hidden], ln),
        }
    }

    fn forward(&self, x: &Tensor, mask: &Tensor, train: bool, dropout: f64) -> Tensor {
        let a = self.attention_out.forward(&self.attention.forward(x, mask)).dropout(dropout, train);
        let x = self.attention_norm.forward(&(a + x));
        let f = self.output.forward(&self.intermediate.forward(&x).gelu("none")).dropout(dropout, train);
        self.output_norm.forward(&(f + x))
    }
}

/// The encoder: embeddings and `layers` transformer layers.
#[derive(Debug)]
pub struct BertEncoder {
    embeddings: Embeddings,
    layers: Vec<Layer>,
}

impl BertEncoder {
    /// Builds the encoder under `vs` (the checkpoint's root: `embeddings.*`,
    /// `encoder.layer.N.*`).
    pub fn new(cfg: &EncoderConfig, vs: nn::Path) -> Self {
        let layers = (0..cfg.layers).map(|i| Layer::new(cfg, &vs / "encoder" / "layer" / i)).collect();
        BertEncoder { embeddings: Embeddings::new(cfg, &vs / "embeddings"), layers }
    }

    /// `ids`, `mask`: [batch, time] -> states [batch, time, hidden].
    pub fn forward(&self, ids: &Tensor, mask: &Tensor, train: bool, dropout: f64) -> Tensor {
        let mut x = self.embeddings.forward(ids).dropout(dropout, train);
        for layer in &self.layers {
            x = layer.forward(&x, mask, train, dropout);
        }
        x
    }
}

//! Model and training configuration, with presets: `tiny` (tests, random
//! encoder, seconds on a CPU) and `base` (all-MiniLM-L6-v2 encoder).

use serde::{Deserialize, Serialize};

/// The BERT encoder's shape (all-MiniLM-L6-v2 for `base`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EncoderConfig {
    pub vocab_size: i64,
    pub hidden: i64,
    pub layers: i64,
    pub heads: i64,
    pub intermediate: i64,
    pub max_positions: i64,
    pub type_vocab: i64,
    pub layer_norm_eps: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelConfig {
    pub encoder: EncoderConfig,
    pub decoder_layers: i64,
    pub decoder_heads: i64,
    pub decoder_ff: i64,
    /// Longest target (in actions) the decoder's positions cover.
    pub max_target: i64,
    pub dropout: f64,
    /// Initialise the encoder from the MiniLM weights (else at random).
    pub pretrained: bool,
    /// Whether the decoder reads a mark on the tokens of the unit's own
    /// sentence ([`Unit::MarkedSentence`]).
    #[serde(default)]
    pub focus: bool,
}

impl ModelConfig {
    pub fn tiny() -> Self {
        ModelConfig {
            encoder: EncoderConfig {
                vocab_size: 30522,
                hidden: 32,
                layers: 1,
                heads: 2,
                intermediate: 64,
                max_positions: 512,
                type_vocab: 2,
                layer_norm_eps: 1e-12,
            },
            decoder_layers: 1,
            decoder_heads: 2,
            decoder_ff: 64,
            max_target: 512,
            dropout: 0.0,
            pretrained: false,
            focus: false,
        }
    }

    pub fn base() -> Self {
        ModelConfig {
            encoder: EncoderConfig {
                vocab_size: 30522,
                hidden: 384,
                layers: 6,
                heads: 12,
                intermediate: 1536,
                max_positions: 512,
                type_vocab: 2,
                layer_norm_eps: 1e-12,
            },
            decoder_layers: 2,
            decoder_heads: 6,
            decoder_ff: 1024,
            max_target: 512,
            dropout: 0.1,
            pretrained: true,
            focus: false,
        }
    }

    pub fn preset(name: &str) -> Option<Self> {
        match name {
            "tiny" => Some(Self::tiny()),
            "base" => Some(Self::base()),
            _ => None,
        }
    }
}

/// A training run: `lexlog train --config FILE`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// A preset name (`tiny`, `base`) …
    #[serde(default)]
    pub preset: Option<String>,
    /// … or a full model configuration.
    #[serde(default)]
    pub model: Option<ModelConfig>,
    pub seed: u64,
    pub epochs: usize,
    pub batch_size: usize,
    pub learning_rate: f64,
    /// Learning rate of the pretrained encoder (smaller), 0 to freeze it.
    pub encoder_learning_rate: f64,
    /// The encoder's embeddings keep their pretrained weights (no gradient):
    /// the words train never says stay where pretraining put them beside
    /// those it does.
    #[serde(default)]
    pub freeze_embeddings: bool,
    /// So do its lowest this many layers; with the embeddings frozen, the
    /// backward pass stops above them.
    #[serde(default)]
    pub frozen_layers: usize,
    /// Share of each target action's mass spread evenly over every action
    /// the step could take (label smoothing; 0: none).
    #[serde(default)]
    pub label_smoothing: f64,
    pub weight_decay: f64,
    pub warmup_steps: usize,
    pub clip_norm: f64,
    /// Share of the train split held out as the dev set.
    pub dev_fraction: f64,
    /// Train cases held out besides the dev set, never trained on nor
    /// selected by: a probe of a phenomenon dev may lack
    /// (`lexlog eval-parser --held-out`).
    #[serde(default)]
    pub held_out: Vec<String>,
    /// Epochs without a better dev score before stopping.
    pub patience: usize,
    /// Augment the train set by consistent substitution of names, amounts.
    pub augment: bool,
    /// The augmented copies also move every year the text spells (and its
    /// dates) by a few years, alike in text and target.
    #[serde(default)]
    pub augment_years: bool,
    /// The augmented copies also move the percentages the text spells
    /// (and the rest a "remaining" share leaves); on unless set false.
    #[serde(default = "yes")]
    pub augment_percentages: bool,
    /// Also train on every train case (and copy) with a "from Y1 to Y2"
    /// sentence said with "since" a date of Y1 there, and SARA's facts for
    /// it: that sentence's unit alone (the whole copy for case units).
    #[serde(default)]
    pub augment_since: bool,
    /// Also train on every second train case (and copy) with two adjacent
    /// sentences that state facts said as one ("X, and y."): that joined
    /// sentence's unit alone (the whole copy for case units).
    #[serde(default)]
    pub augment_conjoin: bool,
    /// Also train on every train case (and copy) with a sentence in which
    /// one person "furnished the costs of" a home said with a share of
    /// them, mostly with another person paying the rest, and SARA's
    /// facts for it; and that copy's range said with "since" as
    /// `augment_since` says it: those sentences' units alone.
    #[serde(default)]
    pub augment_split_cost: bool,
    /// Each epoch after the first trains on renamed and rescaled copies
    /// drawn anew (the config's seed plus the epoch's index) in place of the
    /// first epoch's; the vocabulary covers them all.
    #[serde(default)]
    pub augment_fresh: bool,
    /// Add this many recombinations (one case's text, then another's text
    /// and question) per short train case.
    #[serde(default)]
    pub recombine: usize,
    /// Evaluate on dev every this many epochs.
    pub eval_every: usize,
    /// Stop after the epoch that passes this wall-clock budget (seconds).
    #[serde(default)]
    pub max_seconds: Option<u64>,
    /// What one output covers: a whole case, or one sentence (facts) and
    /// the question (query) at a time.
    #[serde(default)]
    pub unit: Unit,
    /// Which dev figure keeps a checkpoint and stops training early.
    #[serde(default)]
    pub select: Select,
    /// What the dev set holds out together.
    #[serde(default)]
    pub dev_groups: DevGroups,
    /// The question's unit also reads the places of the section it cites,
    /// as the rules document them ([`crate::schema`]; marked sentences only).
    #[serde(default)]
    pub schema_hint: bool,
}

/// The units the dev set is drawn in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DevGroups {
    /// Single cases: a dev case's twin (`…_pos` / `…_neg`) may be trained on.
    #[default]
    Case,
    /// A case and its twin together, so dev asks subsections training never
    /// asks, as the test split does.
    Pair,
}

/// The dev figure that selects the checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Select {
    /// The teacher-forced loss (lower is better).
    #[default]
    DevLoss,
    /// The teacher-forced next-action accuracy (higher is better): what
    /// decoding depends on, where the loss also punishes a few confident
    /// errors.
    DevAccuracy,
}

/// The span of text one decoder output covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    #[default]
    Case,
    /// Each sentence's facts apart (reading the whole text), then the query
    /// ([`crate::sentences`]).
    Sentence,
    /// As `Sentence`, but the text and question are encoded once per case
    /// and each unit marks its sentence (or the question) in them: a
    /// learned embedding on its tokens, its mentions flagged.
    MarkedSentence,
}

impl Unit {
    /// Whether outputs cover one sentence (or the question) at a time.
    pub fn by_sentence(self) -> bool {
        matches!(self, Unit::Sentence | Unit::MarkedSentence)
    }
}

impl TrainConfig {
    /// The first `held_out` id that `is_case` does not know, if any.
    pub fn unknown_held_out(&self, is_case: impl Fn(&str) -> bool) -> Option<&str> {
        self.held_out.iter().map(String::as_str).find(|id| !is_case(id))
    }

    pub fn model_config(&self) -> Option<ModelConfig> {
        self.model
            .clone()
            .or_else(|| self.preset.as_deref().and_then(ModelConfig::preset))
            .map(|m| ModelConfig { focus: self.unit == Unit::MarkedSentence, ..m })
    }
}

fn yes() -> bool {
    true
}

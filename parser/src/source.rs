//! The source side: the MiniLM WordPiece tokenizer (truncation and padding
//! off), windows of at most 512 positions for the encoder, and the token
//! span of every mention.

use crate::error::ParserError;
use crate::mentions::Mention;
use std::path::{Path, PathBuf};
use tokenizers::Tokenizer;

/// Where the MiniLM files are: `$LEXLOG_MINILM` (set by `.ci/setup`), else
/// the set-up's cache (`$LEXLOG_CACHE`, default `~/.cache/lexlog`).
pub fn minilm_dir() -> Result<PathBuf, ParserError> {
    let cache = std::env::var_os("LEXLOG_CACHE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/lexlog")));
    std::env::var_os("LEXLOG_MINILM")
        .map(PathBuf::from)
        .into_iter()
        .chain(cache.map(|c| c.join("minilm-0.1.0")))
        .find(|p| p.join("tokenizer.json").is_file())
        .ok_or(ParserError::MissingEncoder)
}

/// Longest window the encoder reads, without [CLS] and [SEP].
pub const WINDOW: usize = 510;

pub struct SourceTokenizer {
    tokenizer: Tokenizer,
    cls: u32,
    sep: u32,
}

/// A tokenized source: word-piece ids (no special tokens) and, for each
/// mention, the token ranges of its occurrences.
#[derive(Debug, Clone)]
pub struct Source {
    pub ids: Vec<u32>,
    /// Every occurrence of each mention, as token ranges.
    pub mention_spans: Vec<Vec<(usize, usize)>>,
    /// Each mention's [`Mention::feature`].
    pub mention_features: Vec<i64>,
    /// The tokens of the part the output covers, where it is marked.
    pub focus: Option<(usize, usize)>,
}

impl SourceTokenizer {
    pub fn from_dir(dir: &Path) -> Result<Self, ParserError> {
        let path = dir.join("tokenizer.json");
        let mut tokenizer = Tokenizer::from_file(&path).map_err(|e| ParserError::Tokenizer(format!("{}: {e}", path.display())))?;
        tokenizer.with_truncation(None).map_err(|e| ParserError::Tokenizer(e.to_string()))?;
        tokenizer.with_padding(None);
        let id = |t: &str| tokenizer.token_to_id(t).ok_or_else(|| ParserError::Tokenizer(format!("no {t} token")));
        Ok(SourceTokenizer { cls: id("[CLS]")?, sep: id("[SEP]")?, tokenizer })
    }

    pub fn cls(&self) -> u32 {
        self.cls
    }

    pub fn sep(&self) -> u32 {
        self.sep
    }

    /// `text` as word pieces, with its mentions' spans and the token range
    /// of `focus` (a byte range of `text`), if any.
    pub fn encode(&self, text: &str, mentions: &[Mention], focus: Option<(usize, usize)>) -> Result<Source, ParserError> {
        let enc = self.tokenizer.encode(text, false).map_err(|e| ParserError::Tokenizer(e.to_string()))?;
        let offsets = enc.get_offsets();
        let token_span = |(start, end): (usize, usize)| {
            let first = offsets.iter().position(|&(s, e)| e > start && s < end);
            let last = offsets.iter().rposition(|&(s, e)| e > start && s < end);
            match (first, last) {
                (Some(a), Some(b)) => (a, b + 1),
                _ => (0, 1),
            }
        };
        let spans = mentions.iter().map(|m| m.spans().map(token_span).collect()).collect();
        Ok(Source {
            ids: enc.get_ids().to_vec(),
            mention_spans: spans,
            mention_features: mentions.iter().map(Mention::feature).collect(),
            focus: focus.map(token_span),
        })
    }
}

//! A training or evaluation example: a case's source text, its mentions,
//! and its target tokens.

use crate::mentions::{extract, Mention, QUESTION_MARKER};
use crate::target::{lex, render, Token};
use lexlog_data::{linear, Case, CaseIr};

#[derive(Debug, Clone)]
pub struct Example {
    pub id: String,
    /// Text and question, as the model reads them.
    pub source: String,
    pub mentions: Vec<Mention>,
    pub target: Vec<Token>,
    /// The byte range of `source` this example's output covers, where the
    /// source is shared by several outputs ([`crate::config::Unit::MarkedSentence`]).
    pub focus: Option<(usize, usize)>,
}

/// The parser's input for a case: its text, then its question.
pub fn source_text(text: &str, question: &str) -> String {
    format!("{text}{QUESTION_MARKER}{question}")
}

impl Example {
    pub fn from_case(case: &Case) -> Example {
        let source = source_text(&case.text, &case.question);
        let mentions = extract(&source);
        let target = lex(&linear::print(&linear::canonical_ids(&case.ir)));
        Example { id: case.id.clone(), source, mentions, target, focus: None }
    }

    /// The IR its target reads back as; `None` where it does not read.
    pub fn ir(&self) -> Option<CaseIr> {
        linear::parse(&render(&self.target)).ok()
    }
}
